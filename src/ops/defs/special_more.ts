// polygamma (a native op) and multigammaln (a composite over lgamma, as Paddle 2.6 writes it).
// Native: native/kernels/polygamma.cc.
import { isFloating } from '../../tensor/dtype.js';
import { kit } from '../grad_kit.js';
import { runOp } from '../dispatch.js';
import { registerOp } from '../registry.js';
import type { Attrs } from '../types.js';
import { bindArgs } from './nn_util.js';
import { scope, Tensor } from '../../tensor/tensor.js';

function order(a: Attrs): number {
  const n = a.n;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) throw new RangeError(`polygamma: n must be a non-negative integer, got ${JSON.stringify(n)}`);
  return n;
}

/**
 * paddle.polygamma(x, n): the n-th derivative of digamma (n = 0 is digamma itself). Poles at
 * 0, -1, -2, ... give +-inf; float inputs only (same dtype out), halves compute in double.
 */
export const polygamma = registerOp({
  name: 'polygamma',
  inputs: [{ name: 'x' }],
  attrs: [{ name: 'n', type: 'int' }],
  outputs: ['out'],
  inplace: true,
  infer: ([x], a) => {
    if (!isFloating(x.dtype)) throw new TypeError(`polygamma: expected a floating-point input, got ${x.dtype}`);
    order(a);
    return [{ dtype: x.dtype, shape: x.shape }];
  },
  encode: (a) => [order(a)],
  gradReads: { inputs: [0] },
  grad: ({ inputs: [x], outGrads: [g], attrs }, ops) => {
    const k = kit(ops);
    return [k.mul(g!, k.op('polygamma', [x!], { n: order(attrs) + 1 }))];
  },
  api: { names: ['polygamma'], methods: ['polygamma'] },
});

type T = ReturnType<typeof runOp>[number];
const one = (name: string, ins: (T | null)[], attrs: Record<string, unknown> = {}): T => runOp(name, ins, attrs)[0];

/**
 * paddle.multigammaln(x, p): log of the multivariate gamma function,
 * sum_{i<p} lgamma(x - i/2) + p (p-1)/4 log(pi). Composite of registry ops, so it has
 * gradients (and records into programs) through them.
 */
export function multigammaln(...args: unknown[]): unknown {
  const b = bindArgs('multigammaln', ['x', 'p'], args);
  const x = b.x as T;
  if (!x || typeof x !== 'object' || !('dtype' in x)) throw new TypeError('multigammaln: x must be a Tensor');
  const p = b.p;
  if (typeof p !== 'number' || !Number.isInteger(p) || p < 1) throw new RangeError(`multigammaln: p must be an integer >= 1, got ${JSON.stringify(p)}`);
  if (!isFloating(x.dtype)) throw new TypeError(`multigammaln: expected a floating-point input, got ${x.dtype}`);
  // [..., 1] + [p] offsets (1-p)/2 .. 0, then lgamma and a sum over the new axis; the
  // intermediates are freed on return.
  return scope(() => {
    const offs = one('arange', [], { start: 1 - p, end: 1, step: 1, dtype: x.dtype });
    const shifted = one('add', [one('unsqueeze', [x], { axis: [-1] }), one('scale', [offs], { scale: 0.5, bias: 0 })]);
    const s = one('sum', [one('lgamma', [shifted])], { axis: [-1], keepdim: false });
    return one('scale', [s], { scale: 1, bias: 0.25 * p * (p - 1) * Math.log(Math.PI) });
  });
}

/** Public functions written by hand (mounted by src/paddle.ts). */
export const specialMorePublic: Readonly<Record<string, (...args: unknown[]) => unknown>> = { multigammaln };

Object.defineProperty(Tensor.prototype, 'multigammaln', {
  value: function (this: Tensor, ...args: unknown[]) { return multigammaln(this, ...args); }, writable: true, configurable: true,
});
