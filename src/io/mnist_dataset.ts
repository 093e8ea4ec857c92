// paddle.vision.datasets.MNIST for TypeScript users: the split of mnist.ts as two tensors,
// indexed per sample or gathered per batch (one index_select per field).
import { runOp } from '../ops/dispatch.js';
import { to_tensor } from '../tensor/creation.js';
import type { Tensor } from '../tensor/tensor.js';
import { Dataset } from './dataset.js';
import { mnistSet } from './mnist.js';

export interface MnistOptions { mode?: 'train' | 'test'; transform?: ((image: Tensor) => Tensor) | null }

/**
 * Items are [image, label]: without a transform the image is [1, 28, 28] float32 in 0..1 (what
 * Paddle's MNIST gives with ToTensor), the label [1] int64. A transform receives the [28, 28] image.
 * @example const ds = new paddle.vision.datasets.MNIST({ mode: 'test' }); const [img, label] = ds.__getitem__(0);
 */
export class MNIST extends Dataset<[Tensor, Tensor]> {
  readonly mode: 'train' | 'test';
  readonly images: Tensor;
  readonly labels: Tensor;
  readonly transform: ((image: Tensor) => Tensor) | null;

  constructor(opts: MnistOptions = {}) {
    super();
    this.mode = opts.mode ?? 'train';
    this.transform = opts.transform ?? null;
    const s = mnistSet(this.mode);
    this.images = to_tensor(s.images).reshape([s.count, 28, 28]);
    this.labels = to_tensor(s.labels).reshape([s.count, 1]);
  }

  __len__(): number { return this.images.shape[0] as number; }

  __getitem__(idx: number): [Tensor, Tensor] {
    const n = this.__len__();
    const i = idx < 0 ? idx + n : idx;
    if (!(i >= 0 && i < n)) throw new RangeError(`MNIST: index ${idx} is out of range for ${n} images`);
    const pick = (t: Tensor, shape: number[]) => {
      const s = runOp('slice', [t], { axes: [0], starts: [i], ends: [i + 1] })[0] as Tensor;
      try { return s.reshape(shape); } finally { s.dispose(); }
    };
    const label = pick(this.labels, [1]);
    if (this.transform) return [this.transform(pick(this.images, [28, 28])), label];
    return [pick(this.images, [1, 28, 28]), label];
  }

  override _getitems(indices: readonly number[]): [Tensor, Tensor] | null {
    if (this.transform) return null;
    const ix = to_tensor(BigInt64Array.from(indices, (i) => BigInt(i)));
    try {
      const img = runOp('index_select', [this.images, ix], { axis: 0 })[0] as Tensor;
      return [img.reshape([indices.length, 1, 28, 28]), runOp('index_select', [this.labels, ix], { axis: 0 })[0] as Tensor];
    } finally { ix.dispose(); }
  }
}
