// Gradient rules of pixel_shuffle / pixel_unshuffle (nn_pixel.ts), group_norm, instance_norm and
// local_response_norm (nn_norm_more.ts) and interpolate (nn_interp.ts), with public ops through
// GradKit so they are differentiable again.
import { type GradKit, kit } from '../grad_kit.js';
import type { OpDef } from '../types.js';

type Rule = Pick<OpDef, 'grad' | 'gradReads'>;
const range = (a: number, b: number) => Array.from({ length: b - a }, (_, i) => a + i);

/** pixel_shuffle and pixel_unshuffle are each other's inverse permutation, hence adjoint. */
const pixelRule = (other: string, from: string, to: string): Rule => ({
  grad: ({ outGrads: [g], attrs }, ops) => [kit(ops).op(other, [g], { [to]: attrs[from], data_format: attrs.data_format })],
  gradReads: {},
});

/**
 * group_norm / instance_norm: statistics recomputed from x (channel-first, as [N, G, rest]) with
 * public ops, then layer_norm's form per group: with xhat = (x - mu) * rstd and gy = g * scale,
 * dx = rstd * (gy - mean(gy) - xhat * mean(gy * xhat)); dscale = sum(g * xhat), dbias = sum(g)
 * over every axis but the channels.
 */
function groupNormGrad(perChannel: boolean): OpDef['grad'] {
  return ({ inputs: [x0, scale, bias], outGrads: [g0], attrs, needsGrad }, ops) => {
    const k = kit(ops);
    const r = k.rank(x0!);
    const cl = !perChannel && (attrs.data_format as string)[1] !== 'C';
    const x = cl ? k.transpose(x0!, [0, r - 1, ...range(1, r - 1)]) : x0!;
    const g = cl ? k.transpose(g0!, [0, r - 1, ...range(1, r - 1)]) : g0!;
    const xs = k.shape(x);
    const [N, C] = xs;
    const G = perChannel ? C : (attrs.groups as number);
    const rest = xs.slice(1).reduce((a, b) => a * b, 1) / Math.max(G, 1);
    const grouped = [N, G, rest];
    const chan = xs.map((d, i) => (i === 1 ? d : 1));
    const x3 = k.reshape(x, grouped);
    const xc = k.sub(x3, k.op('mean', [x3], { axis: [2], keepdim: true }));
    const rstd = k.op('rsqrt', [k.scale(k.op('mean', [k.square(xc)], { axis: [2], keepdim: true }), 1, attrs.epsilon as number)]);
    const xhat = k.mul(xc, rstd);
    const axes = xs.map((_, i) => i).filter((i) => i !== 1);
    let dx: typeof x0 = null;
    if (needsGrad[0]) {
      const gy = k.reshape(scale ? k.mul(g, k.reshape(scale, chan)) : g, grouped);
      const m1 = k.op('mean', [gy], { axis: [2], keepdim: true });
      const m2 = k.op('mean', [k.mul(gy, xhat)], { axis: [2], keepdim: true });
      dx = k.reshape(k.mul(rstd, k.sub(k.sub(gy, m1), k.mul(xhat, m2))), xs);
      if (cl) dx = k.transpose(dx, [0, ...range(2, r), 1]);
    }
    const ds = scale && needsGrad[1] ? k.sum(k.mul(g, k.reshape(xhat, xs)), axes) : null;
    const db = bias && needsGrad[2] ? k.sum(g, axes) : null;
    return [dx, ds, db];
  };
}

/** Sum over the channel window [c - before, c + after] (zeros outside), along `axis`. */
function windowSum<T>(k: GradKit<T>, t: T, axis: number, before: number, after: number): T {
  const s = k.shape(t);
  const pads = new Array<number>(2 * s.length).fill(0);
  pads[2 * axis] = before;
  pads[2 * axis + 1] = after;
  const p = before || after ? k.op('pad', [t], { pad: pads }) : t;
  let acc: T | null = null;
  for (let j = 0; j <= before + after; j++) {
    const w = k.op('slice', [p], { axes: [axis], starts: [j], ends: [j + s[axis]] });
    acc = acc ? k.add(acc, w) : w;
  }
  return acc!;
}

/**
 * local_response_norm: out = x * d^-beta with d = k + alpha / size * S(x^2), S the sum over the
 * channel window [c - size/2, c + (size-1)/2]. dx = g * d^-beta - 2 * alpha * beta / size * x *
 * S'(g * x * d^(-beta-1)), S' the window reflected ([i - (size-1)/2, i + size/2]), S's adjoint.
 */
const lrnGrad: OpDef['grad'] = ({ inputs: [x], outGrads: [g], attrs }, ops) => {
  const k = kit(ops);
  const r = k.rank(x!);
  const fmt = attrs.data_format as string;
  const axis = fmt[1] === 'C' ? 1 : r - 1;
  const size = attrs.size as number, alpha = attrs.alpha as number, beta = attrs.beta as number;
  const lo = Math.floor(size / 2), hi = size - 1 - lo;
  const d = k.scale(windowSum(k, k.square(x!), axis, lo, hi), alpha / size, attrs.k as number);
  const dPow = k.op('elementwise_pow', [d, k.scalar(-beta, x!)]);
  const u = k.div(k.mul(k.mul(g!, x!), dPow), d);
  const back = k.scale(k.mul(x!, windowSum(k, u, axis, hi, lo)), -2 * alpha * beta / size);
  return [k.add(k.mul(g!, dPow), back)];
};

/** interpolate: its own backward op (every mode is a fixed linear map of x; the kernel scatters). */
const interpGrad: OpDef['grad'] = ({ inputs: [x], outGrads: [g], attrs }, ops) => {
  const k = kit(ops);
  return [k.op('interpolate_grad', [g], { ...attrs, x_shape: k.shape(x!) })];
};

export const NN_MISC_GRADS: Readonly<Record<string, Rule>> = {
  pixel_shuffle: pixelRule('pixel_unshuffle', 'upscale_factor', 'downscale_factor'),
  pixel_unshuffle: pixelRule('pixel_shuffle', 'downscale_factor', 'upscale_factor'),
  group_norm: { grad: groupNormGrad(false), gradReads: { inputs: [0, 1] } },
  instance_norm: { grad: groupNormGrad(true), gradReads: { inputs: [0, 1] } },
  local_response_norm: { grad: lrnGrad, gradReads: { inputs: [0] } },
  interpolate: { grad: interpGrad, gradReads: {} },
};
