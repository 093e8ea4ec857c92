// Recurrent models saved with a symbolic batch and sequence length (InputSpec [None, None]): the
// time loop is one pd_op.while (src/nn/rnn_dynamic.ts) instead of an unrolled loop, so one .pir
// serves every sequence length. Checked against eager at several (batch, seq) shapes, through
// paddle.jit.load and the predictor; a bidirectional GRU with sequence lengths covers the
// reversed loop and the padded-step masks.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { paddle } from '../../src/paddle.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { LSTMLanguageModel } from '../../models/text/index.js';
import { expectAllClose } from '../executor/helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'skiff-jit-rnn-'));
afterAll(() => { paddle.disable_static(); rmSync(dir, { recursive: true, force: true }); });
const { InputSpec } = paddle.jit;

const flat = (o: unknown): Tensor[] => (Array.isArray(o) ? o.flatMap(flat) : [o as Tensor]);

describe('jit.save of recurrent models with a symbolic sequence length', () => {
  it('LSTM LM: one pd_op.while, [-1, -1] input, equal to eager at three shapes (jit.load and the predictor)', () => {
    paddle.seed(5);
    const m = new LSTMLanguageModel(30, { embed_dim: 12, hidden_size: 16, num_layers: 2, dropout: 0.1 });
    m.eval();
    const path = join(dir, 'lstm_lm');
    paddle.jit.save(m, path, { input_spec: [new InputSpec([null, null], 'int64', 'ids')] });
    const text = readFileSync(`${path}.pir`, 'utf8');
    expect(text.split('\n')[0]).toContain('"inputs":[{"name":"ids","dtype":"int64","shape":[-1,-1]}]');
    // One loop per layer, not one matmul per step.
    expect(text.match(/pd_op\.while/g)?.length).toBe(2);
    const loaded = paddle.jit.load(path);
    const pred = paddle.inference.create_predictor(new paddle.inference.Config(path));
    for (const [b, s] of [[3, 5], [2, 11], [1, 1]]) {
      const ids = paddle.randint(0, 30, [b, s], 'int64') as Tensor;
      const want = flat(paddle.no_grad(() => m.call(ids)));
      const got = flat(loaded.call(ids));
      expect(got.length).toBe(3);
      want.forEach((w, i) => expectAllClose(got[i], w, `jit.load output ${i} at [${b}, ${s}]`, 1e-5));
      pred.get_input_handle('ids').copy_from_cpu(ids);
      pred.run();
      const logits = pred.get_output_handle(pred.get_output_names()[0]).copy_to_cpu();
      expectAllClose(logits, want[0], `predictor logits at [${b}, ${s}]`, 1e-5);
    }
    pred.dispose();
  });

  it('bidirectional GRU with sequence_length: reversed loop and padded steps match eager', () => {
    paddle.seed(6);
    class Net extends paddle.nn.Layer {
      gru = new paddle.nn.GRU(4, 6, 1, 'bidirect');
      forward(x: Tensor, lens: Tensor) { return this.gru.call(x, null, lens); }
    }
    const m = new Net();
    m.eval();
    const path = join(dir, 'bigru');
    paddle.jit.save(m, path, { input_spec: [new InputSpec([null, null, 4], 'float32', 'x'), new InputSpec([null], 'int64', 'lens')] });
    const loaded = paddle.jit.load(path);
    for (const [b, s] of [[3, 6], [2, 3]]) {
      const x = paddle.randn([b, s, 4]);
      const lens = paddle.to_tensor(Array.from({ length: b }, (_, i) => Math.max(1, s - i)), 'int64');
      const want = flat(paddle.no_grad(() => m.call(x, lens)));
      const got = flat(loaded.call(x, lens));
      expect(got.length).toBe(want.length);
      want.forEach((w, i) => expectAllClose(got[i], w, `output ${i} at [${b}, ${s}]`, 1e-5));
    }
  });

  it('a user-defined cell with a symbolic sequence length is refused with a clear error', () => {
    class MyCell extends paddle.nn.Layer {
      lin = new paddle.nn.Linear(3, 3);
      state_shape = [3];
      forward(x: Tensor, h: Tensor) { const y = paddle.tanh(paddle.add(this.lin.call(x) as Tensor, h)) as Tensor; return [y, y]; }
    }
    const rnn = new paddle.nn.RNN(new MyCell());
    rnn.eval();
    expect(() => paddle.jit.save(rnn, join(dir, 'mycell'), { input_spec: [new InputSpec([2, null, 3], 'float32', 'x')] }))
      .toThrow(/MyCell: a user-defined cell needs a static number of time steps/);
  });
});

describe('recurrent models with symbolic initial states', () => {
  it('LSTM LM with initial states given as inputs ([layers, None, hidden]) matches eager', () => {
    paddle.seed(7);
    const m = new LSTMLanguageModel(20, { embed_dim: 8, hidden_size: 8, num_layers: 2, dropout: 0 });
    m.eval();
    class WithStates extends paddle.nn.Layer {
      lm = m;
      forward(ids: Tensor, h: Tensor, c: Tensor) { return this.lm.call(ids, [h, c]); }
    }
    const net = new WithStates();
    net.eval();
    const path = join(dir, 'lstm_states');
    paddle.jit.save(net, path, { input_spec: [new InputSpec([null, null], 'int64', 'ids'), new InputSpec([2, null, 8], 'float32', 'h'), new InputSpec([2, null, 8], 'float32', 'c')] });
    const loaded = paddle.jit.load(path);
    for (const [b, s] of [[2, 4], [3, 7]]) {
      const ids = paddle.randint(0, 20, [b, s], 'int64') as Tensor;
      const h = paddle.randn([2, b, 8]), c = paddle.randn([2, b, 8]);
      const want = flat(paddle.no_grad(() => net.call(ids, h, c)));
      const got = flat(loaded.call(ids, h, c));
      want.forEach((w, i) => expectAllClose(got[i], w, `output ${i} at [${b}, ${s}]`, 1e-5));
    }
  });
});
