// nn.Unfold / nn.Fold (Paddle 2.6 constructor signatures): thin layers over the unfold / fold
// registry ops (src/ops/defs/nn_im2col.ts), which carry the gradients.
import { callOp } from '../ops/api.js';
import { getOp } from '../ops/registry.js';
import type { TensorLike } from '../ops/dispatch.js';
import { Layer } from './layer.js';

type IntOrList = number | number[];

/** Unfold(kernel_sizes, dilations=1, paddings=0, strides=1): im2col, [N, C, H, W] -> [N, C*kh*kw, L]. */
export class Unfold extends Layer {
  constructor(readonly kernel_sizes: IntOrList, readonly dilations: IntOrList = 1, readonly paddings: IntOrList = 0, readonly strides: IntOrList = 1) { super(); }
  override forward(x: TensorLike): TensorLike {
    return callOp(getOp('unfold'), [x, this.kernel_sizes, this.strides, this.paddings, this.dilations]) as TensorLike;
  }
  override extra_repr(): string {
    return `kernel_size=${JSON.stringify(this.kernel_sizes)}, dilation=${JSON.stringify(this.dilations)}, padding=${JSON.stringify(this.paddings)}, stride=${JSON.stringify(this.strides)}`;
  }
}

/** Fold(output_sizes, kernel_sizes, dilations=1, paddings=0, strides=1): col2im, [N, C*kh*kw, L] -> [N, C, H, W]. */
export class Fold extends Layer {
  constructor(readonly output_sizes: IntOrList, readonly kernel_sizes: IntOrList, readonly dilations: IntOrList = 1, readonly paddings: IntOrList = 0,
    readonly strides: IntOrList = 1) { super(); }
  override forward(x: TensorLike): TensorLike {
    return callOp(getOp('fold'), [x, this.output_sizes, this.kernel_sizes, this.strides, this.paddings, this.dilations]) as TensorLike;
  }
  override extra_repr(): string {
    return `output_sizes=${JSON.stringify(this.output_sizes)}, kernel_size=${JSON.stringify(this.kernel_sizes)}, dilation=${JSON.stringify(this.dilations)}, padding=${JSON.stringify(this.paddings)}, stride=${JSON.stringify(this.strides)}`;
  }
}
