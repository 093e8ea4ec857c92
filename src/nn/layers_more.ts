// The n-d convolution, transposed convolution, pooling, normalization and resampling layers
// beyond Conv2D / the 2-D pools (layers_conv.ts), with Paddle 2.6's constructor signatures and
// parameter defaults. Each forwards to its registry op, so training goes through the ops' grad
// rules (nn_conv_grad.ts, nn_pool_grad.ts, nn_misc_grad.ts).
import { callOp } from '../ops/api.js';
import { getOp } from '../ops/registry.js';
import type { TensorLike } from '../ops/dispatch.js';
import type { Tensor } from '../tensor/tensor.js';
import { Constant, Normal } from './initializer.js';
import { Layer, type ParamAttrLike } from './layer.js';
import { convExtraRepr } from './layers_conv.js';

const op = (name: string, args: unknown[]): TensorLike => callOp(getOp(name), args) as TensorLike;
type IntOrList = number | number[];

function listOf(layer: string, v: IntOrList, n: number, what: string): number[] {
  if (typeof v === 'number') return new Array<number>(n).fill(v);
  if (!Array.isArray(v) || v.length !== n) throw new RangeError(`${layer}: ${what} must be an int or ${n} ints, got ${JSON.stringify(v)}`);
  return [...v];
}

/**
 * Shared by the convolutions and their transposes: weight [out, in / groups, *k] (transposed:
 * [in, out / groups, *k]) from Normal(0, sqrt(2 / (prod(k) * in_channels))), bias zeros.
 */
class ConvNd extends Layer {
  weight: Tensor;
  bias: Tensor | null;
  readonly kernel_size: number[];
  constructor(
    readonly layer: string, readonly nd: number, readonly transposed: boolean,
    readonly in_channels: number, readonly out_channels: number, kernel_size: IntOrList, readonly stride: IntOrList, readonly padding: IntOrList | string,
    readonly dilation: IntOrList, readonly groups: number, weight_attr: ParamAttrLike, bias_attr: ParamAttrLike, readonly data_format: string,
    readonly output_padding: IntOrList = 0,
  ) {
    super();
    if (!Number.isInteger(groups) || groups <= 0 || in_channels % groups || out_channels % groups)
      throw new RangeError(`${layer}: in_channels ${in_channels} and out_channels ${out_channels} must be divisible by groups ${groups}`);
    this.kernel_size = listOf(layer, kernel_size, nd, 'kernel_size');
    const fan = this.kernel_size.reduce((a, b) => a * b, 1) * in_channels;
    const shape = transposed ? [in_channels, out_channels / groups, ...this.kernel_size] : [out_channels, in_channels / groups, ...this.kernel_size];
    this.weight = this.create_parameter(shape, weight_attr, null, false, new Normal(0, Math.sqrt(2 / fan)))!;
    this.bias = this.create_parameter([out_channels], bias_attr, null, true);
  }
  protected run(x: TensorLike, output_size: IntOrList | null = null): TensorLike {
    const name = `conv${this.nd}d${this.transposed ? '_transpose' : ''}`;
    const attrs: Record<string, unknown> = { stride: this.stride, padding: this.padding, dilation: this.dilation, groups: this.groups, data_format: this.data_format };
    if (this.transposed) Object.assign(attrs, { output_padding: this.output_padding, output_size });
    return op(name, [x, this.weight, this.bias, attrs]);
  }
  override extra_repr(): string { return convExtraRepr(this); }
}

function checkPaddingMode(layer: string, mode: string) {
  if (mode !== 'zeros') throw new Error(`${layer}: padding_mode '${mode}' is not supported yet (only 'zeros')`);
}

/** Conv1D(in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, padding_mode='zeros', weight_attr=None, bias_attr=None, data_format='NCL'). */
export class Conv1D extends ConvNd {
  constructor(in_channels: number, out_channels: number, kernel_size: IntOrList, stride: IntOrList = 1, padding: IntOrList | string = 0, dilation: IntOrList = 1, groups = 1,
    padding_mode = 'zeros', weight_attr: ParamAttrLike = null, bias_attr: ParamAttrLike = null, data_format = 'NCL') {
    checkPaddingMode('Conv1D', padding_mode);
    super('Conv1D', 1, false, in_channels, out_channels, kernel_size, stride, padding, dilation, groups, weight_attr, bias_attr, data_format);
  }
  override forward(x: TensorLike): TensorLike { return this.run(x); }
}

/** Conv3D(in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, padding_mode='zeros', weight_attr=None, bias_attr=None, data_format='NCDHW'). */
export class Conv3D extends ConvNd {
  constructor(in_channels: number, out_channels: number, kernel_size: IntOrList, stride: IntOrList = 1, padding: IntOrList | string = 0, dilation: IntOrList = 1, groups = 1,
    padding_mode = 'zeros', weight_attr: ParamAttrLike = null, bias_attr: ParamAttrLike = null, data_format = 'NCDHW') {
    checkPaddingMode('Conv3D', padding_mode);
    super('Conv3D', 3, false, in_channels, out_channels, kernel_size, stride, padding, dilation, groups, weight_attr, bias_attr, data_format);
  }
  override forward(x: TensorLike): TensorLike { return this.run(x); }
}

function transposeLayer(layer: string, nd: number, fmt: string) {
  /** ConvNDTranspose(in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1, dilation=1, weight_attr=None, bias_attr=None, data_format); forward(x, output_size=None). */
  return class extends ConvNd {
    constructor(in_channels: number, out_channels: number, kernel_size: IntOrList, stride: IntOrList = 1, padding: IntOrList | string = 0, output_padding: IntOrList = 0,
      groups = 1, dilation: IntOrList = 1, weight_attr: ParamAttrLike = null, bias_attr: ParamAttrLike = null, data_format = fmt) {
      super(layer, nd, true, in_channels, out_channels, kernel_size, stride, padding, dilation, groups, weight_attr, bias_attr, data_format, output_padding);
    }
    override forward(x: TensorLike, output_size: IntOrList | null = null): TensorLike { return this.run(x, output_size); }
  };
}
export const Conv1DTranspose = transposeLayer('Conv1DTranspose', 1, 'NCL');
export const Conv2DTranspose = transposeLayer('Conv2DTranspose', 2, 'NCHW');
export const Conv3DTranspose = transposeLayer('Conv3DTranspose', 3, 'NCDHW');

/** GroupNorm(num_groups, num_channels, epsilon=1e-05, weight_attr=None, bias_attr=None, data_format='NCHW'). */
export class GroupNorm extends Layer {
  weight: Tensor | null;
  bias: Tensor | null;
  constructor(readonly num_groups: number, readonly num_channels: number, readonly epsilon = 1e-5, weight_attr: ParamAttrLike = null, bias_attr: ParamAttrLike = null, readonly data_format = 'NCHW') {
    super();
    if (!Number.isInteger(num_groups) || num_groups <= 0 || num_channels % num_groups)
      throw new RangeError(`GroupNorm: num_channels ${num_channels} must be divisible by num_groups ${num_groups}`);
    this.weight = this.create_parameter([num_channels], weight_attr, null, false, new Constant(1));
    this.bias = this.create_parameter([num_channels], bias_attr, null, true);
  }
  override forward(x: TensorLike): TensorLike {
    return (op('group_norm', [x, this.weight, this.bias, { groups: this.num_groups, epsilon: this.epsilon, data_format: this.data_format }]) as unknown as TensorLike[])[0];
  }
  override extra_repr(): string { return `num_groups=${this.num_groups}, num_channels=${this.num_channels}, epsilon=${this.epsilon}`; }
}

/** InstanceNorm{1,2,3}D(num_features, epsilon=1e-05, momentum=0.9, weight_attr=None, bias_attr=None, data_format): always the input's statistics (Paddle's dynamic mode). */
function instanceNormLayer(fmt: string) {
  return class extends Layer {
    // Paddle's InstanceNorm names its weight `scale` (state_dict keys follow).
    scale: Tensor | null;
    bias: Tensor | null;
    constructor(readonly num_features: number, readonly epsilon = 1e-5, readonly momentum = 0.9, weight_attr: ParamAttrLike = null, bias_attr: ParamAttrLike = null, readonly data_format = fmt) {
      super();
      this.scale = this.create_parameter([num_features], weight_attr, null, false, new Constant(1));
      this.bias = this.create_parameter([num_features], bias_attr, null, true);
    }
    override forward(x: TensorLike): TensorLike {
      return (op('instance_norm', [x, this.scale, this.bias, { epsilon: this.epsilon, data_format: this.data_format }]) as unknown as TensorLike[])[0];
    }
    override extra_repr(): string { return `num_features=${this.num_features}, epsilon=${this.epsilon}`; }
  };
}
export const InstanceNorm1D = instanceNormLayer('NCL');
export const InstanceNorm2D = instanceNormLayer('NCHW');
export const InstanceNorm3D = instanceNormLayer('NCDHW');

/** LocalResponseNorm(size, alpha=0.0001, beta=0.75, k=1.0, data_format='NCHW'). */
export class LocalResponseNorm extends Layer {
  constructor(readonly size: number, readonly alpha = 1e-4, readonly beta = 0.75, readonly k = 1.0, readonly data_format = 'NCHW') { super(); }
  override forward(x: TensorLike): TensorLike {
    return op('local_response_norm', [x, { size: this.size, alpha: this.alpha, beta: this.beta, k: this.k, data_format: this.data_format }]);
  }
  override extra_repr(): string { return `size=${this.size}, alpha=${this.alpha}, beta=${this.beta}, k=${this.k}`; }
}

/** AdaptiveAvgPool1D(output_size) / 2D(output_size, data_format='NCHW') / 3D(output_size, data_format='NCDHW'). */
function adaptiveAvgLayer(nd: number, fmt: string | null) {
  return class extends Layer {
    constructor(readonly output_size: IntOrList | (number | null)[], readonly data_format: string | null = fmt) { super(); }
    override forward(x: TensorLike): TensorLike {
      return op(`adaptive_avg_pool${nd}d`, [x, nd > 1 ? { output_size: this.output_size, data_format: this.data_format } : { output_size: this.output_size }]);
    }
    override extra_repr(): string { return `output_size=${JSON.stringify(this.output_size)}`; }
  };
}
export const AdaptiveAvgPool1D = adaptiveAvgLayer(1, null);
export const AdaptiveAvgPool2D = adaptiveAvgLayer(2, 'NCHW');
export const AdaptiveAvgPool3D = adaptiveAvgLayer(3, 'NCDHW');

/** AdaptiveMaxPool{1,2,3}D(output_size, return_mask=False). */
function adaptiveMaxLayer(nd: number) {
  return class extends Layer {
    constructor(readonly output_size: IntOrList | (number | null)[], readonly return_mask = false) { super(); }
    override forward(x: TensorLike): TensorLike {
      return op(`adaptive_max_pool${nd}d`, [x, { output_size: this.output_size, return_mask: this.return_mask }]);
    }
    override extra_repr(): string { return `output_size=${JSON.stringify(this.output_size)}, return_mask=${this.return_mask}`; }
  };
}
export const AdaptiveMaxPool1D = adaptiveMaxLayer(1);
export const AdaptiveMaxPool2D = adaptiveMaxLayer(2);
export const AdaptiveMaxPool3D = adaptiveMaxLayer(3);

/** Upsample(size=None, scale_factor=None, mode='nearest', align_corners=False, align_mode=0, data_format='NCHW'). */
export class Upsample extends Layer {
  constructor(readonly size: IntOrList | null = null, readonly scale_factor: number | number[] | null = null, readonly mode = 'nearest', readonly align_corners = false,
    readonly align_mode = 0, readonly data_format = 'NCHW') { super(); }
  override forward(x: TensorLike): TensorLike {
    return op('interpolate', [x, { size: this.size, scale_factor: this.scale_factor, mode: this.mode, align_corners: this.align_corners, align_mode: this.align_mode, data_format: this.data_format }]);
  }
  override extra_repr(): string {
    return `${this.size !== null ? `size=${JSON.stringify(this.size)}` : `scale_factor=${JSON.stringify(this.scale_factor)}`}, mode=${this.mode}, align_corners=${this.align_corners}, data_format=${this.data_format}`;
  }
}

/** PixelShuffle(upscale_factor, data_format='NCHW') and PixelUnshuffle(downscale_factor, data_format='NCHW'). */
export class PixelShuffle extends Layer {
  constructor(readonly upscale_factor: number, readonly data_format = 'NCHW') { super(); }
  override forward(x: TensorLike): TensorLike { return op('pixel_shuffle', [x, { upscale_factor: this.upscale_factor, data_format: this.data_format }]); }
  override extra_repr(): string { return `upscale_factor=${this.upscale_factor}`; }
}
export class PixelUnshuffle extends Layer {
  constructor(readonly downscale_factor: number, readonly data_format = 'NCHW') { super(); }
  override forward(x: TensorLike): TensorLike { return op('pixel_unshuffle', [x, { downscale_factor: this.downscale_factor, data_format: this.data_format }]); }
  override extra_repr(): string { return `downscale_factor=${this.downscale_factor}`; }
}
