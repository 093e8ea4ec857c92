// Shared by the zoo tests: parameter counts and the one-step training check.
import { expect } from 'vitest';
import { paddle } from '../../src/paddle.js';
import { Dropout, LSTM, MultiHeadAttention, type Layer } from '../../src/nn/index.js';
import { scope, type Tensor } from '../../src/tensor/tensor.js';

/** A model both languages build by `name` (Python: test/models/zoo_parity.py), and its inputs. */
export interface ParityCase { name: string; build: () => Layer; inputs: () => Tensor[]; tol?: number }

export const T = (v: unknown): Tensor => v as Tensor;
export const count = (m: Layer): number => m.parameters().reduce((a, p) => a + p.size, 0);

/**
 * One SGD step on a fixed batch: every parameter gets a gradient and the loss goes down. Batch
 * norm trains on batch statistics; dropout is switched off so both losses see one network. The
 * learning rate makes the step `step` long in parameter space: deep post-norm nets at init on a
 * tiny batch have gradient norms in the thousands, and a fixed rate would test the curvature
 * rather than the gradients. Dropout is off (dropoutOff). `lossOf` maps the model's output to a scalar loss.
 */
export function trainStep(model: Layer, inputs: unknown[], lossOf: (out: any) => Tensor, step = 1e-3): { before: number; after: number } {
  model.train();
  dropoutOff(model);
  const before = scope(() => {
    const loss = lossOf(model.call(...inputs));
    loss.backward();
    return loss.item() as number;
  });
  const missing = model.named_parameters().filter(([, p]) => !p.grad).map(([n]) => n);
  expect(missing).toEqual([]);
  const norm = Math.sqrt(scope(() => model.parameters().reduce((a, p) => a + (T(paddle.sum(paddle.multiply(p.grad!, p.grad!))).item() as number), 0)));
  expect(norm).toBeGreaterThan(0);
  const opt = new paddle.optimizer.SGD({ learning_rate: step / norm, parameters: model.parameters() });
  opt.step();
  opt.clear_grad();
  const after = scope(() => lossOf(model.call(...inputs)).item() as number);
  expect(after).toBeLessThan(before);
  return { before, after };
}

/** Switches off every dropout: Dropout layers, and the ones inside MultiHeadAttention and between LSTM layers. */
export function dropoutOff(model: Layer): void {
  for (const l of model.sublayers()) if (l instanceof Dropout || l instanceof MultiHeadAttention || l instanceof LSTM) l.eval();
}

/** Cross-entropy against labels 0, 1, 2, ... (mod classes) for a [N, classes] output. */
export const ceLoss = (classes: number) => (out: Tensor): Tensor =>
  T(paddle.nn.functional.cross_entropy(out, paddle.remainder(paddle.arange(out.shape[0]), classes)));
