// LayerNorm and BatchNorm1D/2D. Batch norm in training mode normalises with the batch's
// statistics and writes the updated running statistics into the `_mean` / `_variance` buffers
// in place, as Paddle's layer does (F.batch_norm does the writing: batch_norm_api).
import type { TensorLike } from '../ops/dispatch.js';
import { batch_norm_api, normPublic } from '../ops/defs/nn_norm.js';
import type { Tensor } from '../tensor/tensor.js';
import { Constant } from './initializer.js';
import { Layer, type ParamAttrLike } from './layer.js';

export class LayerNorm extends Layer {
  weight: Tensor | null;
  bias: Tensor | null;
  readonly normalized_shape: number[];
  constructor(normalized_shape: number | number[], readonly epsilon = 1e-5, weight_attr: ParamAttrLike = null, bias_attr: ParamAttrLike = null) {
    super();
    this.normalized_shape = typeof normalized_shape === 'number' ? [normalized_shape] : [...normalized_shape];
    this.weight = this.create_parameter(this.normalized_shape, weight_attr, null, false, new Constant(1));
    this.bias = this.create_parameter(this.normalized_shape, bias_attr, null, true);
  }
  override forward(x: TensorLike): TensorLike {
    return normPublic['nn.functional.layer_norm'](x, this.normalized_shape, this.weight, this.bias, this.epsilon) as TensorLike;
  }
  override extra_repr(): string { return `normalized_shape=[${this.normalized_shape.join(', ')}], epsilon=${this.epsilon}`; }
}

class BatchNormBase extends Layer {
  weight: Tensor | null;
  bias: Tensor | null;
  declare _mean: Tensor;
  declare _variance: Tensor;
  constructor(readonly num_features: number, readonly momentum = 0.9, readonly epsilon = 1e-5, weight_attr: ParamAttrLike = null, bias_attr: ParamAttrLike = null,
    readonly data_format = 'NCHW', readonly use_global_stats: boolean | null = null) {
    super();
    this.weight = this.create_parameter([num_features], weight_attr, null, false, new Constant(1));
    this.bias = this.create_parameter([num_features], bias_attr, null, true);
    this.register_buffer('_mean', new Constant(0).make([num_features], this._dtype));
    this.register_buffer('_variance', new Constant(1).make([num_features], this._dtype));
  }

  override forward(x: TensorLike): TensorLike {
    return batch_norm_api(x, this._mean, this._variance, this.weight, this.bias,
      { training: this.training, momentum: this.momentum, epsilon: this.epsilon, data_format: this.data_format, use_global_stats: this.use_global_stats }) as TensorLike;
  }
  override extra_repr(): string { return `num_features=${this.num_features}, momentum=${this.momentum}, epsilon=${this.epsilon}, data_format=${this.data_format}`; }
}

export class BatchNorm1D extends BatchNormBase {
  constructor(num_features: number, momentum = 0.9, epsilon = 1e-5, weight_attr: ParamAttrLike = null, bias_attr: ParamAttrLike = null, data_format = 'NCL', use_global_stats: boolean | null = null) {
    super(num_features, momentum, epsilon, weight_attr, bias_attr, data_format, use_global_stats);
  }
}
export class BatchNorm2D extends BatchNormBase {}
export { BatchNormBase as BatchNorm };
