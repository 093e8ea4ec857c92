// Jumps, branches and loops. Branches on Python values are followed (their inputs are guarded
// through their sources); a branch on a tensor's value breaks the graph, unless the code asks
// for control-flow capture (sot/capture_cf.ts), which records both sides into an if node.
import { GraphBreak } from '../../../sot/graph_breaks.js';
import { ConstVar, IterVar, NullVar, ObjectVar, TensorVar } from '../../../sot/variables.js';
import { getIter, truthy } from '../sot/semantics.js';
import { captureBranch, captureEnabled } from '../sot/capture_cf.js';
import { GeneratorVar, generatorForIter } from '../sot/generators.js';
import type { Translator } from '../sot/translator.js';
import type { Instruction } from '../bytecode/decode.js';
import type { HandlerTable } from './types.js';

function jump(tx: Translator, ins: Instruction): void { tx.frame.ip = ins.jumpTarget; }

function isNone(v: unknown): boolean | null {
  if (v instanceof ConstVar) return v.value.k === 'none';
  if (v instanceof NullVar) return null;
  return false;
}

/** After an exhausted loop: skip the epilogue at the target (END_FOR, POP_TOP / POP_ITER). */
export function exitLoop(tx: Translator, forIter: Instruction): void {
  tx.frame.pop();  // the iterator
  let ip = forIter.jumpTarget;
  const code = tx.code.instructions;
  for (const name of tx.v.forIterEpilogue) {
    if (code[ip]?.opname === name) ip++;
  }
  tx.frame.ip = ip;
}

export const JUMPS: HandlerTable = {
  JUMP_FORWARD: jump,
  JUMP_BACKWARD: jump,
  JUMP_BACKWARD_NO_INTERRUPT: jump,
  JUMP: jump,
  JUMP_NO_INTERRUPT: jump,
  POP_JUMP_IF_TRUE(tx, ins) {
    const v = tx.frame.pop();
    if (v instanceof TensorVar && captureEnabled(tx)) return captureBranch(tx, ins, v);
    if (truthy(tx, v)) jump(tx, ins);
  },
  POP_JUMP_IF_FALSE(tx, ins) {
    const v = tx.frame.pop();
    if (v instanceof TensorVar && captureEnabled(tx)) return captureBranch(tx, ins, v);
    if (!truthy(tx, v)) jump(tx, ins);
  },
  POP_JUMP_IF_NONE(tx, ins) {
    const v = tx.frame.pop();
    const r = isNone(v);
    if (r === null) throw new GraphBreak('SOT007', 'None test on NULL');
    if (r) jump(tx, ins);
  },
  POP_JUMP_IF_NOT_NONE(tx, ins) {
    const v = tx.frame.pop();
    const r = isNone(v);
    if (r === null) throw new GraphBreak('SOT007', 'None test on NULL');
    if (!r) jump(tx, ins);
  },
  GET_ITER(tx) {
    const v = tx.frame.peek();
    if (v instanceof GeneratorVar) return;  // iter(gen) is gen; FOR_ITER resumes it lazily
    const it = v instanceof ObjectVar && v.info.kind === 'other' ? null : getIter(tx, v);
    if (!it) throw new GraphBreak('SOT009', `iteration over ${(v as ObjectVar).ref.typeName}`);
    tx.frame.pop();
    tx.frame.push(it);
  },
  FOR_ITER(tx, ins) {
    const it = tx.frame.peek();
    if (it instanceof IterVar) {
      if (it.pos < it.items.length) tx.frame.push(it.items[it.pos++]);
      else exitLoop(tx, ins);
      return;
    }
    if (it instanceof GeneratorVar) return generatorForIter(tx, it, () => exitLoop(tx, ins));
    if (it instanceof TensorVar) throw new GraphBreak('SOT009', 'iteration over a tensor');
    throw new GraphBreak('SOT009', `iteration over ${it.kind}`);
  },
};
