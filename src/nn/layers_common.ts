// Linear, Embedding, Dropout, Flatten, Identity: thin wrappers over registry ops, with Paddle's
// parameter shapes, names and default initializers.
import { callOp } from '../ops/api.js';
import { getOp } from '../ops/registry.js';
import type { TensorLike } from '../ops/dispatch.js';
import { scope, type Tensor } from '../tensor/tensor.js';
import { set_item } from '../ops/setitem.js';
import { no_grad } from '../autograd/index.js';
import { linear } from './functional_extra.js';
import { Layer, type ParamAttrLike } from './layer.js';
import type { DType } from '../tensor/dtype.js';

const op = (name: string, args: unknown[]): TensorLike => callOp(getOp(name), args) as TensorLike;

/** y = x @ weight + bias; weight [in_features, out_features] (Xavier-uniform), bias zeros. */
export class Linear extends Layer {
  weight: Tensor;
  bias: Tensor | null;
  constructor(readonly in_features: number, readonly out_features: number, weight_attr: ParamAttrLike = null, bias_attr: ParamAttrLike = null, name: string | null = null) {
    super(name);
    this.weight = this.create_parameter([in_features, out_features], weight_attr, null, false)!;
    this.bias = this.create_parameter([out_features], bias_attr, null, true);
  }
  override forward(x: TensorLike): TensorLike { return linear(x, this.weight, this.bias); }
  override extra_repr(): string { return `in_features=${this.in_features}, out_features=${this.out_features}, dtype=${this._dtype}`; }
}

/** Lookup table [num_embeddings, embedding_dim], Xavier-uniform; the padding_idx row is zero. */
export class Embedding extends Layer {
  weight: Tensor;
  readonly padding_idx: number | null;
  constructor(readonly num_embeddings: number, readonly embedding_dim: number, padding_idx: number | null = null, readonly sparse = false, weight_attr: ParamAttrLike = null) {
    super();
    if (padding_idx !== null) {
      const p = padding_idx < 0 ? padding_idx + num_embeddings : padding_idx;
      if (p < 0 || p >= num_embeddings) throw new RangeError(`Embedding: padding_idx must be within [-${num_embeddings}, ${num_embeddings}), got ${padding_idx}`);
      padding_idx = p;
    }
    this.padding_idx = padding_idx;
    this.weight = this.create_parameter([num_embeddings, embedding_dim], weight_attr)!;
    if (padding_idx !== null) no_grad(() => scope(() => { set_item(this.weight, padding_idx, 0); }));
  }
  override forward(x: TensorLike): TensorLike { return op('embedding', [x, this.weight, { padding_idx: this.padding_idx, sparse: this.sparse }]); }
  override extra_repr(): string { return `${this.num_embeddings}, ${this.embedding_dim}${this.padding_idx !== null ? `, padding_idx=${this.padding_idx}` : ''}`; }
}

export class Dropout extends Layer {
  constructor(readonly p = 0.5, readonly axis: number | number[] | null = null, readonly mode = 'upscale_in_train') { super(); }
  override forward(x: TensorLike): TensorLike { return op('dropout', [x, { p: this.p, axis: this.axis, training: this.training, mode: this.mode }]); }
  override extra_repr(): string { return `p=${this.p}, axis=${this.axis}, mode=${this.mode}`; }
}

export class Flatten extends Layer {
  constructor(readonly start_axis = 1, readonly stop_axis = -1) { super(); }
  override forward(x: TensorLike): TensorLike { return op('flatten', [x, { start_axis: this.start_axis, stop_axis: this.stop_axis }]); }
}

export class Identity extends Layer {
  override forward(x: TensorLike): TensorLike { return x; }
}

export type { DType };
