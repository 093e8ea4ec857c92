// The TypeScript vision zoo (models/vision): Paddle's parameter names and counts, forward shapes
// and one SGD step that gives every parameter a gradient and lowers the loss. Reduced inputs
// (32x32, 64x64 for ResNet-50) and widths keep it fast; full-size factories are checked by
// parameter count (VGG-11's 133M parameters through its config, not built).
import { describe, expect, it } from 'vitest';
import { paddle } from '../../src/paddle.js';
import { Dropout, Linear, ReLU, Sequential } from '../../src/nn/index.js';
import { MobileNetV2, VGG, VisionTransformer, cfgs, makeLayers, mobilenet_v2, resnet18, resnet34, resnet50, vgg11, vit_tiny } from '../../models/vision/index.js';
import { ceLoss, count, T, trainStep } from './zoo_helpers.js';

describe('vision zoo (TypeScript)', () => {
  it('ResNet: Paddle names and parameter counts', () => {
    const m = resnet18();
    const keys = Object.keys(m.state_dict());
    expect(keys.slice(0, 3)).toEqual(['conv1.weight', 'bn1.weight', 'bn1.bias']);
    expect(keys).toContain('layer2.0.downsample.0.weight');
    expect(keys).toContain('layer2.0.downsample.1._variance');
    expect(keys).toContain('bn1._mean');
    expect(keys.length).toBe(102);
    expect(count(m)).toBe(11689512);
    expect(count(resnet34())).toBe(21797672);
    const m50 = resnet50();
    expect(count(m50)).toBe(25557032);
    expect(m50.state_dict()['layer1.0.conv3.weight'].shape).toEqual([256, 64, 1, 1]);
    expect(resnet18({ num_classes: 0 }).fc).toBeNull();
  });

  it('ResNet-18: forward shape and a training step', () => {
    paddle.seed(1);
    const m = resnet18({ num_classes: 10 });
    const x = T(paddle.randn([4, 3, 32, 32]));
    expect(T(m.call(x)).shape).toEqual([4, 10]);
    expect(T(resnet18({ num_classes: 0, with_pool: false }).call(x)).shape).toEqual([4, 512, 1, 1]);
    trainStep(m, [x], ceLoss(10));
  });

  it('ResNet-50 (bottleneck): forward shape and a training step', () => {
    paddle.seed(2);
    const m = resnet50({ num_classes: 5 });
    const x = T(paddle.randn([4, 3, 64, 64]));   // 2x2 maps in layer4: batch norm over 16 values, not 4
    expect(T(m.call(x)).shape).toEqual([4, 5]);
    trainStep(m, [x], ceLoss(5));
  });

  it('pretrained weights are refused with a pointer to set_state_dict', () => {
    expect(() => resnet18({ pretrained: true })).toThrow(/resnet18.*set_state_dict/);
    expect(() => mobilenet_v2({ pretrained: true })).toThrow(/mobilenet_v2/);
    expect(() => vgg11({ pretrained: true, batch_norm: true })).toThrow(/vgg11_bn/);
  });

  it('MobileNetV2: names, count, forward and a training step', () => {
    expect(count(new MobileNetV2())).toBe(3504872);
    paddle.seed(3);
    const m = mobilenet_v2({ scale: 0.35, num_classes: 7 });
    const keys = Object.keys(m.state_dict());
    expect(keys.slice(0, 2)).toEqual(['features.0.0.weight', 'features.0.1.weight']);
    expect(keys).toContain('features.1.conv.1.weight');
    expect(keys).toContain('features.2.conv.0.0.weight');
    expect(keys).toContain('classifier.1.weight');
    const x = T(paddle.randn([2, 3, 32, 32]));
    expect(T(m.call(x)).shape).toEqual([2, 7]);
    trainStep(m, [x], ceLoss(7));
  });

  it('VGG (with and without batch norm): names, forward, training step; VGG-11 size from its config', () => {
    const convs = cfgs.A.filter((v): v is number => v !== 'M');
    const convParams = convs.reduce((a, b, i) => a + 9 * (i ? convs[i - 1] : 3) * b + b, 0);
    expect(convParams + (25088 * 4096 + 4096) + (4096 * 4096 + 4096) + (4096 * 1000 + 1000)).toBe(132863336);
    // the factory's real feature stack (9.2M parameters) without the 123M-parameter classifier
    const feats = vgg11({ num_classes: 0 });
    expect(count(feats)).toBe(convParams);
    expect(feats.features.length).toBe(21);
    const bnFeats = vgg11({ batch_norm: true, num_classes: 0 });
    expect(bnFeats.features.length).toBe(29);
    expect(Object.keys(bnFeats.state_dict())).toContain('features.1._mean');
    paddle.seed(4);
    for (const bn of [false, true]) {
      const m = new VGG(makeLayers([8, 'M', 16, 'M', 16, 'M'], bn), { num_classes: 0 });
      const keys = Object.keys(m.state_dict());
      expect(keys.slice(0, 2)).toEqual(['features.0.weight', 'features.0.bias']);
      expect(keys.includes('features.1._mean')).toBe(bn);
      const x = T(paddle.randn([2, 3, 32, 32]));
      expect(T(m.call(x)).shape).toEqual([2, 16, 7, 7]);
      // a small classifier in the place of the 25088 x 4096 one, to train the whole path
      m.classifier = new Sequential(new Linear(16 * 49, 32), new ReLU(), new Dropout(), new Linear(32, 32), new ReLU(), new Dropout(), new Linear(32, 3));
      (m as unknown as { num_classes: number }).num_classes = 3;
      expect(T(m.call(x)).shape).toEqual([2, 3]);
      trainStep(m, [x], ceLoss(3));
    }
    expect(() => makeLayers([8, 'X' as 'M'])).toThrow(/makeLayers/);
  });

  it('ViT: PaddleClas names, DeiT-tiny count, forward, training step, image-size check', () => {
    expect(count(vit_tiny())).toBe(5717416);
    paddle.seed(5);
    const m = new VisionTransformer({ img_size: 32, patch_size: 8, class_num: 5, embed_dim: 32, depth: 2, num_heads: 4, qkv_bias: true });
    const keys = Object.keys(m.state_dict());
    expect(keys.slice(0, 4)).toEqual(['pos_embed', 'cls_token', 'patch_embed.proj.weight', 'patch_embed.proj.bias']);
    expect(keys).toContain('blocks.1.attn.qkv.bias');
    expect(keys.slice(-2)).toEqual(['head.weight', 'head.bias']);
    expect(m.pos_embed.shape).toEqual([1, 17, 32]);
    const x = T(paddle.randn([3, 3, 32, 32]));
    expect(T(m.call(x)).shape).toEqual([3, 5]);
    trainStep(m, [x], ceLoss(5));
    expect(() => m.call(paddle.randn([1, 3, 16, 16]))).toThrow(/PatchEmbed/);
  });
});
