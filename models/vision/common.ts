// Helpers shared by the TypeScript model zoo (twins of compat/paddle/vision/models): a Conv2D
// with keyword options and the factories' answer to pretrained=true.
import { paddle } from '../../src/paddle.js';
import { Conv2D } from '../../src/nn/index.js';
import type { Tensor } from '../../src/tensor/tensor.js';

export const nn = paddle.nn;
export const T = (v: unknown): Tensor => v as Tensor;

export interface ConvOpts { stride?: number; padding?: number; dilation?: number; groups?: number; bias?: boolean }

/** nn.Conv2D(in, out, k, stride, padding, dilation, groups, 'zeros', null, bias ? null : false). */
export function conv2d(inC: number, outC: number, k: number, o: ConvOpts = {}): Conv2D {
  return new Conv2D(inC, outC, k, o.stride ?? 1, o.padding ?? 0, o.dilation ?? 1, o.groups ?? 1, 'zeros', null, o.bias === false ? false : null);
}

/** Skiff ships no weights: pretrained models are built, then loaded with set_state_dict. */
export function noPretrained(arch: string, pretrained: boolean | undefined): void {
  if (pretrained) {
    throw new Error(`${arch}({ pretrained: true }): Skiff does not download weights; build the model with pretrained false and `
      + 'load a PaddlePaddle state dict with model.set_state_dict(...)');
  }
}
