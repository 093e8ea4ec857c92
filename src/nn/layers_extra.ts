// Bilinear, ParameterList, Dropout2D/3D, AlphaDropout, Pad1D/2D/3D, MaxPool1D/3D, AvgPool1D/3D
// with Paddle 2.6's constructors, plus the functional forms Paddle composes from other ops
// (F.bilinear, F.dropout2d/3d, F.alpha_dropout): written here with registry ops, so gradients
// come from those ops' rules.
import { callOp } from '../ops/api.js';
import { getOp } from '../ops/registry.js';
import type { TensorLike } from '../ops/dispatch.js';
import { Tensor } from '../tensor/tensor.js';
import { Layer, isParameter, makeParameter, type ParamAttrLike } from './layer.js';

const op = (name: string, args: unknown[]): TensorLike => callOp(getOp(name), args) as TensorLike;
const shapeOf = (t: TensorLike): number[] => [...(t as Tensor).shape] as number[];
type IntOrList = number | number[];

/** F.bilinear(x1, x2, weight, bias=None): out[b, o] = x1[b] @ weight[o] @ x2[b] + bias[0, o]; weight [out, in1, in2], bias [1, out]. */
export function bilinear(x1: TensorLike, x2: TensorLike, weight: TensorLike, bias: TensorLike | null = null): TensorLike {
  const [s1, s2, sw] = [shapeOf(x1), shapeOf(x2), shapeOf(weight)];
  if (sw.length !== 3 || s1.length !== 2 || s2.length !== 2 || s1[0] !== s2[0] || s1[1] !== sw[1] || s2[1] !== sw[2])
    throw new RangeError(`bilinear: x1 [${s1.join(', ')}] and x2 [${s2.join(', ')}] must be [batch, in1] and [batch, in2] matching weight [out, in1, in2] = [${sw.join(', ')}]`);
  const [out, in1, in2] = sw;
  if (bias !== null && bias !== undefined) {
    const sb = shapeOf(bias);
    if (sb.reduce((a, b) => a * b, 1) !== out || sb.length > 2) throw new RangeError(`bilinear: bias must be [1, ${out}], got [${sb.join(', ')}]`);
  }
  // x1 @ W viewed as [in1, out * in2] gives every x1[b] W[o] row at once; the x2 contraction is a multiply + sum.
  const w = op('reshape', [op('transpose', [weight, [1, 0, 2]]), [in1, out * in2]]);
  const t = op('reshape', [op('matmul', [x1, w]), [s1[0], out, in2]]);
  const y = op('sum', [op('multiply', [t, op('unsqueeze', [x2, [1]])]), [-1]]);
  return bias === null || bias === undefined ? y : op('add', [y, op('reshape', [bias, [1, out]])]);
}

function channelAxes(who: string, rank: number, x: TensorLike, data_format: string, formats: [string, string]): number[] {
  const s = shapeOf(x);
  if (s.length !== rank) throw new RangeError(`${who}: x must be ${rank}-D, got [${s.join(', ')}]`);
  if (!formats.includes(data_format)) throw new RangeError(`${who}: data_format must be '${formats[0]}' or '${formats[1]}', got '${data_format}'`);
  return data_format === formats[0] ? [0, 1] : [0, rank - 1];
}

/** F.dropout2d(x, p=0.5, training=True, data_format='NCHW'): drops whole channels (dropout with axis [N, C]). */
export function dropout2d(x: TensorLike, p = 0.5, training = true, data_format = 'NCHW'): TensorLike {
  return op('dropout', [x, { p, axis: channelAxes('dropout2d', 4, x, data_format, ['NCHW', 'NHWC']), training, mode: 'upscale_in_train' }]);
}

/** F.dropout3d(x, p=0.5, training=True, data_format='NCDHW'). */
export function dropout3d(x: TensorLike, p = 0.5, training = true, data_format = 'NCDHW'): TensorLike {
  return op('dropout', [x, { p, axis: channelAxes('dropout3d', 5, x, data_format, ['NCDHW', 'NDHWC']), training, mode: 'upscale_in_train' }]);
}

const SELU_ALPHA = 1.6732632423543772, SELU_SCALE = 1.0507009873554805;

/**
 * F.alpha_dropout(x, p=0.5, training=True): dropped units take SELU's negative saturation value
 * and an affine map a*y + b restores zero mean and unit variance (Paddle's formula).
 */
export function alpha_dropout(x: TensorLike, p = 0.5, training = true): TensorLike {
  if (typeof p !== 'number' || !(p >= 0 && p <= 1)) throw new RangeError(`alpha_dropout: p must be in [0, 1], got ${JSON.stringify(p)}`);
  if (!training || p === 0) return x;
  if (p === 1) return op('scale', [x, { scale: 0 }]);
  const t = x as Tensor;
  const alphaP = -SELU_ALPHA * SELU_SCALE;
  const a = ((1 - p) * (1 + p * alphaP * alphaP)) ** -0.5;
  const b = -a * alphaP * p;
  const keep = op('cast', [op('greater_equal', [op('uniform', [[...t.shape], 'float32', 0, 1]), p]), t.dtype]);
  const y = op('add', [op('multiply', [x, keep]), op('scale', [keep, { scale: -alphaP, bias: alphaP }])]);   // (1 - keep) * alphaP
  return op('scale', [y, { scale: a, bias: b }]);
}

/** Bilinear(in1_features, in2_features, out_features, weight_attr=None, bias_attr=None): weight [out, in1, in2] (Xavier-uniform), bias [1, out] (zeros). */
export class Bilinear extends Layer {
  weight: Tensor;
  bias: Tensor | null;
  constructor(readonly in1_features: number, readonly in2_features: number, readonly out_features: number, weight_attr: ParamAttrLike = null, bias_attr: ParamAttrLike = null) {
    super();
    for (const [k, v] of [['in1_features', in1_features], ['in2_features', in2_features], ['out_features', out_features]] as const)
      if (!Number.isInteger(v) || v <= 0) throw new RangeError(`Bilinear: ${k} must be a positive integer, got ${v}`);
    this.weight = this.create_parameter([out_features, in1_features, in2_features], weight_attr, null, false)!;
    this.bias = this.create_parameter([1, out_features], bias_attr, null, true);
  }
  override forward(x1: TensorLike, x2: TensorLike): TensorLike { return bilinear(x1, x2, this.weight, this.bias); }
  override extra_repr(): string { return `in1_features=${this.in1_features}, in2_features=${this.in2_features}, out_features=${this.out_features}, dtype=${this._dtype}`; }
}

/** ParameterList(parameters=None): parameters named 0, 1, ... (state_dict keys follow). */
export class ParameterList extends Layer {
  private readonly _params: Tensor[] = [];
  constructor(parameters: Iterable<Tensor> | null = null) {
    super();
    for (const p of parameters ?? []) this.append(p);
  }
  append(p: Tensor): this {
    if (!(p instanceof Tensor)) throw new TypeError('ParameterList.append: expected a parameter (Tensor)');
    if (!isParameter(p)) makeParameter(p, (p as Tensor).name);
    this._params.push(p);
    return this;
  }
  protected override ownParameters(): [string, Tensor][] { return this._params.filter((p) => !p.isDisposed).map((p, i) => [String(i), p]); }
  get length(): number { return this._params.length; }
  at(i: number): Tensor {
    const j = i < 0 ? i + this._params.length : i;
    if (j < 0 || j >= this._params.length) throw new RangeError(`ParameterList: index ${i} out of range for ${this._params.length} parameters`);
    return this._params[j];
  }
  set(i: number, p: Tensor): void {
    this.at(i);
    if (!isParameter(p)) makeParameter(p, (p as Tensor).name);
    this._params[i < 0 ? i + this._params.length : i] = p;
  }
  [Symbol.iterator](): Iterator<Tensor> { return this._params[Symbol.iterator](); }
}

/** Dropout2D(p=0.5, data_format='NCHW'). */
export class Dropout2D extends Layer {
  constructor(readonly p = 0.5, readonly data_format = 'NCHW') { super(); }
  override forward(x: TensorLike): TensorLike { return dropout2d(x, this.p, this.training, this.data_format); }
  override extra_repr(): string { return `p=${this.p}, data_format=${this.data_format}`; }
}

/** Dropout3D(p=0.5, data_format='NCDHW'). */
export class Dropout3D extends Layer {
  constructor(readonly p = 0.5, readonly data_format = 'NCDHW') { super(); }
  override forward(x: TensorLike): TensorLike { return dropout3d(x, this.p, this.training, this.data_format); }
  override extra_repr(): string { return `p=${this.p}, data_format=${this.data_format}`; }
}

/** AlphaDropout(p=0.5). */
export class AlphaDropout extends Layer {
  constructor(readonly p = 0.5) {
    super();
    if (typeof p !== 'number' || !(p >= 0 && p <= 1)) throw new RangeError(`AlphaDropout: p must be in [0, 1], got ${JSON.stringify(p)}`);
  }
  override forward(x: TensorLike): TensorLike { return alpha_dropout(x, this.p, this.training); }
  override extra_repr(): string { return `p=${this.p}`; }
}

/** Pad{1,2,3}D(padding, mode='constant', value=0.0, data_format): an int pads every side of every spatial dim. */
function padLayer(nd: number, fmt: string) {
  return class extends Layer {
    readonly padding: number[];
    constructor(padding: IntOrList, readonly mode = 'constant', readonly value = 0.0, readonly data_format = fmt) {
      super();
      if (typeof padding === 'number') this.padding = new Array<number>(2 * nd).fill(padding);
      else if (Array.isArray(padding) && padding.length === 2 * nd) this.padding = [...padding];
      else throw new RangeError(`Pad${nd}D: padding must be an int or ${2 * nd} ints, got ${JSON.stringify(padding)}`);
    }
    override forward(x: TensorLike): TensorLike {
      return op('pad', [x, { pad: this.padding, mode: this.mode, value: this.value, data_format: this.data_format }]);
    }
    override extra_repr(): string { return `padding=${JSON.stringify(this.padding)}, mode=${this.mode}, value=${this.value}, data_format=${this.data_format}`; }
  };
}
export const Pad1D = padLayer(1, 'NCL');
export const Pad2D = padLayer(2, 'NCHW');
export const Pad3D = padLayer(3, 'NCDHW');

/** MaxPool1D(kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False). */
export class MaxPool1D extends Layer {
  constructor(readonly kernel_size: IntOrList, readonly stride: IntOrList | null = null, readonly padding: IntOrList | string = 0, readonly return_mask = false,
    readonly ceil_mode = false) { super(); }
  override forward(x: TensorLike): TensorLike {
    return op('max_pool1d', [x, { kernel_size: this.kernel_size, stride: this.stride, padding: this.padding, return_mask: this.return_mask, ceil_mode: this.ceil_mode }]);
  }
  override extra_repr(): string { return `kernel_size=${JSON.stringify(this.kernel_size)}, stride=${JSON.stringify(this.stride)}, padding=${JSON.stringify(this.padding)}`; }
}

/** MaxPool3D(kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False, data_format='NCDHW'). */
export class MaxPool3D extends Layer {
  constructor(readonly kernel_size: IntOrList, readonly stride: IntOrList | null = null, readonly padding: IntOrList | string = 0, readonly return_mask = false,
    readonly ceil_mode = false, readonly data_format = 'NCDHW') { super(); }
  override forward(x: TensorLike): TensorLike {
    return op('max_pool3d', [x, { kernel_size: this.kernel_size, stride: this.stride, padding: this.padding, return_mask: this.return_mask, ceil_mode: this.ceil_mode,
      data_format: this.data_format }]);
  }
  override extra_repr(): string { return `kernel_size=${JSON.stringify(this.kernel_size)}, stride=${JSON.stringify(this.stride)}, padding=${JSON.stringify(this.padding)}`; }
}

/** AvgPool1D(kernel_size, stride=None, padding=0, exclusive=True, ceil_mode=False). */
export class AvgPool1D extends Layer {
  constructor(readonly kernel_size: IntOrList, readonly stride: IntOrList | null = null, readonly padding: IntOrList | string = 0, readonly exclusive = true,
    readonly ceil_mode = false) { super(); }
  override forward(x: TensorLike): TensorLike {
    return op('avg_pool1d', [x, { kernel_size: this.kernel_size, stride: this.stride, padding: this.padding, exclusive: this.exclusive, ceil_mode: this.ceil_mode }]);
  }
  override extra_repr(): string { return `kernel_size=${JSON.stringify(this.kernel_size)}, stride=${JSON.stringify(this.stride)}, padding=${JSON.stringify(this.padding)}`; }
}

/** AvgPool3D(kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True, divisor_override=None, data_format='NCDHW'). */
export class AvgPool3D extends Layer {
  constructor(readonly kernel_size: IntOrList, readonly stride: IntOrList | null = null, readonly padding: IntOrList | string = 0, readonly ceil_mode = false,
    readonly exclusive = true, readonly divisor_override: number | null = null, readonly data_format = 'NCDHW') { super(); }
  override forward(x: TensorLike): TensorLike {
    return op('avg_pool3d', [x, { kernel_size: this.kernel_size, stride: this.stride, padding: this.padding, ceil_mode: this.ceil_mode, exclusive: this.exclusive,
      divisor_override: this.divisor_override, data_format: this.data_format }]);
  }
  override extra_repr(): string { return `kernel_size=${JSON.stringify(this.kernel_size)}, stride=${JSON.stringify(this.stride)}, padding=${JSON.stringify(this.padding)}`; }
}
