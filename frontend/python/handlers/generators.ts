// Opcodes of generator frames (frontend/python/sot/generators.ts runs them inside the consumer's
// instruction). A fresh generator's frame starts at its prologue: RETURN_GENERATOR (3.11+) stands
// for "the generator was made, then resumed with None" and pushes that None for the POP_TOP after
// it; 3.10's GEN_START would pop it, so a fresh frame pushes nothing there.
import { GraphBreak } from '../../../sot/graph_breaks.js';
import { ConstVar } from '../../../sot/variables.js';
import { getIter } from '../sot/semantics.js';
import { GeneratorVar, sendInto, yieldFrom } from '../sot/generators.js';
import type { HandlerTable } from './types.js';

export const GENERATORS: HandlerTable = {
  RETURN_GENERATOR(tx) { tx.frame.push(new ConstVar({ k: 'none' })); },
  GEN_START() {},
  YIELD_VALUE(tx) { yieldFrom(tx, tx.frame.pop()); },
  GET_YIELD_FROM_ITER(tx) {
    const v = tx.frame.peek();
    if (v instanceof GeneratorVar) return;
    tx.frame.pop();
    tx.frame.push(getIter(tx, v));
  },
  // 3.11+: [receiver, value] -> [receiver, yielded] (YIELD_VALUE follows), or on return
  // [return value] (3.11) / [receiver, return value] (3.12+, END_SEND drops the receiver) and a jump.
  SEND(tx, ins) {
    const v = tx.frame.pop();
    const r = sendInto(tx, tx.frame.peek(), v);
    if (r.done) {
      if (tx.v.minor === 11) tx.frame.pop();
      tx.frame.push(r.value);
      tx.frame.ip = ins.jumpTarget;
      return;
    }
    tx.frame.push(r.value);
  },
  END_SEND(tx) {
    const v = tx.frame.pop();
    tx.frame.pop();
    tx.frame.push(v);
  },
  // 3.10: [receiver, value]: sends and yields in one instruction, which runs again on resumption
  YIELD_FROM(tx, ins) {
    const v = tx.frame.pop();
    const r = sendInto(tx, tx.frame.peek(), v);
    if (r.done) { tx.frame.pop(); tx.frame.push(r.value); return; }
    tx.frame.ip = ins.index;
    yieldFrom(tx, r.value);
  },
  // only reached through gen.throw() / close() of a suspended `yield from`, which break before
  CLEANUP_THROW() { throw new GraphBreak('SOT007', 'CLEANUP_THROW'); },
};
