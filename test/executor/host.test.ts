// (f) Host calls: the native run suspends at a host instruction, TypeScript runs the function on
// the argument handles, and the run resumes with the results, all within one exe.run().
import { describe, expect, it } from 'vitest';
import { expectAllClose, flat, randTensor } from './helpers.js';
import { compile, executorCounters, GraphBuilder, runGraphEager, type HostFn } from '../../src/executor/index.js';
import { native } from '../../src/native.js';
import { dispatchCounters, runOp } from '../../src/ops/dispatch.js';
import { hasOp } from '../../src/ops/registry.js';
import { sym } from '../../src/tensor/shape.js';
import { memoryStats, type Tensor } from '../../src/tensor/tensor.js';

const double: HostFn = ([t]) => [runOp('add', [t, t])[0] as Tensor];

function hostGraph(): ReturnType<GraphBuilder['build']> {
  const b = new GraphBuilder();
  const x = b.input('float32', [sym('s0'), 4]);
  const w = b.param('float32', [4]);
  const y = b.op1('add', [x, w]);
  const [z] = b.host('double', [y], [{ dtype: 'float32', shape: [sym('s0'), 4] }]);
  b.output(b.op1('add', [z, w]), y);
  return b.build();
}

describe('(f) host calls', () => {
  it('suspends, calls back into TypeScript, and resumes', () => {
    const g = hostGraph();
    const w = randTensor([4], 2);
    const exe = compile(g, { params: [w], hostFns: { double } });
    for (const n of [2, 5]) {
      const x = randTensor([n, 4], n);
      const c0 = { ...executorCounters }, n0 = native.programStats(), d0 = dispatchCounters.kernels;
      const outs = exe.run([x]);
      expect(dispatchCounters.kernels - d0).toBe(1);  // only the host function's own eager add
      expect(executorCounters.hostCalls - c0.hostCalls).toBe(1);
      const n1 = native.programStats();
      expect(n1.runs - n0.runs).toBe(1);
      expect(n1.resumes - n0.resumes).toBe(1);
      expect(n1.hostCalls - n0.hostCalls).toBe(1);
      expect(n1.instructions - n0.instructions).toBe(3);
      expect(n1.suspended).toBe(0);
      const ref = runGraphEager(g, [x], [w], { double }).outputs;
      outs.forEach((o, i) => expectAllClose(o, ref[i], `batch ${n} output ${i}`));
    }
  });

  it('releases argument and result handles after the call', () => {
    const exe = compile(hostGraph(), { params: [randTensor([4], 2)], hostFns: { double } });
    const x = randTensor([3, 4], 1);
    for (const o of exe.run([x])) o.dispose();
    const m0 = memoryStats();
    for (let i = 0; i < 3; i++) for (const o of exe.run([x])) o.dispose();
    expect(memoryStats().liveTensors).toBe(m0.liveTensors);
    expect(memoryStats().liveBytes).toBe(m0.liveBytes);
  });

  it('runs re-entrantly: a host function may run other programs with host calls', () => {
    const inner = compile(hostGraph(), { params: [randTensor([4], 3)], hostFns: { double } });
    const nested: HostFn = ([t]) => [inner.run([t])[0]];
    const g = hostGraph();
    const w = randTensor([4], 4);
    const exe = compile(g, { params: [w], hostFns: { double: nested } });
    const x = randTensor([2, 4], 5);
    const outs = exe.run([x]);
    const ref = runGraphEager(g, [x], [w], { double: nested }).outputs;
    outs.forEach((o, i) => expectAllClose(o, ref[i], `output ${i}`));
    expect(native.programStats().suspended).toBe(0);
  });

  it.skipIf(!hasOp('transpose') || !hasOp('reshape'))('makes strided host results dense before later view instructions', () => {
    const b = new GraphBuilder();
    const x = b.input('float32', [2, 3]);
    const [t] = b.host('transpose', [x], [{ dtype: 'float32', shape: [3, 2] }]);
    b.output(b.op1('reshape', [t], { shape: [6] }));
    const g = b.build();
    const tr: HostFn = ([a]) => [runOp('transpose', [a], { perm: [1, 0] })[0] as Tensor];
    const x0 = randTensor([2, 3], 1);
    const exe = compile(g, { hostFns: { transpose: tr } });
    expect(exe.plan([x0]).stats.views).toBe(1);
    expect(flat(exe.run([x0])[0])).toEqual(flat(runGraphEager(g, [x0], [], { transpose: tr }).outputs[0]));
  });

  it('reports bad host results and host exceptions without leaving a run suspended', () => {
    const x = randTensor([2, 4], 1), w = randTensor([4], 2);
    const cases: [HostFn, RegExp][] = [
      [() => [randTensor([3, 4], 1)], /skiff\.host_call:double: instruction 1 of program \d+: host result 0 \(%3\): shape \[3, 4\] does not match the program's \[2, 4\]/],
      [() => [randTensor([2, 4], 1, 'float64')], /host result 0 \(%3\): dtype float64 does not match the program's float32/],
      [() => [], /host call returned 0 tensors, expected 1/],
      [() => { throw new RangeError('boom in host'); }, /boom in host/],
      [() => [42 as unknown as Tensor], /must return an array of Tensors/],
      [() => { const t = randTensor([2, 4], 1); t.dispose(); return [t]; }, /disposed/],
    ];
    const m0 = memoryStats();
    for (const [fn, err] of cases) {
      const exe = compile(hostGraph(), { params: [w], hostFns: { double: fn } });
      expect(() => exe.run([x])).toThrow(err);
      expect(native.programStats().suspended).toBe(0);
      exe.dispose();
    }
    expect(memoryStats().liveTensors).toBe(m0.liveTensors);
  });

  it('needs every callee at compile time', () => {
    const exe = compile(hostGraph(), { params: [randTensor([4], 2)] });
    expect(() => exe.run([randTensor([2, 4], 1)])).toThrow(/node 1 \(skiff\.host_call\): no host function 'double'/);
  });
});
