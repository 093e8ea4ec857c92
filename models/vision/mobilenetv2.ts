// MobileNetV2 (paddle.vision.models.mobilenetv2): the TypeScript twin of
// compat/paddle/vision/models/mobilenetv2.py, same parameter names (features.0.0.weight,
// features.1.conv.0.0.weight, ..., classifier.1.weight).
import { AdaptiveAvgPool2D, BatchNorm2D, Dropout, Layer, Linear, ReLU, ReLU6, Sequential } from '../../src/nn/index.js';
import { paddle } from '../../src/paddle.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { conv2d, noPretrained, T } from './common.js';

/** Rounds a scaled channel count to a multiple of divisor, never more than 10% below v. */
export function makeDivisible(v: number, divisor = 8, min_value: number | null = null): number {
  const m = min_value ?? divisor;
  let n = Math.max(m, Math.floor(Math.trunc(v + divisor / 2) / divisor) * divisor);
  if (n < 0.9 * v) n += divisor;
  return n;
}

export interface ConvNormActOpts { kernel_size?: number; stride?: number; padding?: number | null; groups?: number; norm?: boolean; activation?: 'relu' | 'relu6' | null; dilation?: number; bias?: boolean | null }

/** paddle.vision.ops.ConvNormActivation: Conv2D, BatchNorm2D, activation as a Sequential (children 0, 1, 2). */
export class ConvNormActivation extends Sequential {
  constructor(inC: number, outC: number, o: ConvNormActOpts = {}) {
    const k = o.kernel_size ?? 3, dilation = o.dilation ?? 1, norm = o.norm ?? true;
    const padding = o.padding ?? Math.floor((k - 1) / 2) * dilation;
    const bias = o.bias ?? !norm;
    const layers: Layer[] = [conv2d(inC, outC, k, { stride: o.stride ?? 1, padding, dilation, groups: o.groups ?? 1, bias })];
    if (norm) layers.push(new BatchNorm2D(outC));
    const act = o.activation === undefined ? 'relu' : o.activation;
    if (act) layers.push(act === 'relu6' ? new ReLU6() : new ReLU());
    super(...layers);
  }
}

/** 1x1 expand (when expand_ratio != 1), 3x3 depthwise, 1x1 linear project; a residual when the shape is kept. */
export class InvertedResidual extends Layer {
  readonly use_res_connect: boolean;
  conv: Sequential;
  constructor(inp: number, oup: number, readonly stride: number, expand_ratio: number) {
    super();
    if (stride !== 1 && stride !== 2) throw new RangeError(`InvertedResidual: stride must be 1 or 2, got ${stride}`);
    const hidden = Math.round(inp * expand_ratio);
    this.use_res_connect = stride === 1 && inp === oup;
    const layers: Layer[] = [];
    if (expand_ratio !== 1) layers.push(new ConvNormActivation(inp, hidden, { kernel_size: 1, activation: 'relu6' }));
    layers.push(new ConvNormActivation(hidden, hidden, { stride, groups: hidden, activation: 'relu6' }), conv2d(hidden, oup, 1, { bias: false }), new BatchNorm2D(oup));
    this.conv = new Sequential(...layers);
  }
  override forward(x: Tensor): Tensor {
    const y = T(this.conv.call(x));
    return this.use_res_connect ? T(paddle.add(x, y)) : y;
  }
}

// (expand ratio t, output channels c, repeats n, first stride s), from the paper's table 2.
const SETTING = [[1, 16, 1, 1], [6, 24, 2, 2], [6, 32, 3, 2], [6, 64, 4, 2], [6, 96, 3, 1], [6, 160, 3, 2], [6, 320, 1, 1]];

export interface MobileNetV2Options { scale?: number; num_classes?: number; with_pool?: boolean }

/** new MobileNetV2({ scale = 1, num_classes = 1000, with_pool = true }), as Paddle 2.6. */
export class MobileNetV2 extends Layer {
  readonly num_classes: number; readonly with_pool: boolean; readonly last_channel: number;
  features: Sequential;
  pool2d_avg: Layer | null = null;
  classifier: Sequential | null = null;
  constructor(o: MobileNetV2Options = {}) {
    super();
    const scale = o.scale ?? 1;
    if (!(scale > 0)) throw new RangeError(`MobileNetV2: scale must be positive, got ${scale}`);
    this.num_classes = o.num_classes ?? 1000;
    this.with_pool = o.with_pool ?? true;
    let input = makeDivisible(32 * scale);
    this.last_channel = makeDivisible(1280 * Math.max(1, scale));
    const features: Layer[] = [new ConvNormActivation(3, input, { stride: 2, activation: 'relu6' })];
    for (const [t, c, n, s] of SETTING) {
      const output = makeDivisible(c * scale);
      for (let i = 0; i < n; i++) {
        features.push(new InvertedResidual(input, output, i === 0 ? s : 1, t));
        input = output;
      }
    }
    features.push(new ConvNormActivation(input, this.last_channel, { kernel_size: 1, activation: 'relu6' }));
    this.features = new Sequential(...features);
    if (this.with_pool) this.pool2d_avg = new AdaptiveAvgPool2D(1);
    if (this.num_classes > 0) this.classifier = new Sequential(new Dropout(0.2), new Linear(this.last_channel, this.num_classes));
  }
  override forward(x: Tensor): Tensor {
    let h = T(this.features.call(x));
    if (this.pool2d_avg) h = T(this.pool2d_avg.call(h));
    if (this.classifier) h = T(this.classifier.call(paddle.flatten(h, 1)));
    return h;
  }
}

export function mobilenet_v2(o: MobileNetV2Options & { pretrained?: boolean } = {}): MobileNetV2 {
  noPretrained('mobilenet_v2', o.pretrained);
  return new MobileNetV2(o);
}
