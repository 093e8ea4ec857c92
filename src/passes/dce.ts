// Dead code elimination: erases ops whose results nobody uses, when that is safe. What is never
// removed (see isTriviallyDead): ops with side effects (set_parameter, fetch, host_call, inplace
// writes, random ops, which advance the generator), ops with regions, unregistered ops (their
// effects are unknown), terminators and feeds. Blocks are walked backwards so a whole dead
// chain goes in one sweep; nested regions are cleaned too.
import type { Block, Program } from '../pir/core.js';
import { isTriviallyDead } from './rewriter.js';

/** Erases dead ops in `program`; returns how many were erased. */
export function eliminateDeadCode(program: Program): number {
  let erased = 0;
  const sweep = (b: Block): void => {
    for (let i = b.ops.length - 1; i >= 0; i--) {
      const op = b.ops[i];
      for (const r of op.regions) for (const blk of r.blocks) sweep(blk);
      if (isTriviallyDead(op)) { op.erase(); erased++; }
    }
  };
  sweep(program.block);
  return erased;
}
