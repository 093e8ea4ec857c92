// VGG (paddle.vision.models.vgg): the TypeScript twin of compat/paddle/vision/models/vgg.py,
// same parameter names (features.0.weight, ..., classifier.6.bias). vgg11() at full size has
// 133M parameters; tests build new VGG(makeLayers(small cfg), { num_classes: 0 }).
import { AdaptiveAvgPool2D, BatchNorm2D, Dropout, Layer, Linear, MaxPool2D, ReLU, Sequential } from '../../src/nn/index.js';
import { paddle } from '../../src/paddle.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { conv2d, noPretrained, T } from './common.js';

export interface VGGOptions { num_classes?: number; with_pool?: boolean }

/** new VGG(features, { num_classes = 1000, with_pool = true }): features, 7x7 adaptive pool, 3-layer classifier. */
export class VGG extends Layer {
  features: Sequential;
  readonly num_classes: number; readonly with_pool: boolean;
  avgpool: Layer | null = null;
  classifier: Sequential | null = null;
  constructor(features: Sequential, o: VGGOptions = {}) {
    super();
    this.features = features;
    this.num_classes = o.num_classes ?? 1000;
    this.with_pool = o.with_pool ?? true;
    if (this.with_pool) this.avgpool = new AdaptiveAvgPool2D([7, 7]);
    if (this.num_classes > 0) {
      this.classifier = new Sequential(new Linear(512 * 7 * 7, 4096), new ReLU(), new Dropout(),
        new Linear(4096, 4096), new ReLU(), new Dropout(), new Linear(4096, this.num_classes));
    }
  }
  override forward(x: Tensor): Tensor {
    let h = T(this.features.call(x));
    if (this.avgpool) h = T(this.avgpool.call(h));
    if (this.classifier) h = T(this.classifier.call(paddle.flatten(h, 1)));
    return h;
  }
}

export type VGGConfig = (number | 'M')[];

/** cfg: output channels of 3x3 convs (padding 1) and 'M' for 2x2 max pools; the input has 3 channels. */
export function makeLayers(cfg: VGGConfig, batch_norm = false): Sequential {
  const layers: Layer[] = [];
  let inC = 3;
  for (const v of cfg) {
    if (v === 'M') { layers.push(new MaxPool2D(2, 2)); continue; }
    if (!Number.isInteger(v) || v <= 0) throw new RangeError(`makeLayers: cfg entries must be positive ints or 'M', got ${JSON.stringify(v)}`);
    layers.push(conv2d(inC, v, 3, { padding: 1 }));
    if (batch_norm) layers.push(new BatchNorm2D(v));
    layers.push(new ReLU());
    inC = v;
  }
  return new Sequential(...layers);
}

export const cfgs: Record<'A' | 'B' | 'D' | 'E', VGGConfig> = {
  A: [64, 'M', 128, 'M', 256, 256, 'M', 512, 512, 'M', 512, 512, 'M'],
  B: [64, 64, 'M', 128, 128, 'M', 256, 256, 'M', 512, 512, 'M', 512, 512, 'M'],
  D: [64, 64, 'M', 128, 128, 'M', 256, 256, 256, 'M', 512, 512, 512, 'M', 512, 512, 512, 'M'],
  E: [64, 64, 'M', 128, 128, 'M', 256, 256, 256, 256, 'M', 512, 512, 512, 512, 'M', 512, 512, 512, 512, 'M'],
};

export interface VGGFactoryOptions extends VGGOptions { pretrained?: boolean; batch_norm?: boolean }
function make(arch: string, cfg: keyof typeof cfgs, o: VGGFactoryOptions): VGG {
  noPretrained(arch + (o.batch_norm ? '_bn' : ''), o.pretrained);
  return new VGG(makeLayers(cfgs[cfg], o.batch_norm ?? false), o);
}
export const vgg11 = (o: VGGFactoryOptions = {}): VGG => make('vgg11', 'A', o);
export const vgg13 = (o: VGGFactoryOptions = {}): VGG => make('vgg13', 'B', o);
export const vgg16 = (o: VGGFactoryOptions = {}): VGG => make('vgg16', 'D', o);
export const vgg19 = (o: VGGFactoryOptions = {}): VGG => make('vgg19', 'E', o);
