// The buffer plan: liveness, best-fit reuse, inplace execution, escaping outputs, mutable
// persistables written directly or copied at the end; peak bytes measured by the native runner.
import { describe, expect, it } from 'vitest';
import { expectAllClose, flat, randTensor, runNoEager } from './helpers.js';
import { compile, GraphBuilder, runGraphEager } from '../../src/executor/index.js';
import { native } from '../../src/native.js';
import { hasOp } from '../../src/ops/registry.js';
import type { Tensor } from '../../src/tensor/tensor.js';

describe('buffer plan', () => {
  it('(e) chains run inplace in one buffer: peak is one intermediate', () => {
    const b = new GraphBuilder();
    const x = b.input('float32', [64]);
    const w = b.param('float32', [64]);
    let h = b.op1('add', [x, w]);              // x is an input: never overwritten
    for (let i = 0; i < 9; i++) h = b.op1('add', [h, w]);
    b.output(h);
    const g = b.build();
    const x0 = randTensor([64], 1), w0 = randTensor([64], 2);
    const xBefore = flat(x0);
    const exe = compile(g, { params: [w0] });
    const p = exe.plan([x0]);
    expect(p.stats.inplace).toBe(9);
    expect(p.stats.buffers).toBe(1);
    expect(p.stats.intermediateBytes).toBe(10 * 256);
    expect(p.stats.peakBytes).toBe(256);
    const [y] = runNoEager(exe, [x0]);
    expect(exe.lastRun()!.peakBytes).toBe(256);
    expect(flat(x0)).toEqual(xBefore);
    expectAllClose(y, runGraphEager(g, [x0], [w0]).outputs[0], 'chain');
  });

  it('(e) reuses freed buffers of equal or larger size (best fit) when inplace is impossible', () => {
    // cast has no inplace variant: each result needs another buffer, but only two are ever live.
    const b = new GraphBuilder();
    const x = b.input('float32', [32]);
    let h = b.op1('add', [x, x]);
    for (let i = 0; i < 6; i++) h = b.op1('cast', [h], { dtype: i % 2 ? 'float32' : 'float64' });
    const small = b.op1('cast', [h], { dtype: 'int8' });
    b.output(b.op1('add', [small, small]));
    const g = b.build();
    const x0 = randTensor([32], 3);
    const planned = compile(g), naive = compile(g, { reuse: false });
    const p = planned.plan([x0]), q = naive.plan([x0]);
    expect(p.stats.reused).toBeGreaterThan(0);
    expect(p.stats.peakBytes).toBeLessThan(p.stats.intermediateBytes);
    expect(q.stats.peakBytes).toBe(q.stats.intermediateBytes);
    expect(p.stats.buffers).toBeLessThan(q.stats.buffers);
    // the int8 result fits a freed float buffer; no 32-byte buffer is allocated for it
    const int8Slot = p.slots.find((s) => s.dtype === 'int8' && s.kind === 'buffer')!;
    expect(p.buffers[int8Slot.index]).toBeGreaterThan(32);
    const [y] = runNoEager(planned, [x0]);
    expect(planned.lastRun()!.peakBytes).toBe(p.stats.peakBytes);
    const [z] = runNoEager(naive, [x0]);
    expect(naive.lastRun()!.peakBytes).toBe(q.stats.intermediateBytes);
    expect(flat(y)).toEqual(flat(z));
    expect(flat(y)).toEqual(flat(runGraphEager(g, [x0]).outputs[0]));
  });

  it('(e) never writes inplace over a value that is still read, returned, or viewed', () => {
    const b = new GraphBuilder();
    const x = b.input('float32', [4, 4]);
    const a = b.op1('add', [x, x]);
    const c = b.op1('add', [a, x]);           // a is read again below: not inplace
    const d = b.op1('add', [a, c]);           // a dies here: inplace over a
    const e = b.op1('add', [d, d]);           // d dies: inplace
    b.output(e, c);                           // c is returned: its buffer escapes
    const g = b.build();
    const p = compile(g).plan([randTensor([4, 4], 1)]);
    const slotOf = (v: number): number => p.slots.findIndex((s) => s.value === v);
    const buf = (v: number): number => p.slots[slotOf(v)].index;
    expect(buf(c)).not.toBe(buf(a));
    expect(buf(d)).toBe(buf(a));
    expect(buf(e)).toBe(buf(d));
    expect(p.stats.inplace).toBe(2);
    for (const s of p.instrs.flatMap((I) => I.clears)) expect(p.outputSlots).not.toContain(s);
    const x0 = randTensor([4, 4], 2);
    const outs = runNoEager(compile(g), [x0]);
    runGraphEager(g, [x0]).outputs.forEach((r, i) => expectAllClose(outs[i], r, `output ${i}`));
  });

  it.skipIf(!hasOp('transpose'))('(e) does not run inplace when another operand views the same storage', () => {
    const b = new GraphBuilder();
    const x = b.input('float32', [3, 3]);
    const a = b.op1('add', [x, x]);
    const t = b.op1('transpose', [a], { perm: [1, 0] });
    const s = b.op1('add', [a, t]);           // a dies here, but t reads its storage transposed
    b.output(s);
    const g = b.build();
    const p = compile(g).plan([randTensor([3, 3], 1)]);
    expect(p.stats.inplace).toBe(0);
    const x0 = randTensor([3, 3], 4);
    expectAllClose(runNoEager(compile(g), [x0])[0], runGraphEager(g, [x0]).outputs[0], 'a + a.T');
  });
});

describe('mutable persistables', () => {
  const eagerUpdates = (g: ReturnType<GraphBuilder['build']>, ins: Tensor[], ps: Tensor[]): number[][] => {
    const r = runGraphEager(g, ins, ps);
    return ps.map((p, i) => flat(r.updates.get(i) ?? p));
  };

  it('writes an update straight into the parameter when nothing reads it later', () => {
    const b = new GraphBuilder();
    const x = b.input('float32', [8]);
    const stat = b.param('float32', [8]);
    const w = b.param('float32', [8]);        // not declared mutable: never written
    const next = b.op1('add', [stat, x]);     // running-stat style update
    b.update(stat, next);
    b.output(b.op1('add', [x, w]));
    const g = b.build();
    const x0 = randTensor([8], 1), s0 = randTensor([8], 2), w0 = randTensor([8], 3);
    const want = eagerUpdates(g, [x0], [s0, w0]);
    const exe = compile(g, { params: [s0, w0] });
    expect(exe.plan([x0]).stats.directWrites).toBe(1);
    expect(exe.plan([x0]).stats.copies).toBe(0);
    runNoEager(exe, [x0]);
    expect(flat(s0)).toEqual(want[0]);
    expect(flat(w0)).toEqual(want[1]);
  });

  it('copies at the end when the parameter is read after the update is computed, or returned', () => {
    const b = new GraphBuilder();
    const x = b.input('float32', [8]);
    const stat = b.param('float32', [8]);
    const next = b.op1('add', [stat, x]);
    const late = b.op1('add', [next, stat]);  // reads the old value after `next` exists
    b.update(stat, next);
    b.output(late, stat);                     // the old value is returned too
    const g = b.build();
    const x0 = randTensor([8], 1), s0 = randTensor([8], 2);
    const old = flat(s0);
    const ref = runGraphEager(g, [x0], [s0]);
    const want = { late: flat(ref.outputs[0]), stat: flat(ref.updates.get(0)!) };
    const exe = compile(g, { params: [s0] });
    const p = exe.plan([x0]);
    expect(p.stats.directWrites).toBe(0);
    expect(p.stats.copies).toBe(2);           // the returned old value, then the update
    const [l, o] = runNoEager(exe, [x0]);
    expect(flat(l)).toEqual(want.late);
    expect(flat(o)).toEqual(old);
    expect(flat(s0)).toEqual(want.stat);
  });

  it('swaps two parameters correctly (updates that read each other)', () => {
    const b = new GraphBuilder();
    const p1 = b.param('float32', [4]), p2 = b.param('float32', [4]);
    b.update(p1, p2);
    b.update(p2, p1);
    b.output(b.op1('add', [p1, p2]));
    const g = b.build();
    const a = randTensor([4], 1), c = randTensor([4], 2);
    const fa = flat(a), fc = flat(c);
    const exe = compile(g, { params: [a, c] });
    runNoEager(exe, []);
    expect(flat(a)).toEqual(fc);
    expect(flat(c)).toEqual(fa);
  });

  it('refuses a mutable parameter that shares storage with an input', () => {
    const b = new GraphBuilder();
    const x = b.input('float32', [4]);
    const s = b.param('float32', [4]);
    b.update(s, b.op1('add', [s, x]));
    b.output(x);
    const s0 = randTensor([4], 1);
    expect(() => compile(b.build(), { params: [s0] }).run([s0])).toThrow(/mutable parameter 0 .* shares storage with input/);
    expect(native.programStats().suspended).toBe(0);
  });
});
