// Conv2D and the 2-D pooling layers.
import { callOp } from '../ops/api.js';
import { getOp } from '../ops/registry.js';
import type { TensorLike } from '../ops/dispatch.js';
import type { Tensor } from '../tensor/tensor.js';
import { Normal } from './initializer.js';
import { Layer, type ParamAttrLike } from './layer.js';

const op = (name: string, args: unknown[]): TensorLike => callOp(getOp(name), args) as TensorLike;
type IntOr2 = number | [number, number];

function pair(v: IntOr2, what: string): [number, number] {
  if (typeof v === 'number') return [v, v];
  if (!Array.isArray(v) || v.length !== 2) throw new RangeError(`Conv2D: ${what} must be an int or 2 ints, got ${JSON.stringify(v)}`);
  return [v[0], v[1]];
}

/** Paddle's conv layer repr (settings left at their defaults are omitted); every conv layer prints this way. */
export function convExtraRepr(l: { in_channels: number; out_channels: number; kernel_size: number[]; stride: unknown; padding: unknown; dilation: unknown; groups: number }): string {
  let s = `${l.in_channels}, ${l.out_channels}, kernel_size=[${l.kernel_size.join(', ')}]`;
  if (l.stride !== 1) s += `, stride=${JSON.stringify(l.stride)}`;
  if (l.padding !== 0) s += `, padding=${JSON.stringify(l.padding)}`;
  if (l.dilation !== 1) s += `, dilation=${JSON.stringify(l.dilation)}`;
  if (l.groups !== 1) s += `, groups=${l.groups}`;
  return s;
}

/** 2-D convolution, weight [out_channels, in_channels / groups, kh, kw]: Normal(0, sqrt(2 / (kh*kw*in_channels))), bias zeros (Paddle's defaults). */
export class Conv2D extends Layer {
  weight: Tensor;
  bias: Tensor | null;
  readonly kernel_size: [number, number];
  constructor(
    readonly in_channels: number, readonly out_channels: number, kernel_size: IntOr2,
    readonly stride: IntOr2 = 1, readonly padding: IntOr2 | string = 0, readonly dilation: IntOr2 = 1, readonly groups = 1,
    padding_mode = 'zeros', weight_attr: ParamAttrLike = null, bias_attr: ParamAttrLike = null, readonly data_format = 'NCHW',
  ) {
    super();
    if (groups <= 0 || in_channels % groups || out_channels % groups)
      throw new RangeError(`Conv2D: in_channels ${in_channels} and out_channels ${out_channels} must be divisible by groups ${groups}`);
    if (padding_mode !== 'zeros') throw new Error(`Conv2D: padding_mode '${padding_mode}' is not supported yet (only 'zeros')`);
    this.kernel_size = pair(kernel_size, 'kernel_size');
    const fan = this.kernel_size[0] * this.kernel_size[1] * in_channels;
    this.weight = this.create_parameter([out_channels, in_channels / groups, ...this.kernel_size], weight_attr, null, false, new Normal(0, Math.sqrt(2 / fan)))!;
    this.bias = this.create_parameter([out_channels], bias_attr, null, true);
  }
  override forward(x: TensorLike): TensorLike {
    return op('conv2d', [x, this.weight, this.bias, { stride: this.stride, padding: this.padding, dilation: this.dilation, groups: this.groups, data_format: this.data_format }]);
  }
  override extra_repr(): string { return convExtraRepr(this); }
}

export class MaxPool2D extends Layer {
  constructor(readonly kernel_size: IntOr2, readonly stride: IntOr2 | null = null, readonly padding: IntOr2 = 0, readonly return_mask = false, readonly ceil_mode = false, readonly data_format = 'NCHW') { super(); }
  override forward(x: TensorLike): TensorLike {
    return op('max_pool2d', [x, { kernel_size: this.kernel_size, stride: this.stride, padding: this.padding, return_mask: this.return_mask, ceil_mode: this.ceil_mode, data_format: this.data_format }]);
  }
  override extra_repr(): string { return `kernel_size=${JSON.stringify(this.kernel_size)}, stride=${JSON.stringify(this.stride)}, padding=${JSON.stringify(this.padding)}`; }
}

export class AvgPool2D extends Layer {
  constructor(readonly kernel_size: IntOr2, readonly stride: IntOr2 | null = null, readonly padding: IntOr2 = 0, readonly ceil_mode = false, readonly exclusive = true, readonly divisor_override: number | null = null, readonly data_format = 'NCHW') { super(); }
  override forward(x: TensorLike): TensorLike {
    return op('avg_pool2d', [x, { kernel_size: this.kernel_size, stride: this.stride, padding: this.padding, ceil_mode: this.ceil_mode, exclusive: this.exclusive, divisor_override: this.divisor_override, data_format: this.data_format }]);
  }
  override extra_repr(): string { return `kernel_size=${JSON.stringify(this.kernel_size)}, stride=${JSON.stringify(this.stride)}, padding=${JSON.stringify(this.padding)}`; }
}
