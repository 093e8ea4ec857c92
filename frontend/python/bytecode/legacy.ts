// Decoding differences of CPython 3.10 and 3.11 that are about *where* values live rather than
// what opcodes mean, normalized once per code object so the handlers and the trace tree's
// layouts (instruction indices) see one model:
//
// - 3.10 creates cells when the frame starts (no MAKE_CELL): a MAKE_CELL per cell slot is
//   prepended, so a cell that is also an argument wraps the argument's value as CPython does.
// - 3.10's LOAD_DEREF / STORE_DEREF / DELETE_DEREF / LOAD_CLOSURE / LOAD_CLASSDEREF index
//   co_cellvars + co_freevars; 3.11+ index localsplus. Their args are rewritten to slots.
// - JUMP_IF_TRUE_OR_POP / JUMP_IF_FALSE_OR_POP (3.10/3.11; `a or b` as a value) become
//   COPY 1; POP_JUMP_IF_TRUE/FALSE; POP_TOP. Same stack effect on both paths, and a truth test
//   that needs a concrete step (a tensor) breaks at the POP_JUMP, whose break form already
//   exists (resume at the same jump with the bool), instead of needing a step that both keeps
//   the value and picks the path.
// - 3.11's POP_JUMP_FORWARD_IF_* / POP_JUMP_BACKWARD_IF_* are named POP_JUMP_IF_*: the decoder
//   has resolved the direction into jumpTarget, so the rest of the translator (break steps,
//   branch capture) knows one name per condition, as on 3.12+.
// - 3.10's JUMP_IF_NOT_EXC_MATCH becomes CHECK_EXC_MATCH; ROT_TWO; POP_TOP; POP_JUMP_IF_FALSE:
//   the match is 3.11's step (it may break and run concretely), the jump an ordinary branch.
import type { Instruction } from './decode.js';

/** What the normalization needs to know about the code object (from its CodeWire). */
export interface LegacyCodeFacts {
  readonly localsplus: readonly string[];
  /** Per localsplus slot: 'l' plain local, 'c' cell, 'f' free variable. */
  readonly localkinds: string;
  /** co_cellvars in CPython's order (3.10 deref numbering); absent from older wires. */
  readonly cellvars?: readonly string[];
}

/** 3.10's per-operator opcodes and the BINARY_OP symbol each one stands for. */
export const LEGACY_BINARY: Readonly<Record<string, string>> = {
  BINARY_ADD: '+', BINARY_AND: '&', BINARY_FLOOR_DIVIDE: '//', BINARY_LSHIFT: '<<', BINARY_MATRIX_MULTIPLY: '@',
  BINARY_MULTIPLY: '*', BINARY_MODULO: '%', BINARY_OR: '|', BINARY_POWER: '**', BINARY_RSHIFT: '>>',
  BINARY_SUBTRACT: '-', BINARY_TRUE_DIVIDE: '/', BINARY_XOR: '^',
  INPLACE_ADD: '+=', INPLACE_AND: '&=', INPLACE_FLOOR_DIVIDE: '//=', INPLACE_LSHIFT: '<<=', INPLACE_MATRIX_MULTIPLY: '@=',
  INPLACE_MULTIPLY: '*=', INPLACE_MODULO: '%=', INPLACE_OR: '|=', INPLACE_POWER: '**=', INPLACE_RSHIFT: '>>=',
  INPLACE_SUBTRACT: '-=', INPLACE_TRUE_DIVIDE: '/=', INPLACE_XOR: '^=',
};

const DEREF_OPS = new Set(['LOAD_DEREF', 'STORE_DEREF', 'DELETE_DEREF', 'LOAD_CLOSURE', 'LOAD_CLASSDEREF']);
const DIRECTIONAL = /^POP_JUMP_(?:FORWARD|BACKWARD)_IF_/;
const OR_POP: Record<string, string> = { JUMP_IF_TRUE_OR_POP: 'POP_JUMP_IF_TRUE', JUMP_IF_FALSE_OR_POP: 'POP_JUMP_IF_FALSE' };
const EXC_MATCH = 'JUMP_IF_NOT_EXC_MATCH';

/**
 * @param framePrologueCells true when the interpreter has no MAKE_CELL opcode (3.10): cells are
 *   made at frame start and deref args count cells then free variables.
 * @example normalizeLegacy(decoder.decode(bytes), wire, !('MAKE_CELL' in info.opmap))
 */
export function normalizeLegacy(ins: Instruction[], code: LegacyCodeFacts, framePrologueCells: boolean): Instruction[] {
  const needsExpand = ins.some((i) => OR_POP[i.opname] !== undefined || i.opname === EXC_MATCH || DIRECTIONAL.test(i.opname));
  if (!framePrologueCells && !needsExpand) return ins;
  const out: Instruction[] = [];
  const first = ins[0];
  const add = (base: Instruction, opname: string, arg: number, jumpTarget: number): void => {
    out.push({ ...base, index: out.length, opname, opcode: opname === base.opname ? base.opcode : -1, arg, jumpTarget });
  };
  let derefSlot: ((arg: number) => number) | null = null;
  if (framePrologueCells) {
    const kinds = code.localkinds;
    for (let i = 0; i < kinds.length; i++) {
      if (kinds[i] === 'c' && first) add(first, 'MAKE_CELL', i, -1);
    }
    const cellvars = code.cellvars ?? [];
    const nfree = [...kinds].filter((k) => k === 'f').length;
    const nlocals = code.localsplus.length;
    derefSlot = (arg) => {
      if (arg < cellvars.length) {
        const slot = code.localsplus.indexOf(cellvars[arg]);
        if (slot < 0) throw new Error(`bytecode: cell variable '${cellvars[arg]}' has no local slot`);
        return slot;
      }
      return nlocals - nfree + (arg - cellvars.length);
    };
  }
  const newIndex: number[] = [];
  for (const i of ins) {
    newIndex[i.index] = out.length;
    const cond = OR_POP[i.opname];
    if (cond) {
      add(i, 'COPY', 1, -1);
      add(i, cond, 0, i.jumpTarget);  // old index: remapped below
      add(i, 'POP_TOP', 0, -1);
    } else if (i.opname === EXC_MATCH) {
      // [exc, cls] -> [exc, match] -> [match, exc] -> [match] -> [] (jumps when no match)
      add(i, 'CHECK_EXC_MATCH', 0, -1);
      add(i, 'ROT_TWO', 0, -1);
      add(i, 'POP_TOP', 0, -1);
      add(i, 'POP_JUMP_IF_FALSE', 0, i.jumpTarget);
    } else if (DIRECTIONAL.test(i.opname)) {
      add(i, i.opname.replace(DIRECTIONAL, 'POP_JUMP_IF_'), i.arg, i.jumpTarget);
    } else if (derefSlot && DEREF_OPS.has(i.opname)) {
      add(i, i.opname, derefSlot(i.arg), i.jumpTarget);
    } else {
      add(i, i.opname, i.arg, i.jumpTarget);
    }
  }
  for (const i of out) if (i.jumpTarget >= 0) i.jumpTarget = newIndex[i.jumpTarget];
  return out;
}
