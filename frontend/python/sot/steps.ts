// How each instruction runs as a concrete step of the trace tree (the graph break form): how
// many stack values it takes as operands and how many it pushes back. The implementations are
// in compat/paddle/jit/sot/concrete.py under the same names. An instruction the translator can
// break at must have a row here: a break without one would leave the frame stuck.
import type { Instruction } from '../bytecode/decode.js';
import type { ConcreteStep } from '../../../sot/host.js';
import type { VersionTable } from './versions.js';
import { LEGACY_BINARY } from '../bytecode/legacy.js';

interface StepRow {
  /** Stack values the step takes (from the top). */
  readonly pops: number | ((arg: number, v: VersionTable) => number);
  /** Values the step pushes. */
  readonly pushes: number | ((arg: number, v: VersionTable) => number);
}

const attrPushes = (arg: number, v: VersionTable) => (v.attrMethodBit && arg & 1 ? 2 : 1);
/** Container-building instructions act on the container `arg` entries down: they take it and
 * everything above it, and push back all but the consumed value. */
const peekPops = (arg: number) => arg + 1;
const peekPushes = (arg: number) => arg;

export const STEPS: Readonly<Record<string, StepRow>> = {
  CALL: { pops: (a) => a + 2, pushes: 1 },
  CALL_KW: { pops: (a) => a + 3, pushes: 1 },
  CALL_FUNCTION_EX: { pops: (a, v) => (v.callExAlwaysHasKwargs ? 4 : (v.callHasNullSlot ? 3 : 2) + (a & 1)), pushes: 1 },
  BINARY_OP: { pops: 2, pushes: 1 },
  COMPARE_OP: { pops: 2, pushes: 1 },
  BINARY_SUBSCR: { pops: 2, pushes: 1 },
  CONTAINS_OP: { pops: 2, pushes: 1 },
  IS_OP: { pops: 2, pushes: 1 },
  FORMAT_WITH_SPEC: { pops: 2, pushes: 1 },
  FORMAT_SIMPLE: { pops: 1, pushes: 1 },
  FORMAT_VALUE: { pops: (a) => (a & 4 ? 2 : 1), pushes: 1 },
  CONVERT_VALUE: { pops: 1, pushes: 1 },
  BUILD_STRING: { pops: (a) => a, pushes: 1 },
  TO_BOOL: { pops: 1, pushes: 1 },
  UNARY_NEGATIVE: { pops: 1, pushes: 1 },
  UNARY_INVERT: { pops: 1, pushes: 1 },
  UNARY_NOT: { pops: 1, pushes: 1 },
  CALL_INTRINSIC_1: { pops: 1, pushes: 1 },
  LOAD_ATTR: { pops: 1, pushes: attrPushes },
  LOAD_SUPER_ATTR: { pops: 3, pushes: (a) => (a & 1 ? 2 : 1) },
  STORE_ATTR: { pops: 2, pushes: 0 },
  DELETE_ATTR: { pops: 1, pushes: 0 },
  STORE_SUBSCR: { pops: 3, pushes: 0 },
  DELETE_SUBSCR: { pops: 2, pushes: 0 },
  BINARY_SLICE: { pops: 3, pushes: 1 },
  STORE_SLICE: { pops: 4, pushes: 0 },
  UNPACK_SEQUENCE: { pops: 1, pushes: (a) => a },
  UNPACK_EX: { pops: 1, pushes: (a) => (a & 0xff) + (a >> 8) + 1 },
  GET_ITER: { pops: 1, pushes: 1 },
  FOR_ITER: { pops: 1, pushes: 3 },
  POP_JUMP_IF_TRUE: { pops: 1, pushes: 1 },
  POP_JUMP_IF_FALSE: { pops: 1, pushes: 1 },
  BUILD_MAP: { pops: (a) => 2 * a, pushes: 1 },
  BUILD_CONST_KEY_MAP: { pops: (a) => a + 1, pushes: 1 },
  BUILD_SET: { pops: (a) => a, pushes: 1 },
  LIST_APPEND: { pops: peekPops, pushes: peekPushes },
  LIST_EXTEND: { pops: peekPops, pushes: peekPushes },
  SET_ADD: { pops: peekPops, pushes: peekPushes },
  SET_UPDATE: { pops: peekPops, pushes: peekPushes },
  MAP_ADD: { pops: (a) => a + 2, pushes: peekPushes },
  DICT_UPDATE: { pops: peekPops, pushes: peekPushes },
  // DICT_MERGE also takes the positional-args tuple and the callable pair below the container,
  // for CPython's "f() got multiple values for keyword argument" message.
  DICT_MERGE: { pops: (a, v) => a + (v.callHasNullSlot ? 4 : 3), pushes: (a, v) => a + (v.callHasNullSlot ? 3 : 2) },
  RAISE_VARARGS: { pops: (a) => a, pushes: 0 },
  LOAD_GLOBAL: { pops: 0, pushes: (a, v) => (v.globalNullBit && a & 1 ? 2 : 1) },
  DELETE_GLOBAL: { pops: 0, pushes: 0 },
  IMPORT_NAME: { pops: 2, pushes: 1 },
  IMPORT_FROM: { pops: 1, pushes: 2 },
  RERAISE: { pops: 1, pushes: 0 },
  CHECK_EXC_MATCH: { pops: 2, pushes: 2 },
  BEFORE_WITH: { pops: 1, pushes: 2 },
  LOAD_SPECIAL: { pops: 1, pushes: 2 },
  // [exit, (exit self on 3.14,) lasti, previous exception, exception] stay, the result is pushed
  // (3.10: [exit, previous tb/value/type, tb/value/type], the translator's exception in the last three)
  WITH_EXCEPT_START: { pops: (_a, v) => (v.blockStack ? 7 : v.minor >= 14 ? 5 : 4), pushes: (_a, v) => (v.blockStack ? 8 : v.minor >= 14 ? 6 : 5) },
  SETUP_WITH: { pops: 1, pushes: 2 },
  // 3.10 / 3.11 (handlers/legacy.ts); concrete.py has steps of the same names
  CALL_FUNCTION: { pops: (a) => a + 1, pushes: 1 },
  CALL_FUNCTION_KW: { pops: (a) => a + 2, pushes: 1 },
  CALL_METHOD: { pops: (a) => a + 2, pushes: 1 },
  LOAD_METHOD: { pops: 1, pushes: 2 },
  UNARY_POSITIVE: { pops: 1, pushes: 1 },
  LIST_TO_TUPLE: { pops: 1, pushes: 1 },
  ...Object.fromEntries(Object.keys(LEGACY_BINARY).map((name) => [name, { pops: 2, pushes: 1 }])),
  /** The user's code raises here (an unbound local, ...): the step raises the same exception. */
  SKIFF_RAISE: { pops: 0, pushes: 0 },
};

/** Operands a break at `ins` takes as its step's operands. */
export function stepPops(ins: Instruction, v: VersionTable, raising: boolean): number | null {
  if (raising) return 0;
  const row = STEPS[ins.opname];
  if (!row) return null;
  return typeof row.pops === 'number' ? row.pops : row.pops(ins.arg, v);
}

/** Values the concrete step pushes (after the layer version every step returns first). */
export function stepPushes(step: ConcreteStep, opcodeName: string, v: VersionTable): number {
  switch (step.opname) {
    case 'SKIFF_FOR_ITER': return 3;
    case 'SKIFF_RAISE': case 'SKIFF_RAISE_CTX': return 0;
    default: break;
  }
  const row = STEPS[opcodeName];
  if (!row) throw new Error(`sot: no concrete step for ${opcodeName}`);
  return typeof row.pushes === 'number' ? row.pushes : row.pushes(step.arg, v);
}
