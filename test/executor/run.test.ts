// Executor results against eager execution: an elementwise chain, an MLP, views, symbolic
// batch dims with the plan cache. Ops come from the registry as other work adds them, so graphs
// use what exists (add, cast and full always do).
import { describe, expect, it } from 'vitest';
import { checkAgainstEager, expectAllClose, firstOp, randTensor, runNoEager } from './helpers.js';
import { compile, executorCounters, GraphBuilder, runGraphEager } from '../../src/executor/index.js';
import { getOp, hasOp } from '../../src/ops/registry.js';
import { native } from '../../src/native.js';
import { sym } from '../../src/tensor/shape.js';
import { memoryStats, Tensor } from '../../src/tensor/tensor.js';

/** Elementwise ops usable without attributes, in the order a chain cycles through them. */
function chainOps(): { name: string; binary: boolean }[] {
  const want = ['add', 'multiply', 'relu', 'subtract', 'tanh', 'sigmoid', 'abs'];
  return want.filter((n) => hasOp(n) && getOp(n).attrs.every((a) => a.default !== undefined))
    .map((name) => ({ name, binary: getOp(name).inputs.length === 2 }));
}

/** x -> 20 elementwise ops (binaries take the params w1/w2 alternately). */
export function buildChain(n = 20, batch: number | ReturnType<typeof sym> = 4, width = 4): GraphBuilder {
  const b = new GraphBuilder();
  const x = b.input('float32', [batch, width]);
  const w1 = b.param('float32', [width]), w2 = b.param('float32', [width]);
  const ops = chainOps();
  let h = x;
  for (let i = 0; i < n; i++) {
    const op = ops[i % ops.length];
    h = op.binary ? b.op1(op.name, [h, i % 2 ? w2 : w1]) : b.op1(op.name, [h]);
  }
  b.output(h);
  return b;
}

describe('executor results match eager', () => {
  it('(a) runs a 20-op elementwise chain in one native call', () => {
    const g = buildChain().build();
    const x = randTensor([4, 4], 1), w1 = randTensor([4], 2), w2 = randTensor([4], 3);
    const nat = native.programStats();
    checkAgainstEager(g, [x], [w1, w2]);
    const after = native.programStats();
    expect(after.runs - nat.runs).toBe(1);
    expect(after.instructions - nat.instructions).toBe(20);
    expect(after.kernels - nat.kernels).toBe(20);
  });

  it('(a) handles cast, full and zero-input kernels, several outputs and repeated inputs', () => {
    const b = new GraphBuilder();
    const x = b.input('float32', [3, 2]);
    const f = b.op1('full', [], { shape: [3, 2], fill_value: 1.5, dtype: 'float32' });
    const y = b.op1('add', [x, f]);
    const d = b.op1('cast', [y], { dtype: 'float64' });
    const dd = b.op1('add', [d, d]);
    const back = b.op1('cast', [dd], { dtype: 'float32' });
    const i = b.op1('cast', [back], { dtype: 'int32' });
    b.output(back, i, y, x);
    const outs = checkAgainstEager(b.build(), [randTensor([3, 2], 4)]);
    expect(outs.map((o) => o.dtype)).toEqual(['float32', 'int32', 'float32', 'float32']);
  });

  it.skipIf(!hasOp('matmul'))('(b) runs an MLP (matmul + add + relu, twice)', () => {
    const relu = firstOp('relu');
    const b = new GraphBuilder();
    const x = b.input('float32', [sym('s0'), 8]);
    const w1 = b.param('float32', [8, 16]), b1 = b.param('float32', [16]);
    const w2 = b.param('float32', [16, 4]), b2 = b.param('float32', [4]);
    let h = b.op1('add', [b.op1('matmul', [x, w1]), b1]);
    if (relu) h = b.op1(relu, [h]);
    let o = b.op1('add', [b.op1('matmul', [h, w2]), b2]);
    if (relu) o = b.op1(relu, [o]);
    b.output(o);
    const ps = [randTensor([8, 16], 11), randTensor([16], 12), randTensor([16, 4], 13), randTensor([4], 14)];
    for (const n of [1, 5]) checkAgainstEager(b.build(), [randTensor([n, 8], 20 + n)], ps, {}, 1e-4);
  });

  it.skipIf(!hasOp('reshape') || !hasOp('transpose'))('(c) lowers views to view instructions and keeps their bases alive', () => {
    const b = new GraphBuilder();
    const x = b.input('float32', [2, 3, 4]);
    const w = b.param('float32', [4]);
    const t = b.op1('transpose', [x], { perm: [0, 2, 1] });        // view of an input
    const r = b.op1('reshape', [t], { shape: [2, 12] });            // not expressible: kernel copy
    const a = b.op1('add', [r, r]);
    const v = b.op1('reshape', [a], { shape: [6, 4] });             // view of an intermediate
    const o = b.op1('add', [v, w]);
    const vt = b.op1('transpose', [v], { perm: [1, 0] });           // returned view: its base escapes
    b.output(o, vt, t);
    const g = b.build();
    const x0 = randTensor([2, 3, 4], 5), w0 = randTensor([4], 6);
    const outs = checkAgainstEager(g, [x0], [w0]);
    expect(outs[2].strides).toEqual([12, 1, 4]);
    expect(native.sameStorage(outs[2].handle, x0.handle)).toBe(true);
    const p = compile(g, { params: [w0] }).plan([x0]);
    expect(p.stats.views).toBe(3);
    expect(p.stats.kernels).toBe(3);
  });

  it.skipIf(!hasOp('slice') || !hasOp('transpose'))('(c) handles inputs at a storage offset and strided inputs', () => {
    const b = new GraphBuilder();
    const x = b.input('float32', [2, 4]);
    const s = b.op1('slice', [x], { axes: [1], starts: [1], ends: [3] });
    const t = b.op1('transpose', [s], { perm: [1, 0] });
    b.output(b.op1('add', [t, t]), t);
    const g = b.build();
    const base = randTensor([4, 4], 7);
    // rows 1..2 of a 4x4 tensor: contiguous, offset 4
    const rows = new Tensor(native.view(base.handle, [2, 4], [4, 1], 4), 'float32', [2, 4], [4, 1], 4);
    // every other column of a 2x8 buffer: strided
    const wide = randTensor([2, 8], 8);
    const cols = new Tensor(native.view(wide.handle, [2, 4], [8, 2], 0), 'float32', [2, 4], [8, 2], 0);
    const exe = compile(g);
    for (const input of [rows, cols, randTensor([2, 4], 9)]) {
      const outs = runNoEager(exe, [input]);
      const ref = runGraphEager(g, [input]).outputs;
      outs.forEach((o, i) => expectAllClose(o, ref[i], `output ${i}`));
      expect(outs[1].offset).toBe(ref[1].offset);
    }
    expect(exe.cachedPlans).toBe(2);  // offset does not change the plan; strides do
  });

  it('(d) serves symbolic batch dims 1, 3 and 8 from one lowering and caches the plans', () => {
    const b = buildChain(6, sym('s0'));
    const g = b.build();
    const w1 = randTensor([4], 2), w2 = randTensor([4], 3);
    const exe = compile(g, { params: [w1, w2] });
    const c0 = { ...executorCounters }, n0 = native.programStats();
    for (const n of [1, 3, 8, 3, 1]) {
      const x = randTensor([n, 4], n);
      const [y] = runNoEager(exe, [x]);
      const [want] = runGraphEager(g, [x], [w1, w2]).outputs;
      expectAllClose(y, want, `batch ${n}`);
      expect(y.shape).toEqual([n, 4]);
    }
    expect(executorCounters.cacheMisses - c0.cacheMisses).toBe(3);
    expect(executorCounters.cacheHits - c0.cacheHits).toBe(2);
    expect(executorCounters.lowered - c0.lowered).toBe(1);
    expect(executorCounters.rebound - c0.rebound).toBe(2);
    const n1 = native.programStats();
    expect(n1.runs - n0.runs).toBe(5);
    expect(n1.instructions - n0.instructions).toBe(5 * 6);
    expect(exe.cachedPlans).toBe(3);
    exe.dispose();
    expect(native.programStats().live).toBe(n1.live - 3);
  });

  it('(d) runs an empty batch', () => {
    const g = buildChain(4, sym('s0')).build();
    const w1 = randTensor([4], 2), w2 = randTensor([4], 3);
    const [y] = runNoEager(compile(g, { params: [w1, w2] }), [randTensor([0, 4], 1)]);
    expect(y.shape).toEqual([0, 4]);
    expect(y.dataSync()).toEqual([]);
  });

  it('(d) bounds the plan cache (LRU) and frees evicted programs', () => {
    const g = buildChain(3, sym('s0')).build();
    const exe = compile(g, { params: [randTensor([4], 2), randTensor([4], 3)], cacheSize: 2 });
    const live0 = native.programStats().live, ev0 = executorCounters.evictions;
    for (const n of [1, 2, 1, 3, 1, 4]) for (const o of exe.run([randTensor([n, 4], n)])) o.dispose();
    expect(exe.cachedPlans).toBe(2);
    expect(executorCounters.evictions - ev0).toBe(2);  // 2 evicted by 3, then 3 by 4; 1 stays (recent)
    expect(native.programStats().live - live0).toBe(2);
    exe.dispose();
  });

  it('frees everything it allocates (outputs excepted)', () => {
    const g = buildChain(10, sym('s0')).build();
    const w1 = randTensor([4], 2), w2 = randTensor([4], 3), x = randTensor([5, 4], 1);
    const exe = compile(g, { params: [w1, w2] });
    for (const o of exe.run([x])) o.dispose();
    const m0 = memoryStats();
    for (let i = 0; i < 5; i++) for (const o of exe.run([x])) o.dispose();
    const m1 = memoryStats();
    expect(m1.liveTensors).toBe(m0.liveTensors);
    expect(m1.liveBytes).toBe(m0.liveBytes);
    exe.dispose();
  });
});
