// Decoding of 3.10/3.11 bytecode forms without a Pyodide: a made-up interpreter table (numbers
// are arbitrary; real runs read dis.opmap) and hand-assembled code, checked through
// Decoder + normalizeLegacy (frontend/python/bytecode/legacy.ts).
import { describe, expect, it } from 'vitest';
import { Decoder, type Instruction } from '../../frontend/python/bytecode/decode.js';
import type { InterpreterInfo } from '../../frontend/python/bytecode/interp_info.js';
import { normalizeLegacy } from '../../frontend/python/bytecode/legacy.js';

const OPS = ['NOP', 'POP_TOP', 'LOAD_FAST', 'LOAD_DEREF', 'STORE_DEREF', 'LOAD_CLOSURE', 'RETURN_VALUE', 'JUMP_ABSOLUTE',
  'JUMP_IF_FALSE_OR_POP', 'JUMP_IF_TRUE_OR_POP', 'POP_JUMP_BACKWARD_IF_TRUE', 'POP_JUMP_FORWARD_IF_NONE', 'JUMP_FORWARD',
  'DUP_TOP', 'LOAD_GLOBAL', 'JUMP_IF_NOT_EXC_MATCH', 'RERAISE'];
const op = Object.fromEntries(OPS.map((n, i) => [n, 90 + i]));

function info(minor: number, absolute: string[]): InterpreterInfo {
  const jumps = ['JUMP_ABSOLUTE', 'JUMP_IF_FALSE_OR_POP', 'JUMP_IF_TRUE_OR_POP', 'POP_JUMP_BACKWARD_IF_TRUE', 'POP_JUMP_FORWARD_IF_NONE', 'JUMP_FORWARD', 'JUMP_IF_NOT_EXC_MATCH'];
  return {
    version: [3, minor], opmap: { ...op, EXTENDED_ARG: 144 }, cacheEntries: {}, jumpOpcodes: jumps.map((n) => op[n]),
    absoluteJumpOpcodes: absolute.map((n) => op[n]), haveArgument: 90, cmpOp: [], binaryOps: [], intrinsic1: [], intrinsic2: [], commonConstants: [],
  };
}

const asm = (...code: [string, number][]): Uint8Array => new Uint8Array(code.flatMap(([n, a]) => [op[n], a]));
const show = (ins: Instruction[]) => ins.map((i) => `${i.index}:${i.opname} ${i.arg}${i.jumpTarget >= 0 ? ` ->${i.jumpTarget}` : ''}`);

describe('3.10/3.11 bytecode normalization', () => {
  it('3.10: absolute JUMP_IF_FALSE_OR_POP becomes COPY/POP_JUMP_IF_FALSE/POP_TOP with targets remapped', () => {
    // 0 LOAD_FAST 0; 1 JUMP_IF_FALSE_OR_POP ->3 (absolute, code units); 2 LOAD_FAST 1; 3 RETURN_VALUE; 4 JUMP_ABSOLUTE ->1
    const code = asm(['LOAD_FAST', 0], ['JUMP_IF_FALSE_OR_POP', 3], ['LOAD_FAST', 1], ['RETURN_VALUE', 0], ['JUMP_ABSOLUTE', 1]);
    const ins = normalizeLegacy(new Decoder(info(10, ['JUMP_ABSOLUTE', 'JUMP_IF_FALSE_OR_POP', 'JUMP_IF_TRUE_OR_POP'])).decode(code), { localsplus: ['a', 'b'], localkinds: 'll' }, false);
    expect(show(ins)).toEqual(['0:LOAD_FAST 0', '1:COPY 1', '2:POP_JUMP_IF_FALSE 0 ->5', '3:POP_TOP 0', '4:LOAD_FAST 1', '5:RETURN_VALUE 0', '6:JUMP_ABSOLUTE 1 ->1']);
    // the expanded instructions keep the original's offset (exception tables and lines look it up)
    expect(ins.slice(1, 4).map((i) => i.offset)).toEqual([2, 2, 2]);
  });

  it('3.10: JUMP_IF_NOT_EXC_MATCH becomes CHECK_EXC_MATCH/ROT_TWO/POP_TOP/POP_JUMP_IF_FALSE', () => {
    // an except clause: 0 DUP_TOP; 1 LOAD_GLOBAL 0; 2 JUMP_IF_NOT_EXC_MATCH ->4 (absolute); 3 POP_TOP; 4 RERAISE 0
    const code = asm(['DUP_TOP', 0], ['LOAD_GLOBAL', 0], ['JUMP_IF_NOT_EXC_MATCH', 4], ['POP_TOP', 0], ['RERAISE', 0]);
    const ins = normalizeLegacy(new Decoder(info(10, ['JUMP_IF_NOT_EXC_MATCH'])).decode(code), { localsplus: [], localkinds: '' }, false);
    expect(show(ins)).toEqual(['0:DUP_TOP 0', '1:LOAD_GLOBAL 0', '2:CHECK_EXC_MATCH 0', '3:ROT_TWO 0', '4:POP_TOP 0', '5:POP_JUMP_IF_FALSE 0 ->7', '6:POP_TOP 0', '7:RERAISE 0']);
    // one offset for the four: the block table (handler lookup) and lines see one instruction
    expect(ins.slice(2, 6).map((i) => i.offset)).toEqual([4, 4, 4, 4]);
  });

  it('3.10: cells are made at frame start and deref args become localsplus slots', () => {
    // localsplus: a (argument, also a cell), t (plain), c (cell only), f (free); co_cellvars = (c, a)
    const code = asm(['LOAD_DEREF', 0], ['STORE_DEREF', 1], ['LOAD_CLOSURE', 2], ['RETURN_VALUE', 0]);
    const ins = normalizeLegacy(new Decoder(info(10, [])).decode(code), { localsplus: ['a', 't', 'c', 'f'], localkinds: 'clcf', cellvars: ['c', 'a'] }, true);
    expect(show(ins)).toEqual(['0:MAKE_CELL 0', '1:MAKE_CELL 2', '2:LOAD_DEREF 2', '3:STORE_DEREF 0', '4:LOAD_CLOSURE 3', '5:RETURN_VALUE 0']);
  });

  it('3.11: directional POP_JUMP_*_IF_* are renamed once their relative targets are resolved', () => {
    // 0 NOP; 1 LOAD_FAST; 2 POP_JUMP_BACKWARD_IF_TRUE 3 (-> 0); 3 POP_JUMP_FORWARD_IF_NONE 1 (-> 5); 4 NOP; 5 RETURN_VALUE
    const code = asm(['NOP', 0], ['LOAD_FAST', 0], ['POP_JUMP_BACKWARD_IF_TRUE', 3], ['POP_JUMP_FORWARD_IF_NONE', 1], ['NOP', 0], ['RETURN_VALUE', 0]);
    const ins = normalizeLegacy(new Decoder(info(11, [])).decode(code), { localsplus: ['a'], localkinds: 'l' }, false);
    expect(show(ins)).toEqual(['0:NOP 0', '1:LOAD_FAST 0', '2:POP_JUMP_IF_TRUE 3 ->0', '3:POP_JUMP_IF_NONE 1 ->5', '4:NOP 0', '5:RETURN_VALUE 0']);
  });

  it('3.12+ code passes through unchanged', () => {
    const decoded = new Decoder(info(12, [])).decode(asm(['LOAD_FAST', 0], ['RETURN_VALUE', 0]));
    expect(normalizeLegacy(decoded, { localsplus: ['a'], localkinds: 'l' }, false)).toBe(decoded);
  });
});
