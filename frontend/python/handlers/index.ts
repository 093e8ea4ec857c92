// Every opcode handler, keyed by CPython's opcode name. An opcode missing here makes a code
// object that contains it run as plain Python from its start (decided before running).
import { CALLS } from './calls.js';
import { CONTAINERS } from './containers.js';
import { EXCEPTIONS } from './exceptions.js';
import { GENERATORS } from './generators.js';
import { JUMPS } from './jumps.js';
import { LEGACY } from './legacy.js';
import { LOAD_STORE } from './load_store.js';
import { OPERATORS } from './operators.js';
import { STACK } from './stack.js';
import type { HandlerTable } from './types.js';

export const HANDLERS: HandlerTable = { ...STACK, ...LOAD_STORE, ...OPERATORS, ...CONTAINERS, ...JUMPS, ...CALLS, ...EXCEPTIONS, ...GENERATORS, ...LEGACY };
