// ResNet (paddle.vision.models.resnet): the TypeScript twin of
// compat/paddle/vision/models/resnet.py, with the same parameter names (conv1, bn1,
// layer1.0.conv1, ..., fc), so state dicts move between the languages and from PaddlePaddle.
// Fields are declared in the order Paddle creates its sublayers: Layer walks fields in
// definition order to name parameters.
import { BatchNorm2D, Layer, Linear, MaxPool2D, ReLU, Sequential, AdaptiveAvgPool2D } from '../../src/nn/index.js';
import type { Conv2D } from '../../src/nn/index.js';
import { paddle } from '../../src/paddle.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { conv2d, noPretrained, T } from './common.js';

type Block = { new (inplanes: number, planes: number, stride?: number, downsample?: Layer | null, groups?: number, base_width?: number, dilation?: number): Layer; expansion: number };

/** Two 3x3 conv + batch-norm stages and a shortcut (downsample when the shape changes). */
export class BasicBlock extends Layer {
  static expansion = 1;
  conv1: Conv2D; bn1: BatchNorm2D; relu: Layer; conv2: Conv2D; bn2: BatchNorm2D; downsample: Layer | null;
  constructor(inplanes: number, planes: number, readonly stride = 1, downsample: Layer | null = null, _groups = 1, _base_width = 64, dilation = 1) {
    super();
    if (dilation > 1) throw new Error(`BasicBlock: dilation > 1 is not supported (got ${dilation})`);
    this.conv1 = conv2d(inplanes, planes, 3, { padding: 1, stride, bias: false });
    this.bn1 = new BatchNorm2D(planes);
    this.relu = new ReLU();
    this.conv2 = conv2d(planes, planes, 3, { padding: 1, bias: false });
    this.bn2 = new BatchNorm2D(planes);
    this.downsample = downsample;
  }
  override forward(x: Tensor): Tensor {
    let out = T(this.relu.call(this.bn1.call(this.conv1.call(x))));
    out = T(this.bn2.call(this.conv2.call(out)));
    const identity = this.downsample ? T(this.downsample.call(x)) : x;
    return T(this.relu.call(paddle.add(out, identity)));
  }
}

/** 1x1 reduce, 3x3 (grouped, possibly dilated), 1x1 expand by 4, and a shortcut. */
export class BottleneckBlock extends Layer {
  static expansion = 4;
  conv1: Conv2D; bn1: BatchNorm2D; conv2: Conv2D; bn2: BatchNorm2D; conv3: Conv2D; bn3: BatchNorm2D; relu: Layer; downsample: Layer | null;
  constructor(inplanes: number, planes: number, readonly stride = 1, downsample: Layer | null = null, groups = 1, base_width = 64, dilation = 1) {
    super();
    const width = Math.trunc(planes * (base_width / 64)) * groups;
    this.conv1 = conv2d(inplanes, width, 1, { bias: false });
    this.bn1 = new BatchNorm2D(width);
    this.conv2 = conv2d(width, width, 3, { padding: dilation, stride, groups, dilation, bias: false });
    this.bn2 = new BatchNorm2D(width);
    this.conv3 = conv2d(width, planes * 4, 1, { bias: false });
    this.bn3 = new BatchNorm2D(planes * 4);
    this.relu = new ReLU();
    this.downsample = downsample;
  }
  override forward(x: Tensor): Tensor {
    let out = T(this.relu.call(this.bn1.call(this.conv1.call(x))));
    out = T(this.relu.call(this.bn2.call(this.conv2.call(out))));
    out = T(this.bn3.call(this.conv3.call(out)));
    const identity = this.downsample ? T(this.downsample.call(x)) : x;
    return T(this.relu.call(paddle.add(out, identity)));
  }
}

const LAYERS: Record<number, number[]> = { 18: [2, 2, 2, 2], 34: [3, 4, 6, 3], 50: [3, 4, 6, 3], 101: [3, 4, 23, 3], 152: [3, 8, 36, 3] };

export interface ResNetOptions { width?: number; num_classes?: number; with_pool?: boolean; groups?: number }

/** new ResNet(block, depth = 50, { width = 64, num_classes = 1000, with_pool = true, groups = 1 }), as Paddle 2.6. */
export class ResNet extends Layer {
  readonly groups: number; readonly base_width: number; readonly num_classes: number; readonly with_pool: boolean;
  private inplanes = 64;
  private dilation = 1;
  conv1: Conv2D; bn1: BatchNorm2D; relu: Layer; maxpool: Layer;
  layer1: Sequential; layer2: Sequential; layer3: Sequential; layer4: Sequential;
  avgpool: Layer | null = null;
  fc: Linear | null = null;
  constructor(block: Block, depth = 50, opts: ResNetOptions = {}) {
    super();
    const layers = LAYERS[depth];
    if (!layers) throw new RangeError(`ResNet: depth must be one of 18, 34, 50, 101, 152, got ${depth}`);
    this.groups = opts.groups ?? 1;
    this.base_width = opts.width ?? 64;
    this.num_classes = opts.num_classes ?? 1000;
    this.with_pool = opts.with_pool ?? true;
    this.conv1 = conv2d(3, 64, 7, { stride: 2, padding: 3, bias: false });
    this.bn1 = new BatchNorm2D(64);
    this.relu = new ReLU();
    this.maxpool = new MaxPool2D(3, 2, 1);
    this.layer1 = this.makeLayer(block, 64, layers[0]);
    this.layer2 = this.makeLayer(block, 128, layers[1], 2);
    this.layer3 = this.makeLayer(block, 256, layers[2], 2);
    this.layer4 = this.makeLayer(block, 512, layers[3], 2);
    if (this.with_pool) this.avgpool = new AdaptiveAvgPool2D([1, 1]);
    if (this.num_classes > 0) this.fc = new Linear(512 * block.expansion, this.num_classes);
  }

  private makeLayer(block: Block, planes: number, blocks: number, stride = 1): Sequential {
    let downsample: Layer | null = null;
    if (stride !== 1 || this.inplanes !== planes * block.expansion) {
      downsample = new Sequential(conv2d(this.inplanes, planes * block.expansion, 1, { stride, bias: false }), new BatchNorm2D(planes * block.expansion));
    }
    const layers: Layer[] = [new block(this.inplanes, planes, stride, downsample, this.groups, this.base_width, this.dilation)];
    this.inplanes = planes * block.expansion;
    for (let i = 1; i < blocks; i++) layers.push(new block(this.inplanes, planes, 1, null, this.groups, this.base_width));
    return new Sequential(...layers);
  }

  override forward(x: Tensor): Tensor {
    let h = T(this.maxpool.call(this.relu.call(this.bn1.call(this.conv1.call(x)))));
    for (const l of [this.layer1, this.layer2, this.layer3, this.layer4]) h = T(l.call(h));
    if (this.avgpool) h = T(this.avgpool.call(h));
    if (this.fc) h = T(this.fc.call(paddle.flatten(h, 1)));
    return h;
  }
}

export interface FactoryOptions extends ResNetOptions { pretrained?: boolean }
function make(arch: string, block: Block, depth: number, o: FactoryOptions): ResNet {
  noPretrained(arch, o.pretrained);
  return new ResNet(block, depth, o);
}
export const resnet18 = (o: FactoryOptions = {}): ResNet => make('resnet18', BasicBlock, 18, o);
export const resnet34 = (o: FactoryOptions = {}): ResNet => make('resnet34', BasicBlock, 34, o);
export const resnet50 = (o: FactoryOptions = {}): ResNet => make('resnet50', BottleneckBlock, 50, o);
export const resnet101 = (o: FactoryOptions = {}): ResNet => make('resnet101', BottleneckBlock, 101, o);
export const resnet152 = (o: FactoryOptions = {}): ResNet => make('resnet152', BottleneckBlock, 152, o);
export const wide_resnet50_2 = (o: FactoryOptions = {}): ResNet => make('wide_resnet50_2', BottleneckBlock, 50, { ...o, width: 128 });
export const wide_resnet101_2 = (o: FactoryOptions = {}): ResNet => make('wide_resnet101_2', BottleneckBlock, 101, { ...o, width: 128 });
