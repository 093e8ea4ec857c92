// Every gradient record of test/autograd/records*.ts (one or more per op with a grad rule),
// differentiated as a program: the record's function is recorded into a paddle.static Program
// with its inputs as feeds, the loss sum(out_i * R_i) is built there, and
// paddle.static.gradients appends the backward (joint program); the same loss goes through a
// separate backward program too. Both must match eager autograd to 1e-5 relative. A second
// sweep differentiates the emitted backward again (second order) against create_graph.
import { describe, expect, it } from 'vitest';
import { paddle } from '../../src/paddle.js';
import type { Value } from '../../src/pir/index.js';
import { scope, type Tensor } from '../../src/tensor/tensor.js';
import { rand, type GradRecord, type InputSpec } from '../autograd/gradcheck.js';
import { RECORDS as BASE } from '../autograd/records.js';
import { MORE_RECORDS, MORE_SECOND_ORDER } from '../autograd/records_more.js';
import { NN_RECORDS, NN_SECOND_ORDER } from '../autograd/records_nn.js';
import { expectClose, separateGrads } from './helpers.js';

interface Concrete { data: number[]; shape: number[]; dtype: string }
const numel = (s: number[]) => s.reduce((a, b) => a * b, 1);
function concretize(spec: InputSpec): Concrete {
  if ('data' in spec) return { data: [...spec.data], shape: spec.shape, dtype: spec.dtype };
  return { data: Array.from({ length: numel(spec.shape) }, () => rand(spec.lo ?? -1, spec.hi ?? 1)), shape: spec.shape, dtype: 'float64' };
}
function toTensor(c: Concrete, requires: boolean): Tensor {
  const data = c.dtype === 'int64' ? c.data.map((v) => BigInt(v)) : c.dtype === 'bool' ? c.data.map(Boolean) : c.data;
  const flat = paddle.to_tensor(data as number[], c.dtype) as Tensor;
  const t = paddle.reshape(flat, c.shape) as Tensor;
  t.stop_gradient = !requires;
  return t;
}
const outsOf = <T>(r: T | T[]): T[] => (Array.isArray(r) ? r : [r]);

/** sum_i sum(out_i * R_i) over the float64 outputs, with eager or program outputs. */
function weighted<T extends { dtype: string; shape: readonly unknown[] }>(outs: T[], weights: Tensor[]): T {
  let total: T | null = null;
  outs.forEach((o, i) => {
    if (o.dtype !== 'float64') return;
    const s = paddle.sum(paddle.multiply(o as never, weights[i])) as unknown as T;
    total = total ? (paddle.add(total as never, s as never) as unknown as T) : s;
  });
  if (!total) throw new Error('no float64 output');
  return total;
}

interface Case { xs: Concrete[]; wrt: number[]; weights: Tensor[] }
function prepare(rec: GradRecord): Case {
  const xs = rec.inputs.map(concretize);
  const wrt = rec.wrt ?? xs.map((c, i) => (c.dtype === 'float64' ? i : -1)).filter((i) => i >= 0);
  rec.before?.();
  const outs = outsOf(rec.fn(...xs.map((c) => toTensor(c, false))));
  const weights = outs.map((o) => paddle.reshape(paddle.to_tensor(Array.from({ length: o.size }, () => rand(0.5, 1.5)), 'float64'), o.shape) as Tensor);
  return { xs, wrt, weights };
}

function eagerGrads(rec: GradRecord, c: Case): Tensor[] {
  rec.before?.();
  const ts = c.xs.map((x, i) => toTensor(x, c.wrt.includes(i)));
  const loss = weighted(outsOf(rec.fn(...ts)), c.weights);
  return paddle.grad(loss, c.wrt.map((i) => ts[i])) as Tensor[];
}

function recordProgram(rec: GradRecord, c: Case) {
  const prog = new paddle.static.Program();
  const built = paddle.static.program_guard(prog, () => {
    const vs = c.xs.map((x, i) => paddle.static.data(`x${i}`, x.shape, x.dtype));
    const loss = weighted(outsOf(rec.fn(...(vs as unknown as Tensor[])) as unknown as Value[]), c.weights);
    return { vs, loss };
  });
  const feed: Record<string, Tensor> = {};
  c.xs.forEach((x, i) => { feed[`x${i}`] = toTensor(x, false); });
  return { prog, feed, ...built };
}

/**
 * Records whose function depends on eager in-place mutation of a local: in a program an
 * inplace call records the functional op and returns the new value, which the caller must use
 * (Python rebinds the Variable; a TS record that ignores set_item's result keeps the old value).
 */
const EAGER_ONLY = new Set([
  'set_value_with_tensor (through set_item on a non-leaf (inplace on the tape))',
  // Tensor.fill_diagonal_ is a Tensor-only method (Paddle has no functional form), not a program Value method
  'fill_diagonal (Tensor.fill_diagonal_ on a non-leaf)',
]);
const RECORDS = [...BASE, ...MORE_RECORDS, ...NN_RECORDS];
const label = (rec: GradRecord) => (rec.label ? `${rec.op} (${rec.label})` : rec.op);

describe('PIR backward of every grad record equals eager autograd (float64, 1e-5)', () => {
  for (const rec of RECORDS) {
    if (EAGER_ONLY.has(label(rec))) { it.skip(`${label(rec)} (eager in-place semantics)`, () => {}); continue; }
    it(label(rec), (ctx) => {
      // Compiled programs refuse ops with data-dependent output shapes (OpDef.dynamicShape): a
      // record whose forward or backward needs one (masked_select, nonzero) runs eagerly only.
      const dynamic = (e: unknown) => /data-dependent output shape/.test(String((e as Error)?.message));
      try { run(); } catch (e) { if (dynamic(e)) { ctx.skip((e as Error).message); return; } throw e; }
    });
    function run(): void {
      scope(() => {
        const c = prepare(rec);
        const want = eagerGrads(rec, c);
        // Joint program: forward and backward in one run.
        const { prog, feed, vs, loss } = recordProgram(rec, c);
        const grads: (Value | null)[] = paddle.static.gradients([loss], c.wrt.map((i) => vs[i]));
        rec.before?.();
        const got = new paddle.static.Executor().run(prog, { feed, fetch_list: grads.map((g) => g!) });
        c.wrt.forEach((i, k) => expectClose(got[k], want[k], `${label(rec)} joint, input ${i}`));
        // Separate backward program fed with the forward's values.
        const f = recordProgram(rec, c);
        rec.before?.();
        const sep = separateGrads(f.prog, f.loss, c.wrt.map((i) => f.vs[i]), f.feed);
        c.wrt.forEach((i, k) => expectClose(sep[k], want[k], `${label(rec)} separate, input ${i}`));
      });
    }
  }

});

// Second order: the backward program is differentiated again (s = sum(dL/dx * V), then ds/dx).
const SECOND_ORDER = ['multiply', 'divide', 'elementwise_pow', 'exp', 'log', 'rsqrt', 'tanh', 'sigmoid', 'gelu', 'silu', 'erf',
  'matmul', 'sum', 'mean', 'logsumexp', 'softmax', 'log_softmax', 'layer_norm', 'cross_entropy', 'conv2d', 'max_pool2d', 'avg_pool2d',
  'gather', 'slice', 'concat', 'expand', 'transpose', 'var', 'batch_norm', ...MORE_SECOND_ORDER, ...NN_SECOND_ORDER];

describe('second order: differentiating a program that holds backward ops', () => {
  for (const op of SECOND_ORDER) {
    const usable = RECORDS.filter((r) => !EAGER_ONLY.has(label(r)));
    const rec = usable.find((r) => r.op === op && !r.label) ?? usable.find((r) => r.op === op);
    if (!rec) continue;
    it(op, () => {
      scope(() => {
        const c = prepare(rec);
        const i = c.wrt[0];
        const v = paddle.reshape(paddle.to_tensor(c.xs[i].data.map(() => rand(0.5, 1.5)), 'float64'), c.xs[i].shape) as Tensor;
        // Eager: create_graph.
        rec.before?.();
        const ts = c.xs.map((x, k) => toTensor(x, k === i));
        const [g] = paddle.grad(weighted(outsOf(rec.fn(...ts)), c.weights), ts[i], { create_graph: true }) as Tensor[];
        const s = paddle.sum(paddle.multiply(g, v)) as Tensor;
        const want = s.stop_gradient ? null : (paddle.grad(s, ts[i], { allow_unused: true }) as (Tensor | null)[])[0];
        // Program: gradients twice.
        const { prog, feed, vs, loss } = recordProgram(rec, c);
        const h = paddle.static.program_guard(prog, () => {
          const [gp] = paddle.static.gradients([loss], [vs[i]]);
          const sp = paddle.sum(paddle.multiply(gp as never, v)) as unknown as Value;
          return paddle.static.gradients([sp], [vs[i]])[0];
        });
        if (!want || !h) {
          // A gradient linear in x: the second derivative is zero (or absent) on both sides.
          if (h) { rec.before?.(); const [got] = new paddle.static.Executor().run(prog, { feed, fetch_list: [h] }); expect(Math.max(...(got.dataSync() as unknown as number[]).map(Math.abs))).toBe(0); }
          if (want) expect(Math.max(...(want.dataSync() as unknown as number[]).map(Math.abs))).toBe(0);
          return;
        }
        rec.before?.();
        const [got] = new paddle.static.Executor().run(prog, { feed, fetch_list: [h] });
        expectClose(got, want, `${op} second order`, 1e-5, 1e-6);
      });
    });
  }
});
