// Stack mechanics: no values are interpreted here.
import { NULL } from '../../../sot/variables.js';
import type { HandlerTable } from './types.js';

export const STACK: HandlerTable = {
  NOP() {},
  RESUME() {},
  NOT_TAKEN() {},
  CACHE() {},
  POP_TOP(tx) { tx.frame.pop(); },
  PUSH_NULL(tx) { tx.frame.push(NULL); },
  COPY(tx, ins) { tx.frame.push(tx.frame.peek(ins.arg)); },
  SWAP(tx, ins) {
    const s = tx.frame.stack;
    const i = s.length - 1, j = s.length - ins.arg;
    [s[i], s[j]] = [s[j], s[i]];
  },
  END_FOR(tx) { tx.frame.popN(tx.v.endForPops); },
  POP_ITER(tx) { tx.frame.pop(); },
};
