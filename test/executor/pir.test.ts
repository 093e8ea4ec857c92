// PIR programs through fromPir: feeds, parameters, constants, list outputs (builtin.split),
// variadic inputs (builtin.combine), host calls, parameter updates and fetch order.
import { describe, expect, it } from 'vitest';
import { expectAllClose, flat, randTensor } from './helpers.js';
import { compile, runGraphEager, type HostFn } from '../../src/executor/index.js';
import { fromPir } from '../../src/executor/from_pir.js';
import { runOp } from '../../src/ops/dispatch.js';
import { hasOp } from '../../src/ops/registry.js';
import { Builder, Program, tensorType, verifyProgram } from '../../src/pir/index.js';
import { sym } from '../../src/tensor/shape.js';
import type { Tensor } from '../../src/tensor/tensor.js';

const hostFns: Record<string, HostFn> = { twice: ([t]) => [runOp('add', [t, t])[0] as Tensor] };

describe('PIR -> ExecGraph', () => {
  it.skipIf(!hasOp('split') || !hasOp('concat'))('runs a program with every builtin the executor maps', () => {
    const p = new Program();
    const b = new Builder(p);
    const x = b.data('x', [sym('s0'), 4], 'float32');
    const w = b.parameter('w', tensorType('float32', [4]));
    const stat = b.parameter('running_mean', tensorType('float32', [sym('s0'), 4]));
    const c = b.constant(0.5, tensorType('float32', [4]));
    const [h] = b.pd('add', [x, w]);
    const [hc] = b.pd('add', [h, c]);
    const [left, right] = b.pd('split', [hc], { num_or_sections: [1, 3], axis: 1 });
    const [joined] = b.pd('concat', [[right, left]], { axis: 1 });
    const [twice] = b.hostCall('twice', [joined], [tensorType('float32', [sym('s0'), 4])]).results;
    const [next] = b.pd('add', [stat, twice]);
    b.setParameter('running_mean', next);
    b.fetch(twice, 'twice', 1);
    b.fetch(joined, 'joined', 0);
    expect(verifyProgram(p)).toEqual([]);

    const { graph, feeds, params, constants, fetches } = fromPir(p);
    expect(feeds).toEqual(['x']);
    expect(params).toEqual(['w', 'running_mean']);
    expect(fetches).toEqual(['joined', 'twice']);
    expect(constants.map((t) => flat(t))).toEqual([[0.5, 0.5, 0.5, 0.5]]);
    const x0 = randTensor([3, 4], 1), w0 = randTensor([4], 2);
    const s0 = randTensor([3, 4], 3), sRef = randTensor([3, 4], 3);
    const exe = compile(graph, { params: [w0, s0, ...constants], hostFns });
    const outs = exe.run([x0]);
    const ref = runGraphEager(graph, [x0], [w0, sRef, ...constants], hostFns);
    outs.forEach((o, i) => expectAllClose(o, ref.outputs[i], `fetch ${fetches[i]}`));
    expect(flat(s0)).toEqual(flat(ref.updates.get(1)!));
    expect(exe.plan([x0]).stats.directWrites).toBe(1);
  });

  it('turns unknown (-1) dims into symbols bound per run', () => {
    const p = new Program();
    const b = new Builder(p);
    const x = b.data('x', [-1, 4], 'float32');
    const [y] = b.pd('add', [x, x]);
    b.fetch(y, 'y');
    const { graph } = fromPir(p);
    const exe = compile(graph);
    for (const n of [1, 6]) {
      const x0 = randTensor([n, 4], n);
      expectAllClose(exe.run([x0])[0], runGraphEager(graph, [x0]).outputs[0], `batch ${n}`);
    }
  });

  it('refuses what it cannot run, naming the op', () => {
    const p = new Program();
    const b = new Builder(p);
    b.create('builtin.yield', [], [], []);
    expect(() => fromPir(p)).toThrow(/"builtin\.yield" is not an op the executor runs/);
  });
});
