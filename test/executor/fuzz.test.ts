// Random graphs (elementwise ops, views, casts, host calls, returned intermediates, parameter
// updates) against eager, under every plan setting. A planner bug shows up either as a native
// plan-verification error or as a wrong value here.
import { describe, expect, it } from 'vitest';
import { expectAllClose, flat, randTensor } from './helpers.js';
import { compile, GraphBuilder, runGraphEager, type HostFn } from '../../src/executor/index.js';
import { native } from '../../src/native.js';
import { runOp } from '../../src/ops/dispatch.js';
import { hasOp } from '../../src/ops/registry.js';
import { rng } from '../ops/ref.js';
import type { Tensor } from '../../src/tensor/tensor.js';

const N = 6;
const hostFns: Record<string, HostFn> = { twice: ([t]) => [runOp('add', [t, t])[0] as Tensor] };

function randomGraph(seed: number): { g: ReturnType<GraphBuilder['build']>; nParams: number } {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const b = new GraphBuilder();
  const live: number[] = [b.input('float32', [N, N]), b.input('float32', [N, N])];
  const params = [b.param('float32', [N, N]), b.param('float32', [N, N])];
  live.push(...params);
  const binary = ['add', 'multiply', 'subtract'].filter(hasOp);
  const unary = ['relu', 'tanh', 'abs'].filter(hasOp);
  const steps = 6 + Math.floor(r() * 14);
  for (let i = 0; i < steps; i++) {
    const x = pick(live.slice(-6)), y = pick(live);
    const c = r();
    let v: number;
    if (c < 0.4) v = b.op1(pick(binary), [x, y]);
    else if (c < 0.55 && unary.length) v = b.op1(pick(unary), [x]);
    else if (c < 0.7 && hasOp('transpose')) v = b.op1('transpose', [x], { perm: [1, 0] });
    else if (c < 0.8 && hasOp('reshape')) v = b.op1('reshape', [b.op1('reshape', [x], { shape: [N * N] })], { shape: [N, N] });
    else if (c < 0.9) v = b.op1('cast', [b.op1('cast', [x], { dtype: 'float64' })], { dtype: 'float32' });
    else v = b.host('twice', [x], [{ dtype: 'float32', shape: [N, N] }])[0];
    live.push(v);
  }
  const outs = new Set([live[live.length - 1]]);
  for (let i = 0; i < 3; i++) if (r() < 0.5) outs.add(pick(live));
  b.output(...outs);
  if (r() < 0.5) b.update(params[0], pick(live.slice(4)));
  if (r() < 0.3) b.update(params[1], pick(live));
  return { g: b.build(), nParams: params.length };
}

describe('random graphs match eager under every plan setting', () => {
  for (let seed = 1; seed <= 40; seed++) {
    it(`graph ${seed}`, () => {
      const { g } = randomGraph(seed);
      const inputs = [randTensor([N, N], seed * 10 + 1), randTensor([N, N], seed * 10 + 2)];
      const p0 = [randTensor([N, N], seed * 10 + 3), randTensor([N, N], seed * 10 + 4)];
      const ref = runGraphEager(g, inputs, p0, hostFns);
      const want = ref.outputs.map(flat);
      const wantParams = p0.map((p, i) => flat(ref.updates.get(i) ?? p));
      for (const opts of [{}, { inplace: false }, { reuse: false }]) {
        const params = [randTensor([N, N], seed * 10 + 3), randTensor([N, N], seed * 10 + 4)];  // fresh copies of p0: updates write them
        const exe = compile(g, { ...opts, params, hostFns });
        const outs = exe.run(inputs);
        outs.forEach((o, i) => expectAllClose(o, ref.outputs[i], `seed ${seed} ${JSON.stringify(opts)} output ${i}`));
        params.forEach((p, i) => expect(flat(p), `seed ${seed} ${JSON.stringify(opts)} param ${i}`).toEqual(wantParams[i]));
        expect(inputs.map(flat)).toEqual([flat(randTensor([N, N], seed * 10 + 1)), flat(randTensor([N, N], seed * 10 + 2))]);
        for (const o of outs) o.dispose();
        exe.dispose();
      }
      expect(want.length).toBe(g.outputs.length);
      expect(native.programStats().suspended).toBe(0);
    });
  }
});
