// nn.FractionalMaxPool2D / 3D (Paddle 2.6 constructor signatures) over F.fractional_max_pool2d /
// 3d (src/ops/defs/nn_pool_frac.ts), which draw random_u per call when it is None.
import type { TensorLike } from '../ops/dispatch.js';
import { fracPoolPublic } from '../ops/defs/nn_pool_frac.js';
import { Layer } from './layer.js';

type Size = number | (number | null)[];

class FractionalMaxPool extends Layer {
  constructor(private readonly fn: string, readonly output_size: Size, readonly kernel_size: number | number[] | null = null,
    readonly random_u: number | null = null, readonly return_mask = false) { super(); }
  override forward(x: TensorLike): TensorLike | TensorLike[] {
    return fracPoolPublic[this.fn](x, this.output_size, this.kernel_size, this.random_u, this.return_mask) as TensorLike | TensorLike[];
  }
  override extra_repr(): string {
    return `output_size=${JSON.stringify(this.output_size)}, kernel_size=${JSON.stringify(this.kernel_size)}, random_u=${this.random_u}, return_mask=${this.return_mask}`;
  }
}

/** FractionalMaxPool2D(output_size, kernel_size=None, random_u=None, return_mask=False). */
export class FractionalMaxPool2D extends FractionalMaxPool {
  constructor(output_size: Size, kernel_size: number | number[] | null = null, random_u: number | null = null, return_mask = false) {
    super('nn.functional.fractional_max_pool2d', output_size, kernel_size, random_u, return_mask);
  }
}

/** FractionalMaxPool3D(output_size, kernel_size=None, random_u=None, return_mask=False). */
export class FractionalMaxPool3D extends FractionalMaxPool {
  constructor(output_size: Size, kernel_size: number | number[] | null = null, random_u: number | null = null, return_mask = false) {
    super('nn.functional.fractional_max_pool3d', output_size, kernel_size, random_u, return_mask);
  }
}
