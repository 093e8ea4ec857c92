// paddle.io (and paddle.vision.datasets.MNIST) for TypeScript users; src/paddle.ts mounts it.
export { Dataset, IterableDataset, TensorDataset, Subset, ComposeDataset, ChainDataset, ConcatDataset, random_split } from './dataset.js';
export { Sampler, SequenceSampler, RandomSampler, SubsetRandomSampler, WeightedRandomSampler, BatchSampler, DistributedBatchSampler } from './sampler.js';
export { DataLoader, default_collate_fn } from './dataloader.js';
import { MNIST } from './mnist_dataset.js';
import { transforms } from './transforms.js';

/** Nests paddle.io.*, paddle.vision.datasets.MNIST and paddle.vision.transforms into the namespace. */
export function mountIo(paddle: Record<string, any>, io: Record<string, unknown>): void {
  paddle.io = { ...(paddle.io ?? {}), ...io };
  delete paddle.io.mountIo;
  paddle.vision = paddle.vision ?? {};
  paddle.vision.datasets = { ...(paddle.vision.datasets ?? {}), MNIST };
  paddle.vision.transforms = { ...(paddle.vision.transforms ?? {}), ...transforms };
}
