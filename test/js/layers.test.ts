// paddle.jit.to_static on TS layers: the README example, an MLP, and TS zoo models (ResNet-18,
// GPT, the LSTM language model) each capture to one graph with outputs equal to eager, in eval and
// training (gradients through the captured graph; batch_norm's running statistics updated as eager).
import { describe, expect, test } from 'vitest';
import { paddle as P } from '../../frontend/index.js';
import { resnet18, BasicBlock, ResNet } from '../../models/vision/resnet.js';
import { T as visionT } from '../../models/vision/common.js';
import { GPTModel, GPTEmbeddings, GPTForCausalLM } from '../../models/text/gpt.js';
import { causalMask, positionIds } from '../../models/text/positions.js';
import { LSTMLanguageModel } from '../../models/text/lstm_lm.js';
import * as vit from '../../models/vision/vit.js';
import * as mobilenet from '../../models/vision/mobilenetv2.js';
import * as bert from '../../models/text/bert.js';
import { attachScope, expectSame } from './helpers.js';

const paddle: any = P;   // eslint-disable-line @typescript-eslint/no-explicit-any
const t = (shape: number[], seed = 1): any => { paddle.seed(seed); return paddle.randn(shape); };   // eslint-disable-line @typescript-eslint/no-explicit-any

class Net extends paddle.nn.Layer {
  fc1 = new paddle.nn.Linear(784, 256);
  fc2 = new paddle.nn.Linear(256, 10);
  constructor(readonly p = 0.1) { super(); }
  forward(x: any) {   // eslint-disable-line @typescript-eslint/no-explicit-any
    let h = paddle.nn.functional.relu(this.fc1.forward(x));
    if (this.training) h = paddle.nn.functional.dropout(h, this.p);
    return this.fc2.forward(h);
  }
}

class MLP extends paddle.nn.Layer {
  layers: any[];   // eslint-disable-line @typescript-eslint/no-explicit-any
  head: any;   // eslint-disable-line @typescript-eslint/no-explicit-any
  constructor(sizes: number[], readonly act = 'relu') {
    super();
    this.layers = [];
    for (let i = 0; i + 1 < sizes.length; i++) this.layers.push(this.add_sublayer(`l${i}`, new paddle.nn.Linear(sizes[i], sizes[i + 1])));
    this.head = new paddle.nn.Sequential(new paddle.nn.LayerNorm(sizes[sizes.length - 1]), new paddle.nn.Linear(sizes[sizes.length - 1], 3));
  }
  forward(x: any, { residual = false } = {}) {   // eslint-disable-line @typescript-eslint/no-explicit-any
    let h = x;
    for (const [i, l] of this.layers.entries()) {
      const y = l.call(h);
      h = i < this.layers.length - 1 ? (this.act === 'relu' ? paddle.nn.functional.relu(y) : paddle.tanh(y)) : y;
    }
    if (residual && h.shape[1] === x.shape[1]) h = paddle.add(h, x);
    return this.head.call(h);
  }
}

const grads = (l: any): any[] => l.parameters().map((p: any) => p.grad);   // eslint-disable-line @typescript-eslint/no-explicit-any

describe('to_static on layers', () => {
  test('README Net: one graph in eval and in train, equal to eager; backward through the graph', () => {
    const net = new Net();
    const s = paddle.jit.to_static(net, { scope: { paddle } });
    net.eval();
    const x = t([4, 784]);
    expectSame(s.call(x), net.call(x), 1e-6);
    expectSame(s.forward(t([4, 784], 2)), net.forward(t([4, 784], 2)), 1e-6);
    expect(s.translateCount).toBe(1);
    s.train();   // through the wrapper: the original layer switches
    expect(net.training).toBe(true);
    const y = s.call(x);
    expect(y.shape).toEqual([4, 10]);
    expect(s.translateCount).toBe(2);   // training is guarded
    const ex = s.explain();
    expect(ex.graphs).toBe(2);
    expect(ex.breaks).toEqual([]);
    y.sum().backward();
    for (const g of grads(net)) expect(g).not.toBeNull();
  });

  test('training without dropout: loss and gradients equal eager', () => {
    const net = new Net(0);
    const s = paddle.jit.to_static(net, { scope: { paddle } });
    const x = t([3, 784]);
    const lossS = s.call(x).square().mean();
    lossS.backward();
    const gS = grads(net).map((g: any) => paddle.scale(g, 1));   // eslint-disable-line @typescript-eslint/no-explicit-any
    net.clear_gradients();
    const lossE = net.call(x).square().mean();
    lossE.backward();
    expectSame(lossS, lossE, 1e-6);
    grads(net).forEach((g: any, i: number) => expectSame(gS[i], g, 1e-5));   // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(s.stats.breaks).toEqual([]);
  });

  test('built-in layer state is guarded: attribute, parameter and hook changes re-translate or fall back', () => {
    class Small extends paddle.nn.Layer {
      fc = new paddle.nn.Linear(3, 3);
      act = new paddle.nn.LeakyReLU(0.1);
      forward(x: any) { return this.act.call(this.fc.call(x)); }   // eslint-disable-line @typescript-eslint/no-explicit-any
    }
    const l = new Small();
    const s = paddle.jit.to_static(l);
    const x = t([2, 3]);
    expectSame(s.call(x), l.call(x), 1e-6);
    l.act.attrs.negative_slope = 0.3;
    expectSame(s.call(x), l.call(x), 1e-6);
    expect(s.translateCount).toBe(2);
    l.fc.weight = paddle.create_parameter ? paddle.create_parameter([3, 3], 'float32') : l.fc.create_parameter([3, 3]);
    expectSame(s.call(x), l.call(x), 1e-6);
    expect(s.translateCount).toBe(3);
    const h = l.fc.register_forward_post_hook((_l: unknown, _i: unknown, out: any) => out.scale(2));   // eslint-disable-line @typescript-eslint/no-explicit-any
    expectSame(s.call(x), l.call(x), 1e-6);
    expect(s.explain().breaks.map((b: any) => b.code)).toEqual(['SOT005']);   // eslint-disable-line @typescript-eslint/no-explicit-any
    h.remove();
    expectSame(s.call(x), l.call(x), 1e-6);
  });

  test('super.forward(): of a built-in layer (run symbolically) and of a user base class (inlined)', () => {
    class MyLinear extends paddle.nn.Linear {
      forward(x: any) { return super.forward(x).relu(); }   // eslint-disable-line @typescript-eslint/no-explicit-any
    }
    class Base extends paddle.nn.Layer {
      forward(x: any) { return x.scale(2); }   // eslint-disable-line @typescript-eslint/no-explicit-any
    }
    class Derived extends Base {
      lin = new (MyLinear as any)(3, 3);   // eslint-disable-line @typescript-eslint/no-explicit-any
      override forward(x: any) { return this.lin.call(super.forward(x)).add(x); }   // eslint-disable-line @typescript-eslint/no-explicit-any
    }
    const d = new Derived();
    const s = paddle.jit.to_static(d);
    const x = t([2, 3]);
    expectSame(s.call(x), d.call(x), 1e-6);
    expect(s.explain().breaks).toEqual([]);
    expect(s.explain().graphs).toBe(1);
  });

  test('MLP: array of sublayers, entries(), options bag, Sequential head', () => {
    const m = new MLP([8, 16, 8]);
    m.eval();
    const s = paddle.jit.to_static(m, { scope: { paddle } });
    const x = t([5, 8]);
    expectSame(s.call(x), m.call(x), 1e-6);
    expectSame(s.call(x, { residual: true }), m.call(x, { residual: true }), 1e-6);
    expect(s.explain().graphs).toBe(2);
    s.call(t([5, 8], 3), { residual: true });
    expect(s.translateCount).toBe(2);
  });

  test('ResNet-18 (eval) captures to one graph equal to eager', () => {
    attachScope(ResNet, { paddle, T: visionT });
    attachScope(BasicBlock, { paddle, T: visionT });
    const net = resnet18({ num_classes: 10 });
    net.eval();
    const s = paddle.jit.to_static(net);
    const x = t([2, 3, 32, 32]);
    expectSame(s.call(x), net.call(x), 1e-4);
    const ex = s.explain();
    expect(ex.breaks).toEqual([]);
    expect(ex.graphs).toBe(1);
    expect(ex.entries[0].ops).toBeGreaterThan(40);
  });

  test('ResNet-18 (train): loss and batch-norm running statistics as eager', () => {
    // (gradients through captured graphs are checked on the smaller Net above: conv backward is slow)
    attachScope(ResNet, { paddle, T: visionT });
    attachScope(BasicBlock, { paddle, T: visionT });
    const a = resnet18({ num_classes: 4 });
    const b = resnet18({ num_classes: 4 });
    b.set_state_dict(a.state_dict());
    const s = paddle.jit.to_static(a);
    const x = t([2, 3, 16, 16]);
    for (let i = 0; i < 2; i++) expectSame(s.call(x).square().mean(), b.call(x).square().mean(), 1e-4);
    expectSame(a.bn1._mean, b.bn1._mean, 1e-5);
    expectSame(a.bn1._variance, b.bn1._variance, 1e-4);
    expect(s.explain().graphs).toBe(1);
    expect(s.translateCount).toBe(1);
  });

  test('GPT (eval): one graph equal to eager', () => {
    const T = (v: unknown) => v;
    for (const c of [GPTModel, GPTEmbeddings, GPTForCausalLM]) attachScope(c, { paddle, T, causalMask, positionIds });
    attachScope(causalMask, { paddle, T });
    const gpt = new GPTForCausalLM(new GPTModel({ vocab_size: 50, hidden_size: 16, num_hidden_layers: 2, num_attention_heads: 2, intermediate_size: 32, max_position_embeddings: 16 }));
    gpt.eval();
    const s = paddle.jit.to_static(gpt);
    const ids = paddle.to_tensor([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]], 'int64');
    const pos = paddle.to_tensor([[0, 1, 2, 3, 4]], 'int64');
    expectSame(s.call(ids, pos), gpt.call(ids, pos), 1e-5);
    expect(s.explain().breaks).toEqual([]);
    expect(s.explain().graphs).toBe(1);
  });

  test('LSTM language model (eval): one graph, logits and states equal to eager', () => {
    attachScope(LSTMLanguageModel, { paddle, T: (v: unknown) => v });
    const lm = new LSTMLanguageModel(30, { embed_dim: 8, hidden_size: 8, num_layers: 2 });
    lm.eval();
    const s = paddle.jit.to_static(lm);
    const ids = paddle.to_tensor([[1, 2, 3], [4, 5, 6]], 'int64');
    expectSame(s.call(ids), lm.call(ids), 1e-5);
    expect(s.explain().breaks).toEqual([]);
    expect(s.explain().graphs).toBe(1);
  });

  /** Stands in for the build plugin on every class of a zoo module. */
  const scopeAll = (mod: Record<string, unknown>, known: Record<string, unknown>): void => {
    for (const c of Object.values(mod)) if (typeof c === 'function' && c.prototype) attachScope(c, known);
  };
  const zoo: [string, () => any, () => any[]][] = [   // eslint-disable-line @typescript-eslint/no-explicit-any
    ['ViT (tiny config, LayerList of user blocks, x.get)', () => {
      scopeAll(vit, { paddle, T: visionT, F: paddle.nn.functional });
      return vit.vit_tiny({ img_size: 32, patch_size: 8, embed_dim: 16, depth: 2, num_heads: 2, num_classes: 5 } as any);   // eslint-disable-line @typescript-eslint/no-explicit-any
    }, () => [t([2, 3, 32, 32])]],
    ['MobileNetV2 (scale 0.25)', () => {
      scopeAll(mobilenet, { paddle, T: visionT });
      return mobilenet.mobilenet_v2({ scale: 0.25, num_classes: 5 } as any);   // eslint-disable-line @typescript-eslint/no-explicit-any
    }, () => [t([1, 3, 32, 32])]],
    ['BERT-tiny (token types and positions given)', () => {
      scopeAll(bert, { paddle, T: (v: unknown) => v, positionIds });
      return bert.bert_tiny({ vocab_size: 40 } as any);   // eslint-disable-line @typescript-eslint/no-explicit-any
    }, () => [paddle.to_tensor([[1, 2, 3]], 'int64'), paddle.to_tensor([[0, 0, 1]], 'int64'), paddle.to_tensor([[0, 1, 2]], 'int64')]],
  ];
  test.each(zoo)('%s (eval): one graph equal to eager', (_name, make, args) => {
    const m = make();
    m.eval();
    const s = paddle.jit.to_static(m);
    const a = args();
    expectSame(s.call(...a), m.call(...a), 1e-4);
    const ex = s.explain();
    expect(ex.breaks).toEqual([]);
    expect(ex.graphs).toBe(1);
    s.call(...args());
    expect(s.translateCount).toBe(1);
  });
});
