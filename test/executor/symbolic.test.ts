// Symbolic shapes end to end: a program over a batch s0 and sequence lengths s1..s4 gets its
// shape constraints inferred (s1+s2 == s3 from a concat added to another input, s0*s1 == s4
// from a flattening reshape added to another), recorded as shape.tie_product_equal ops that
// survive print/parse, and serves every size that satisfies them. The executor lowers a program
// once (per input layout) and rebinds that lowering for each new signature (shapes, attributes,
// buffer sizes: src/executor/rebind.ts); a rebound plan is the plan a fresh lowering would make;
// a violated constraint is reported, naming the constraint, the values and where each symbol was
// bound, before anything is lowered.
import { describe, expect, it } from 'vitest';
import { compile, executorCounters, formatGraph, formatLowered, fromPir, runGraphEager } from '../../src/executor/index.js';
import { buildModel, MODELS } from '../passes/models.js';
import { Builder, inferShapeConstraints, inferSymbolicShapes, parseProgram, printProgram, Program, shapeConstraintsOf, tensorType, verify } from '../../src/pir/index.js';
import { constraintStr } from '../../src/tensor/sym_expr.js';
import { sym } from '../../src/tensor/shape.js';
import { scope, type Tensor } from '../../src/tensor/tensor.js';
import { expectAllClose, randTensor } from './helpers.js';
import { paddle } from '../../src/paddle.js';

const W = 16, HEADS = 2, HEAD = W / HEADS;

/** Attention of x [s0, s1, W] over concat(x, mem [s0, s2, W]), plus two residual inputs that tie the symbols. */
function program(): Program {
  const p = new Program();
  const b = new Builder(p);
  const [s0, s1, s2, s3, s4] = ['s0', 's1', 's2', 's3', 's4'].map(sym);
  const x = b.data('x', [s0, s1, W], 'float32');
  const mem = b.data('mem', [s0, s2, W], 'float32');
  const res = b.data('res', [s0, s3, W], 'float32');
  const tok = b.data('tok', [s4, W], 'float32');
  const P = (n: string, shape: number[]) => b.parameter(n, tensorType('float32', shape));
  const [g, be, wq, wk, wv] = [P('g', [W]), P('b', [W]), P('wq', [W, W]), P('wk', [W, W]), P('wv', [W, W])];
  const one = (name: string, ins: Parameters<typeof b.pd>[1], attrs: Record<string, unknown> = {}) => b.pd(name, ins, attrs)[0];
  const heads = (t: ReturnType<typeof one>) => one('transpose', [one('reshape', [t], { shape: [0, 0, HEADS, HEAD] })], { perm: [0, 2, 1, 3] });
  const h = one('layer_norm', [x, g, be], { epsilon: 1e-5, begin_norm_axis: 2 });
  const kv = one('concat', [[h, mem]], { axis: 1 });
  const q = heads(one('matmul', [h, wq])), k = heads(one('matmul', [kv, wk])), v = heads(one('matmul', [kv, wv]));
  const att = one('softmax', [one('scale', [one('matmul', [q, k], { transpose_y: true })], { scale: 1 / Math.sqrt(HEAD) })], { axis: -1 });
  const ctx = one('reshape', [one('transpose', [one('matmul', [att, v])], { perm: [0, 2, 1, 3] })], { shape: [0, 0, W] });
  const out = one('add', [x, ctx]);
  const joined = one('add', [one('concat', [[out, mem]], { axis: 1 }), res]);  // needs s1+s2 == s3
  const flat = one('add', [one('reshape', [out], { shape: [-1, W] }), tok]);   // needs s0*s1 == s4
  b.fetch(joined, 'joined', 0);
  b.fetch(flat, 'flat', 1);
  return p;
}

const feeds = (n: number, t: number, m: number, seed = 1): Tensor[] =>
  [randTensor([n, t, W], seed), randTensor([n, m, W], seed + 1), randTensor([n, t + m, W], seed + 2), randTensor([n * t, W], seed + 3)];

describe('symbolic shapes', () => {
  it('infers the constraints and records them in the program text', () => {
    const p = program();
    expect(inferShapeConstraints(p).map(constraintStr)).toEqual(['s1+s2 == s3', 's0*s1 == s4']);
    expect(inferSymbolicShapes(p)).toBe(2);
    verify(p);
    const text = printProgram(p);
    expect(text).toContain('() = "shape.tie_product_equal" () {lhs:shape[(s1+s2)], rhs:shape[s3]} : () -> ()');
    expect(text).toContain('() = "shape.tie_product_equal" () {lhs:shape[s0, s1], rhs:shape[s4]} : () -> ()');
    const q = parseProgram(text);
    expect(printProgram(q)).toBe(text);
    expect(shapeConstraintsOf(q).map(constraintStr)).toEqual(['s1+s2 == s3', 's0*s1 == s4']);
    // Inferring again replaces, never duplicates.
    expect(inferSymbolicShapes(q)).toBe(2);
    expect(printProgram(q)).toBe(text);
    expect(formatGraph(fromPir(q).graph)).toContain('constraint s1+s2 == s3');
  });

  it('runs one program at many batch sizes and sequence lengths with one lowering', () => scope(() => {
    const p = program();
    inferSymbolicShapes(p);
    const g = fromPir(parseProgram(printProgram(p)));
    expect(g.graph.constraints?.length).toBe(2);
    const params = g.params.map((n, i) => randTensor(n === 'g' || n === 'b' ? [W] : [W, W], 50 + i));
    const exe = compile(g.graph, { params, cacheSize: 64 });
    // Batch 1..64 and sequence lengths 1..512 (a sample of each, and their corners).
    const sizes = [[1, 1, 1], [2, 3, 4], [3, 5, 2], [4, 2, 7], [1, 8, 1], [5, 1, 3], [2, 6, 6], [7, 3, 1],
      [64, 1, 1], [1, 512, 1], [1, 1, 511], [16, 33, 7], [3, 200, 312], [64, 8, 8]];
    const c0 = { ...executorCounters };
    for (const [n, t, m] of sizes) {
      const ins = feeds(n, t, m, n * 100 + t * 10 + m);
      const outs = exe.run(ins);
      expect(outs[0].shape).toEqual([n, t + m, W]);
      expect(outs[1].shape).toEqual([n * t, W]);
      if (n * t <= 8 || n * (t + m) === 512) {
        const ref = runGraphEager(g.graph, ins, params);
        outs.forEach((o, i) => expectAllClose(o, ref.outputs[i], `sizes ${n},${t},${m} output ${i}`, 1e-4));
      }
    }
    expect(executorCounters.lowered - c0.lowered).toBe(1);
    expect(executorCounters.rebound - c0.rebound).toBe(sizes.length - 1);
    // Every signature again, twice: all plan-cache hits, nothing lowered or rebound.
    for (let r = 0; r < 2; r++) for (const [n, t, m] of sizes) exe.run(feeds(n, t, m));
    expect(executorCounters.lowered - c0.lowered).toBe(1);
    expect(executorCounters.rebound - c0.rebound).toBe(sizes.length - 1);
    expect(exe.cachedPlans).toBe(sizes.length);
  }));

  it('MLP, LeNet and a transformer block: one lowering for batch 1..64; a rebound plan equals a fresh lowering', () => scope(() => {
    for (const spec of MODELS) {
      const g = fromPir(buildModel(spec));
      const params = g.params.map((n, i) => randTensor(spec.params[n.slice(spec.name.length + 1)], 10 + i));
      const exe = compile(g.graph, { params });
      const c0 = { ...executorCounters };
      for (const n of [2, 1, 3, 8, 17, 64]) {
        const x = randTensor([n, ...spec.inTail], n);
        const [y] = exe.run([x]);
        expectAllClose(y, runGraphEager(g.graph, [x], params).outputs[0], `${spec.name} batch ${n}`, 1e-5);
        // (At batch 1 a fresh lowering runs reshapes of size-1 symbolic dims as kernels; see lower.ts.)
        if (n === 1) continue;
        const fresh = compile(g.graph, { params });
        expect(formatLowered(exe.plan([x])), `${spec.name} batch ${n}`).toBe(formatLowered(fresh.plan([x])));
        fresh.dispose();
      }
      expect(executorCounters.lowered - c0.lowered, spec.name).toBe(1 + 5);   // exe once, plus each fresh comparison
      expect(executorCounters.rebound - c0.rebound, spec.name).toBe(5);
      exe.dispose();
    }
  }));

  it('rejects sizes that break a constraint before lowering, naming symbol, constraint and values', () => scope(() => {
    const p = program();
    inferSymbolicShapes(p);
    const g = fromPir(p);
    const params = g.params.map((n, i) => randTensor(n === 'g' || n === 'b' ? [W] : [W, W], 50 + i));
    const exe = compile(g.graph, { params });
    const lowered0 = executorCounters.lowered;
    const [x, mem, , tok] = feeds(2, 3, 4);
    expect(() => exe.run([x, mem, randTensor([2, 6, W]), tok])).toThrow(
      'executor: shape constraint s1+s2 == s3 does not hold: s1+s2 = 7, s3 = 6; s1 = 3 (from input 0 (%0) dim 1), s2 = 4 (from input 1 (%1) dim 1), s3 = 6 (from input 2 (%2) dim 1)');
    expect(() => exe.run([x, mem, randTensor([2, 7, W]), randTensor([5, W])])).toThrow(
      'executor: shape constraint s0*s1 == s4 does not hold: s0*s1 = 6, s4 = 5; s0 = 2 (from input 0 (%0) dim 0), s1 = 3 (from input 0 (%0) dim 1), s4 = 5 (from input 3 (%3) dim 0)');
    expect(executorCounters.lowered).toBe(lowered0);
    expect(exe.cachedPlans).toBe(0);
    exe.run([x, mem, randTensor([2, 7, W]), tok]);
    expect(executorCounters.lowered).toBe(lowered0 + 1);
  }));

  it('finds the relations registry infer rules assume (broadcast, matmul, concat, stack)', () => {
    const p = new Program();
    const b = new Builder(p);
    const d = (n: string, shape: (number | string)[]) => b.data(n, shape.map((s) => (typeof s === 'string' ? sym(s) : s)), 'float32');
    const a = d('a', ['s0', 4]), c = d('c', ['s1', 4]), m = d('m', ['s2', 's3']), w = d('w', ['s4', 8]), e = d('e', ['s5', 's6']), f = d('f', [4, 4]);
    b.pd('add', [a, c]);            // s0 == s1
    b.pd('matmul', [m, w]);         // s3 == s4
    b.pd('concat', [[m, e]], { axis: 0 });  // s3 == s6
    b.pd('stack', [[a, f]], { axis: 0 });   // s0 == 4
    expect(inferShapeConstraints(p).map(constraintStr)).toEqual(['s0 == s1', 's0 == 4', 's3 == s4', 's3 == s6']);
  });

  it('paddle.static: constraints recorded in a Program are checked by the Executor', () => scope(() => {
    const prog = new paddle.static.Program();
    const y = paddle.static.program_guard(prog, () => {
      const a = paddle.static.data('a', [null, 4], 'float32');
      const c = paddle.static.data('c', [null, 4], 'float32');
      return paddle.add(a, c);
    });
    expect(inferShapeConstraints(prog.pir).map(constraintStr)).toEqual(['s0 == s1']);
    inferSymbolicShapes(prog.pir);
    const exe = new paddle.static.Executor();
    const [ok] = exe.run(prog, { feed: { a: randTensor([3, 4]), c: randTensor([3, 4], 2) }, fetch_list: [y] });
    expect(ok.shape).toEqual([3, 4]);
    expect(() => exe.run(prog, { feed: { a: randTensor([3, 4]), c: randTensor([2, 4], 2) }, fetch_list: [y] }))
      .toThrow(/shape constraint s0 == s1 does not hold: s0 = 3, s1 = 2/);
  }));
});
