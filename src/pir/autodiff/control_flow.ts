// Reverse rules of pd_op.if and pd_op.while (registered with registerVjp). Both recompute the
// forward inside the backward's own regions instead of saving region values: a region's values
// are not visible outside it, so the backward region clones the forward block and
// differentiates the clone.
//
// if: a backward pd_op.if on the same condition; each branch recomputes its forward branch and
//   yields the gradients of the captured values (zeros where the branch does not use one), so
//   only the taken branch's backward runs.
// while: a reverse loop. A counting loop first recomputes the trip count n. Then for
//   k = n-1 .. 0 the reverse body recomputes the state entering iteration k (an inner loop of k
//   body runs from the initial values), runs the body once more on it, and takes the body's
//   vector-Jacobian product with the carried gradients: the state's gradient is carried on,
//   the captured values' gradients are summed. Recomputing costs O(n^2) body runs but needs no
//   stack of saved iterations, so everything stays plain IR (printable, run by the same
//   executor); a stack-based version would make it O(n).
import { Builder } from '../builder.js';
import { Block, type Operation, type Value } from '../core.js';
import { capturedValues as capturedOf, IF, WHILE, yieldedValues } from '../dialects/control_flow.js';
import { isFloating } from '../../tensor/dtype.js';
import { GradEmitter, gradients, registerVjp } from './backward.js';
import { tensorType } from '../types.js';

const isFloat = (v: Value): boolean => v.type.kind === 'tensor' && isFloating(v.type.dtype);

/** Clones `block`'s ops (not its yield) at `b` with its arguments bound to `args`; returns what it yields. */
function inlineBlock(block: Block, args: readonly Value[], b: Builder): Value[] {
  const mapping = new Map<Value, Value>();
  block.args.forEach((a, i) => mapping.set(a, args[i]));
  for (const op of block.ops) if (op.name !== 'builtin.yield') b.insert(op.clone(mapping));
  return (yieldedValues(block) ?? []).map((v) => mapping.get(v!) ?? v!);
}

/** Creates a region op at the emitter's insertion point with `numRegions` empty regions. */
function regionOp(em: GradEmitter, name: string, operands: readonly Value[], types: readonly Value['type'][], numRegions: number): Operation {
  return em.builder.create(name, operands, [], types, numRegions);
}

registerVjp(IF, (op, outGrads, needsGrad, em) => {
  const ins: (Value | null)[] = [op.operand(0), ...capturedOf(op)];
  const wanted = ins.map((v, i) => (needsGrad[i] && v && isFloat(v) ? i : -1)).filter((i) => i >= 0);
  if (!wanted.length) return ins.map(() => null);
  const caps = wanted.map((i) => ins[i]!);
  const bop = regionOp(em, IF, [op.operand(0)!], caps.map((v) => v.type), 2);
  op.regions.forEach((r, ri) => {
    const blk = bop.regions[ri].addBlock();
    const b = new Builder(blk);
    const ys = inlineBlock(r.blocks[0], [], b);
    const pairs = ys.map((y, i) => [y, outGrads[i]] as const).filter(([y, g]) => g && isFloat(y));
    const gs = pairs.length ? gradients(blk, pairs.map(([y]) => y), caps, { builder: b, targetGrads: pairs.map(([, g]) => g!) }) : caps.map(() => null);
    const inner = new GradEmitter(b);
    b.yield(gs.map((g, k) => g ?? inner.run('zeros_like', [caps[k]])[0]));
  });
  const out: (Value | null)[] = ins.map(() => null);
  wanted.forEach((i, k) => { out[i] = bop.result(k); });
  return out;
});

registerVjp(WHILE, (op, outGrads, needsGrad, em) => {
  const nLoop = op.numOperands - 1;
  const inits = op.operandValues().slice(1) as Value[];
  const caps = capturedOf(op);
  const ins: (Value | null)[] = [op.operand(0), ...inits, ...caps];
  const body = op.regions[0].blocks[0];
  const F = inits.map((v, i) => (isFloat(v) ? i : -1)).filter((i) => i >= 0);          // loop values that carry gradients
  const C = caps.map((v, j) => (needsGrad[1 + nLoop + j] && isFloat(v) ? j : -1)).filter((j) => j >= 0);
  if (!F.some((i) => needsGrad[1 + i]) && !C.length) return ins.map(() => null);
  const i64 = (v: number, e: GradEmitter) => e.run('full', [], { shape: [], fill_value: v, dtype: 'int64' })[0];
  const idxType = tensorType('int64', []);

  // 1. Trip count: the forward loop again, counting.
  const count = regionOp(em, WHILE, [op.operand(0)!, i64(0, em), ...inits], [idxType, ...inits.map((v) => v.type)], 1);
  {
    const blk = count.regions[0].addBlock(new Block([idxType, ...inits.map((v) => v.type)]));
    const b = new Builder(blk), e = new GradEmitter(b);
    const [c, ...next] = inlineBlock(body, blk.args.slice(1), b);
    b.yield([c, e.run('add', [blk.args[0], i64(1, e)])[0], ...next]);
  }
  const n = count.result(0);

  // 2. The reverse loop over k = n-1 .. 0, carrying the loop values' and captures' gradients.
  const g0 = F.map((i) => outGrads[i] ?? em.run('zeros_like', [op.result(i)])[0]);
  const c0 = C.map((j) => em.run('zeros_like', [caps[j]])[0]);
  const revTypes = [idxType, ...F.map((i) => inits[i].type), ...C.map((j) => caps[j].type)];
  const start = em.run('greater_than', [n, i64(0, em)])[0];
  const rev = regionOp(em, WHILE, [start, em.run('subtract', [n, i64(1, em)])[0], ...g0, ...c0], revTypes, 1);
  {
    const blk = rev.regions[0].addBlock(new Block(revTypes));
    const b = new Builder(blk), e = new GradEmitter(b);
    const k = blk.args[0];
    const gCarry = blk.args.slice(1, 1 + F.length), cCarry = blk.args.slice(1 + F.length);
    // The state entering iteration k: k body runs from the initial values.
    const stateTypes = [idxType, ...inits.map((v) => v.type)];
    const zero = i64(0, e);
    const state = e.builder.create(WHILE, [e.run('less_than', [zero, k])[0], zero, ...inits], [], stateTypes, 1);
    {
      const sb = state.regions[0].addBlock(new Block(stateTypes));
      const b2 = new Builder(sb), e2 = new GradEmitter(b2);
      const [, ...next] = inlineBlock(body, sb.args.slice(1), b2);
      const j1 = e2.run('add', [sb.args[0], i64(1, e2)])[0];
      b2.yield([e2.run('less_than', [j1, k])[0], j1, ...next]);
    }
    const s = state.results.slice(1);
    // One more body run on that state, and its vector-Jacobian product.
    const [, ...v] = inlineBlock(body, s, b);
    const wrt = [...F.map((i) => s[i]), ...C.map((j) => caps[j])];
    const gs = gradients(blk, F.map((i) => v[i]), wrt, { builder: b, targetGrads: gCarry, inputsAreLeaves: true });
    const gNext = F.map((i, q) => gs[q] ?? e.run('zeros_like', [s[i]])[0]);
    const cNext = C.map((_, q) => { const g = gs[F.length + q]; return g ? e.run('add', [cCarry[q], g])[0] : cCarry[q]; });
    const k1 = e.run('subtract', [k, i64(1, e)])[0];
    b.yield([e.run('greater_equal', [k1, i64(0, e)])[0], k1, ...gNext, ...cNext]);
  }
  const out: (Value | null)[] = ins.map(() => null);
  F.forEach((i, q) => { if (needsGrad[1 + i]) out[1 + i] = rev.result(1 + q); });
  C.forEach((j, q) => { out[1 + nLoop + j] = rev.result(1 + F.length + q); });
  return out;
});
