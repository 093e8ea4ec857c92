// Gradient rules of the pools in nn_pool_more.ts, with public ops through GradKit:
//  - max pools (max_pool1d/3d, adaptive_max_pool{1,2,3}d): the forward is run again with
//    return_mask for the argmax of every window (the first maximum, as Paddle picks it), and g is
//    summed into those positions with index_add over the flattened input (overlapping windows
//    may pick one element several times).
//  - avg pools (avg_pool1d/3d, adaptive_avg_pool{1,2,3}d): avg_pool_grad (nn_grad_ops.ts, its
//    own kernel), which spreads each window's share back; no public op does that in one pass.
//  - max_unpool{1,2,3}d: the adjoint of writing x at indices is gathering g from them.
// Plane-local indices (within one [N, C] plane) become global ones by adding plane * plane size.
import { type GradKit, kit } from '../grad_kit.js';
import type { OpDef } from '../types.js';
import { FORMATS } from './nn_window.js';

const range = (a: number, b: number) => Array.from({ length: b - a }, (_, i) => a + i);
const prod = (s: readonly number[]) => s.reduce((a, b) => a * b, 1);

/** int32/int64 plane-local indices [N, C, *] -> flat int64 indices into [N * C * plane]. */
function globalIndex<T>(k: GradKit<T>, idx: T, plane: number): T {
  const [N, C] = k.shape(idx);
  const per = prod(k.shape(idx).slice(2));
  const base = k.reshape(k.op('arange', [], { start: 0, end: N * C * plane, step: plane, dtype: 'int64' }), [N, C, 1]);
  return k.reshape(k.add(k.reshape(k.cast(idx, 'int64'), [N, C, per]), base), [N * C * per]);
}

function maxPoolGrad(op: string, nd: number): OpDef['grad'] {
  return ({ inputs: [x0], outGrads: [g0], attrs }, ops) => {
    const k = kit(ops);
    const cl = attrs.data_format === FORMATS[nd][1];
    const toFirst = [0, nd + 1, ...range(1, nd + 1)];
    const x = cl ? k.transpose(x0!, toFirst) : x0!;
    const g = cl ? k.transpose(g0!, toFirst) : g0!;
    const fwd: Record<string, unknown> = { ...attrs, return_mask: true };
    if ('data_format' in attrs) fwd.data_format = FORMATS[nd][0];
    const mask = ops.run(op, [x], fwd)[1];
    const xs = k.shape(x);
    const total = prod(xs);
    const flat = k.full([total], 0, k.dtype(g));
    let dx = k.reshape(k.op('index_add', [flat, globalIndex(k, mask, prod(xs.slice(2))), k.reshape(g, [prod(k.shape(g))])], { axis: 0 }), xs);
    if (cl) dx = k.transpose(dx, [0, ...range(2, nd + 2), 1]);
    return [dx];
  };
}

/** The attributes avg_pool_grad takes (the forward's window, or none for adaptive pools). */
function avgPoolGrad(nd: number, adaptive: boolean): OpDef['grad'] {
  return ({ inputs: [x], outGrads: [g], attrs }, ops) => {
    const k = kit(ops);
    const a: Record<string, unknown> = { x_shape: k.shape(x!), data_format: (attrs.data_format as string | undefined) ?? FORMATS[nd][0] };
    if (!adaptive) {
      Object.assign(a, { kernel_size: attrs.kernel_size, stride: attrs.stride, padding: attrs.padding, ceil_mode: attrs.ceil_mode, exclusive: attrs.exclusive });
      if (attrs.divisor_override !== undefined) a.divisor_override = attrs.divisor_override;
    }
    return [k.op('avg_pool_grad', [g], a)];
  };
}

/** dx[n, c, i] = g[n, c, indices[n, c, i]] (indices are plane-local). */
const unpoolGrad: OpDef['grad'] = ({ inputs: [x, idx], outGrads: [g] }, ops) => {
  const k = kit(ops);
  const gs = k.shape(g!);
  const gi = globalIndex(k, idx!, prod(gs.slice(2)));
  return [k.reshape(k.op('gather', [k.reshape(g!, [prod(gs)]), gi], { axis: 0 }), k.shape(x!)), null];
};

type Rule = Pick<OpDef, 'grad' | 'gradReads'>;
const maxRule = (op: string, nd: number): Rule => ({ grad: maxPoolGrad(op, nd), gradReads: { inputs: [0] } });
const avgRule = (nd: number, adaptive: boolean): Rule => ({ grad: avgPoolGrad(nd, adaptive), gradReads: {} });

export const POOL_MORE_GRADS: Readonly<Record<string, Rule>> = {
  max_pool1d: maxRule('max_pool1d', 1),
  max_pool3d: maxRule('max_pool3d', 3),
  adaptive_max_pool1d: maxRule('adaptive_max_pool1d', 1),
  adaptive_max_pool2d: maxRule('adaptive_max_pool2d', 2),
  adaptive_max_pool3d: maxRule('adaptive_max_pool3d', 3),
  avg_pool1d: avgRule(1, false),
  avg_pool3d: avgRule(3, false),
  adaptive_avg_pool1d: avgRule(1, true),
  adaptive_avg_pool2d: avgRule(2, true),
  adaptive_avg_pool3d: avgRule(3, true),
  max_unpool1d: { grad: unpoolGrad, gradReads: { inputs: [1] } },
  max_unpool2d: { grad: unpoolGrad, gradReads: { inputs: [1] } },
  max_unpool3d: { grad: unpoolGrad, gradReads: { inputs: [1] } },
};
