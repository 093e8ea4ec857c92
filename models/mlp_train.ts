// The main job (README): trains a small MLP classifier on a synthetic two-spirals data set with
// Skiff's eager ops and hand-written gradients, then reports accuracy. SKIFF_QUICK=1 runs a
// shortened version (CI). Autograd replaces the hand-written backward in a later issue.
import cliProgress from 'cli-progress';
import { paddle } from '../src/paddle.js';
import { scope, type Tensor } from '../src/tensor/tensor.js';

const quick = process.env.SKIFF_QUICK === '1';
const STEPS = quick ? 60 : 600;
const N = 512, HIDDEN = 64, CLASSES = 2, LR = 0.5;

/** Two interleaved spirals, labels 0/1, deterministic. */
function spirals(n: number): { x: Float32Array; y: BigInt64Array } {
  const x = new Float32Array(n * 2), y = new BigInt64Array(n);
  for (let i = 0; i < n; i++) {
    const c = i % 2, t = (i >> 1) / (n / 2) * 3 * Math.PI;
    const r = t / (3 * Math.PI) + 0.1;
    const a = t + c * Math.PI;
    x[2 * i] = r * Math.cos(a) + 0.02 * Math.sin(17 * i);
    x[2 * i + 1] = r * Math.sin(a) + 0.02 * Math.cos(13 * i);
    y[i] = BigInt(c);
  }
  return { x, y };
}

function main(): void {
  paddle.seed(7);
  const data = spirals(N);
  const x: Tensor = paddle.reshape(paddle.to_tensor(data.x), [N, 2]);
  const y: Tensor = paddle.to_tensor(data.y);
  const onehot: Tensor = paddle.cast(paddle.nn.functional.one_hot(y, CLASSES), 'float32');
  const init = (shape: number[], fan: number) => paddle.scale(paddle.randn(shape), { scale: Math.sqrt(2 / fan) });
  let W1 = init([2, HIDDEN], 2), b1: Tensor = paddle.zeros([HIDDEN]);
  let W2 = init([HIDDEN, HIDDEN], HIDDEN), b2: Tensor = paddle.zeros([HIDDEN]);
  let W3 = init([HIDDEN, CLASSES], HIDDEN), b3: Tensor = paddle.zeros([CLASSES]);

  const bar = new cliProgress.SingleBar({ format: 'training |{bar}| {value}/{total} steps | loss {loss}', hideCursor: true, noTTYOutput: true, notTTYSchedule: 2000 }, cliProgress.Presets.shades_classic);
  bar.start(STEPS, 0, { loss: '-' });
  let loss = NaN;
  const t0 = performance.now();
  for (let step = 1; step <= STEPS; step++) {
    const next = scope(() => {
      // forward
      const z1 = paddle.add(paddle.matmul(x, W1), b1), h1 = paddle.nn.functional.relu(z1);
      const z2 = paddle.add(paddle.matmul(h1, W2), b2), h2 = paddle.nn.functional.relu(z2);
      const logits = paddle.add(paddle.matmul(h2, W3), b3);
      const l = paddle.nn.functional.cross_entropy(logits, y);
      // backward (softmax cross-entropy, mean over the batch)
      const g3 = paddle.scale(paddle.subtract(paddle.nn.functional.softmax(logits), onehot), { scale: 1 / N });
      const dW3 = paddle.matmul(h2, g3, { transpose_x: true }), db3 = paddle.sum(g3, 0);
      const g2 = paddle.multiply(paddle.matmul(g3, W3, { transpose_y: true }), paddle.cast(paddle.greater_than(z2, 0), 'float32'));
      const dW2 = paddle.matmul(h1, g2, { transpose_x: true }), db2 = paddle.sum(g2, 0);
      const g1 = paddle.multiply(paddle.matmul(g2, W2, { transpose_y: true }), paddle.cast(paddle.greater_than(z1, 0), 'float32'));
      const dW1 = paddle.matmul(x, g1, { transpose_x: true }), db1 = paddle.sum(g1, 0);
      const sgd = (p: Tensor, g: Tensor) => paddle.subtract(p, paddle.scale(g, { scale: LR }));
      return { W1: sgd(W1, dW1), b1: sgd(b1, db1), W2: sgd(W2, dW2), b2: sgd(b2, db2), W3: sgd(W3, dW3), b3: sgd(b3, db3), loss: l.item() as number };
    });
    for (const t of [W1, b1, W2, b2, W3, b3]) t.dispose();
    ({ W1, b1, W2, b2, W3, b3, loss } = next);
    if (step % 10 === 0 || step === STEPS) bar.update(step, { loss: loss.toFixed(4) });
  }
  bar.stop();
  const ms = performance.now() - t0;
  const acc = scope(() => {
    const h1 = paddle.nn.functional.relu(paddle.add(paddle.matmul(x, W1), b1));
    const h2 = paddle.nn.functional.relu(paddle.add(paddle.matmul(h1, W2), b2));
    const pred = paddle.argmax(paddle.add(paddle.matmul(h2, W3), b3), 1);
    return paddle.mean(paddle.cast(paddle.equal(pred, y), 'float32')).item() as number;
  });
  console.log(`steps ${STEPS}, final loss ${loss.toFixed(4)}, train accuracy ${(acc * 100).toFixed(1)}%, ${(ms / STEPS).toFixed(2)} ms/step`);
  console.log(`live tensors ${paddle.memory().liveTensors}`);
  if (!Number.isFinite(loss)) throw new Error('training diverged');
  if (!quick && acc < 0.9) throw new Error(`accuracy ${acc} is below 0.9: training is broken`);
}

main();
