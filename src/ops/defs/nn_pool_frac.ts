// F.fractional_max_pool2d(x, output_size, kernel_size=None, random_u=None, return_mask=False) and
// F.fractional_max_pool3d (Paddle 2.6). Native: nn_pool_frac.cc (the window rule is described
// there). The ops are deterministic: they take random_u in (0, 1) and always produce the mask
// (int32 plane-local argmax), which the gradient reads. The public functions draw random_u from
// the global generator when it is None (so paddle.seed fixes it) and return out, or [out, mask]
// with return_mask; None entries of output_size become the input's size there too.
import { isFloating } from '../../tensor/dtype.js';
import { type Dim, ShapeError, shapeStr } from '../../tensor/shape.js';
import { callOp } from '../api.js';
import { runOp } from '../dispatch.js';
import { kit } from '../grad_kit.js';
import { registerOp } from '../registry.js';
import type { Attrs, AttrValue, OpDef, TensorMeta } from '../types.js';
import { bindArgs } from './nn_util.js';

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

/** int | list of n (ints or None = the input's size) -> n sizes. */
function sizes(op: string, what: string, v: AttrValue | undefined, n: number, like: readonly Dim[] | null): number[] {
  const list = isInt(v) ? new Array<unknown>(n).fill(v) : Array.isArray(v) && v.length === n ? [...v] : null;
  if (!list) throw new TypeError(`${op}: ${what} must be an int or a list of ${n} ints, got ${JSON.stringify(v)}`);
  return list.map((e, i) => {
    const d = e === null && like ? like[i] : e;
    if (!isInt(d) || d <= 0) throw new RangeError(`${op}: ${what} must hold positive ints${like ? ' (or None)' : ''}, got ${JSON.stringify(v)}`);
    return d;
  });
}

function plan(op: string, nd: number, x: TensorMeta, a: Attrs): { out: number[]; kernel: number[] } {
  if (x.shape.length !== nd + 2) throw new ShapeError(`${op}: input should be a ${nd + 2}-D tensor [N, C, ${nd === 3 ? 'D, ' : ''}H, W], got shape ${shapeStr(x.shape)}`);
  if (!isFloating(x.dtype)) throw new TypeError(`${op}: expected a floating-point input, got ${x.dtype}`);
  const spatial = x.shape.slice(2);
  const out = sizes(op, 'output_size', a.output_size, nd, null);
  const kernel = a.kernel_size === null ? new Array<number>(nd).fill(0) : sizes(op, 'kernel_size', a.kernel_size, nd, null);
  const u = a.random_u;
  if (typeof u !== 'number' || !(u > 0 && u < 1)) throw new RangeError(`${op}: random_u must be a float in (0, 1), got ${JSON.stringify(u)}`);
  spatial.forEach((d, i) => {
    const need = kernel[i] > 0 ? out[i] - 1 + kernel[i] : out[i];
    if (typeof d === 'number' && d < need)
      throw new ShapeError(`${op}: input size ${d} of dim ${i + 2} (shape ${shapeStr(x.shape)}) is less than the valid size ${need} for output_size ${out[i]}${kernel[i] > 0 ? ` with kernel_size ${kernel[i]}` : ''}`);
  });
  return { out, kernel };
}

/** g summed into each window's argmax: index_add over the flattened planes with the forward's mask. */
const fracGrad: OpDef['grad'] = ({ inputs: [x], outputs: [, mask], outGrads: [g] }, ops) => {
  const k = kit(ops);
  const xs = k.shape(x!), gs = k.shape(g!);
  const [N, C] = xs;
  const plane = xs.slice(2).reduce((p, d) => p * d, 1), per = gs.slice(2).reduce((p, d) => p * d, 1);
  const base = k.reshape(k.op('arange', [], { start: 0, end: N * C * plane, step: plane, dtype: 'int64' }), [N, C, 1]);
  const idx = k.reshape(k.add(k.reshape(k.cast(mask, 'int64'), [N, C, per]), base), [N * C * per]);
  const flat = k.full([N * C * plane], 0, k.dtype(g!));
  return [k.reshape(k.op('index_add', [flat, idx, k.reshape(g!, [N * C * per])], { axis: 0 }), xs)];
};

function fracOp(nd: 2 | 3) {
  const name = `fractional_max_pool${nd}d`;
  return registerOp({
    name,
    inputs: [{ name: 'x' }],
    attrs: [{ name: 'output_size', type: 'int[]' }, { name: 'kernel_size', type: 'int[]', default: null },
      { name: 'random_u', type: 'float' }],
    outputs: ['out', 'mask'],
    infer: ([x], a) => {
      const { out } = plan(name, nd, x, a);
      const shape = [x.shape[0], x.shape[1], ...out];
      return [{ dtype: x.dtype, shape }, { dtype: 'int32', shape }];
    },
    /** [od, oh, ow, kd, kh, kw, u]; the 2-D op has od = 1, kd = 0 */
    encode: (a, [x]) => {
      const { out, kernel } = plan(name, nd, x, a);
      return nd === 2 ? [1, ...out, 0, ...kernel, a.random_u as number] : [...out, ...kernel, a.random_u as number];
    },
    grad: fracGrad,
    gradReads: { outputs: [1] },
    api: { names: [] },
  });
}

export const fractional_max_pool2d = fracOp(2);
export const fractional_max_pool3d = fracOp(3);

function fracApi(def: OpDef) {
  return (...args: unknown[]): unknown => {
    const p = bindArgs(def.name, ['x', 'output_size', 'kernel_size', 'random_u', 'return_mask'], args);
    let u = p.random_u ?? null;
    if (u === null) {
      // Paddle draws u in (0, 1) from the default generator; 0 is redrawn (the op needs u > 0).
      do u = (runOp('uniform', [], { shape: [], dtype: 'float32', min: 0, max: 1 })[0] as unknown as { item(): number }).item();
      while (!((u as number) > 0));
    }
    // None entries of output_size keep the input's size (resolved here: PIR int[] attributes hold ints only).
    const x = p.x as TensorMeta;
    const os = Array.isArray(p.output_size) && x && Array.isArray(x.shape) ? (p.output_size as unknown[]).map((d, i) => d ?? x.shape[i + 2]) : p.output_size;
    const outs = callOp(def, [p.x, os, p.kernel_size ?? null, u]) as unknown[];
    return p.return_mask ? outs : outs[0];
  };
}

/** Public functions bound by hand (random_u drawn when None; the mask returned on request). */
export const fracPoolPublic: Readonly<Record<string, (...args: unknown[]) => unknown>> = {
  'nn.functional.fractional_max_pool2d': fracApi(fractional_max_pool2d),
  'nn.functional.fractional_max_pool3d': fracApi(fractional_max_pool3d),
};
