// TS paddle.nn, the issue-9 remainder: attention and Transformer stacks, recurrent cells and
// layers, Bilinear, ParameterList, channel/alpha dropout, Pad, 1-D/3-D pools and paddle.summary.
// Each layer against a functional reference (recurrent ones against a plain-array loop), one
// backward reaching every parameter, state_dict round trips and Paddle's parameter names.
import { describe, expect, it } from 'vitest';
import { paddle } from '../../src/paddle.js';
import { Tensor } from '../../src/tensor/tensor.js';

const nn = paddle.nn;
const F = paddle.nn.functional;
const arr = (t: Tensor): number[] => Array.from(t.dataSync() as ArrayLike<number>, Number);
const close = (a: Tensor, b: Tensor | number[], tol = 1e-5) => {
  const y = b instanceof Tensor ? arr(b) : b;
  if (b instanceof Tensor) expect(a.shape).toEqual(b.shape);
  const x = arr(a);
  expect(x.length).toBe(y.length);
  for (let i = 0; i < x.length; i++) expect(Math.abs(x[i] - y[i])).toBeLessThanOrEqual(tol * (1 + Math.abs(y[i])));
};

// ---- plain-array recurrent reference --------------------------------------------------------
type Mat = number[][];
const matOf = (t: Tensor): Mat => { const [r, c] = t.shape as number[]; const d = arr(t); return Array.from({ length: r }, (_, i) => d.slice(i * c, i * c + c)); };
const sig = (v: number) => 1 / (1 + Math.exp(-v));
/** W x + b for W [G, I] and x [I]. */
const affine = (W: Mat, x: number[], b: number[] | null) => W.map((row, g) => row.reduce((a, w, i) => a + w * x[i], b ? b[g] : 0));

/** One cell step on plain arrays, Paddle's gate order; returns [h, c]. */
function refStep(kind: string, cell: any, x: number[], h: number[], c: number[]): [number[], number[]] {
  const gi = affine(matOf(cell.weight_ih), x, cell.bias_ih ? arr(cell.bias_ih) : null);
  const gh = affine(matOf(cell.weight_hh), h, cell.bias_hh ? arr(cell.bias_hh) : null);
  const H = h.length;
  if (kind === 'rnn') return [gi.map((v, j) => Math.tanh(v + gh[j])), c];
  if (kind === 'gru') {
    const r = (j: number) => sig(gi[j] + gh[j]), z = (j: number) => sig(gi[H + j] + gh[H + j]);
    const cand = (j: number) => Math.tanh(gi[2 * H + j] + r(j) * gh[2 * H + j]);
    return [h.map((hv, j) => (hv - cand(j)) * z(j) + cand(j)), c];
  }
  const g = gi.map((v, j) => v + gh[j]);
  const c2 = c.map((cv, j) => sig(g[H + j]) * cv + sig(g[j]) * Math.tanh(g[2 * H + j]));
  return [c2.map((cv, j) => sig(g[3 * H + j]) * Math.tanh(cv)), c2];
}

/** A whole single-layer, one-direction run over x [B, T, I] (batch-major); lengths mask the tail. */
function refRun(kind: string, cell: any, x: Tensor, reverse = false, lengths: number[] | null = null): { out: number[][][]; h: number[][]; c: number[][] } {
  const [B, T, I] = x.shape as number[];
  const d = arr(x);
  const H = cell.hidden_size;
  const out: number[][][] = [], hs: number[][] = [], cs: number[][] = [];
  for (let b = 0; b < B; b++) {
    let h = new Array<number>(H).fill(0), c = new Array<number>(H).fill(0);
    const len = lengths ? lengths[b] : T;
    const seq: number[][] = new Array(T).fill(null).map(() => new Array<number>(H).fill(0));
    for (let k = 0; k < len; k++) {
      const t = reverse ? len - 1 - k : k;
      [h, c] = refStep(kind, cell, d.slice((b * T + t) * I, (b * T + t + 1) * I), h, c);
      seq[t] = h;
    }
    out.push(seq); hs.push(h); cs.push(c);
  }
  return { out, h: hs, c: cs };
}

describe('recurrent cells and layers against a plain-array loop', () => {
  const kinds = [
    { kind: 'rnn', Cell: () => nn.SimpleRNNCell, Net: () => nn.SimpleRNN },
    { kind: 'lstm', Cell: () => nn.LSTMCell, Net: () => nn.LSTM },
    { kind: 'gru', Cell: () => nn.GRUCell, Net: () => nn.GRU },
  ];
  for (const { kind, Cell, Net } of kinds) {
    it(`${kind} cell: one step`, () => {
      const cell = new (Cell())(3, 4);
      const x = paddle.randn([2, 3]);
      const h0 = paddle.randn([2, 4]), c0 = paddle.randn([2, 4]);
      const [y, st] = cell.call(x, kind === 'lstm' ? [h0, c0] : h0);
      const H = matOf(h0), C = matOf(c0), X = matOf(x);
      const want = X.map((xv, b) => refStep(kind, cell, xv, H[b], C[b]));
      close(y, want.flatMap((w) => w[0]));
      if (kind === 'lstm') close(st[1], want.flatMap((w) => w[1]));
      else close(st, want.flatMap((w) => w[0]));
    });

    it(`${kind}: sequence, time_major, sequence_length and bidirectional`, () => {
      const net = new (Net())(3, 4);
      const x = paddle.randn([2, 5, 3]);
      const [y, st] = net.call(x);
      const cell = net.at(0).cell;
      const r = refRun(kind, cell, x);
      close(y, r.out.flat(2));
      close(kind === 'lstm' ? st[0] : st, r.h.flat());
      if (kind === 'lstm') close(st[1], r.c.flat());
      // time-major input gives the same numbers transposed
      const tm = new (Net())(3, 4, 1, 'forward', true);
      tm.set_state_dict(net.state_dict());
      close(tm.call(paddle.transpose(x, [1, 0, 2]))[0], paddle.transpose(y, [1, 0, 2]));
      // padded batch: state frozen after each length, outputs zero there
      const lens = [5, 3];
      const [yl, sl] = net.call(x, null, paddle.to_tensor(lens, 'int64'));
      const rl = refRun(kind, cell, x, false, lens);
      close(yl, rl.out.flat(2));
      close(kind === 'lstm' ? sl[0] : sl, rl.h.flat());
      // bidirectional: forward half then backward half, final states [fw, bw]
      const bi = new (Net())(3, 4, 1, 'bidirect');
      const [yb, sb] = bi.call(x, null, paddle.to_tensor(lens, 'int64'));
      const fw = refRun(kind, bi.at(0).cell_fw, x, false, lens), bw = refRun(kind, bi.at(0).cell_bw, x, true, lens);
      close(yb, fw.out.flatMap((s, b) => s.flatMap((h, t) => [...h, ...bw.out[b][t]])));
      close(kind === 'lstm' ? sb[0] : sb, [...fw.h.flat(), ...bw.h.flat()]);
    });
  }

  it('two layers: the second runs on the first one\'s outputs; initial states are split per layer', () => {
    const net = new nn.GRU(3, 4, 2);
    const x = paddle.randn([2, 3, 3]);
    const h0 = paddle.randn([2, 2, 4]);
    const [y, h] = net.call(x, h0);
    const [y0] = new nn.RNN(net.at(0).cell).call(x, paddle.slice(h0, [0], [0], [1]).squeeze(0));
    const [y1, h1] = new nn.RNN(net.at(1).cell).call(y0, paddle.slice(h0, [0], [1], [2]).squeeze(0));
    close(y, y1);
    close(paddle.slice(h, [0], [1], [2]).squeeze(0), h1);
  });

  it('RNN and BiRNN run a user cell (any Layer with forward(x, states) and state_shape) as written', () => {
    class Leaky extends nn.Layer {
      state_shape = [3];
      fc = new nn.Linear(2, 3);
      forward(x: Tensor, h: Tensor) { const y = paddle.add(paddle.scale(h, 0.5), F.tanh(this.fc.call(x))); return [y, y]; }
    }
    const cell = new Leaky();
    const x = paddle.randn([2, 4, 2]);
    const [y, h] = new nn.RNN(cell).call(x, null, paddle.to_tensor([4, 2], 'int64'));
    let want = paddle.zeros([2, 3]);
    const steps: Tensor[] = [];
    for (let t = 0; t < 4; t++) {
      const n = cell.forward(paddle.slice(x, [1], [t], [t + 1]).squeeze(1), want)[0];
      const m = paddle.to_tensor([[1], [t < 2 ? 1 : 0]], 'float32');
      want = paddle.add(paddle.multiply(n, m), paddle.multiply(want, paddle.scale(m, -1, 1)));
      steps.push(n);
    }
    close(y, paddle.stack(steps, 1), 1e-5);
    close(h, want, 1e-5);
    const [yb] = new nn.BiRNN(new Leaky(), new Leaky()).call(x);
    expect(yb.shape).toEqual([2, 4, 6]);
  });

  it('parameter names, shapes and state_dict follow Paddle', () => {
    const lstm = new nn.LSTM(3, 4, 2, 'bidirectional');
    const names = lstm.named_parameters().map(([n]: [string]) => n);
    expect(names.slice(0, 8)).toEqual(['weight_ih_l0', 'weight_hh_l0', 'bias_ih_l0', 'bias_hh_l0', 'weight_ih_l0_reverse', 'weight_hh_l0_reverse', 'bias_ih_l0_reverse', 'bias_hh_l0_reverse']);
    expect(names.length).toBe(16);
    expect(lstm.weight_ih_l1.shape).toEqual([16, 8]);
    expect(lstm.weight_hh_l0.shape).toEqual([16, 4]);
    const sd = lstm.state_dict();
    expect(sd['0.cell_fw.weight_ih']).toBe(lstm.weight_ih_l0);
    expect(sd['1.cell_bw.bias_hh']).toBe(lstm.bias_hh_l1_reverse);
    expect(Object.keys(sd).length).toBe(32);
    const bound = 1 / Math.sqrt(4);
    expect(arr(lstm.bias_ih_l0).every((v) => Math.abs(v) <= bound)).toBe(true);
    expect(Object.keys(new nn.GRUCell(2, 3).state_dict())).toEqual(['weight_ih', 'weight_hh', 'bias_ih', 'bias_hh']);
    expect(new nn.GRUCell(2, 3).weight_ih.shape).toEqual([9, 2]);
    const other = new nn.LSTM(3, 4, 2, 'bidirectional');
    expect(other.set_state_dict(sd)).toEqual({ missing_keys: [], unexpected_keys: [] });
    const x = paddle.randn([2, 3, 3]);
    close(other.call(x)[0], lstm.call(x)[0], 0);
  });

  it('errors name the layer', () => {
    expect(() => new nn.LSTM(3, 4, 1, 'sideways')).toThrow(/LSTM: direction/);
    expect(() => new nn.GRU(3, 4).call(paddle.randn([2, 5, 2]))).toThrow(/GRU: inputs must be/);
    expect(() => new nn.LSTM(3, 4).call(paddle.randn([2, 5, 3]), [paddle.zeros([1, 2, 4])])).toThrow(/LSTM: initial_states must hold 2/);
    expect(() => new nn.SimpleRNN(3, 4).call(paddle.randn([2, 5, 3]), paddle.zeros([1, 3, 4]))).toThrow(/SimpleRNN: initial state 0 must be \[1, 2, 4\]/);
    expect(() => new nn.SimpleRNN(3, 4).call(paddle.randn([2, 5, 3]), null, paddle.to_tensor([1, 2, 3], 'int64'))).toThrow(/sequence_length must be \[2\]/);
    expect(() => new nn.SimpleRNNCell(3, 4, 'sigmoid')).toThrow(/SimpleRNNCell: activation/);
  });
});

/** Attention written out with public ops: softmax(q k^T / sqrt(d) + mask) v per head. */
function refAttention(m: any, q: Tensor, k: Tensor, v: Tensor, mask: Tensor | null = null): [Tensor, Tensor] {
  const [B, Lq] = q.shape as number[];
  const Lk = k.shape[1] as number;
  const H = m.num_heads, D = m.head_dim;
  const heads = (t: Tensor, L: number) => paddle.transpose(paddle.reshape(t, [B, L, H, D]), [0, 2, 1, 3]);
  const qh = heads(F.linear(q, m.q_proj.weight, m.q_proj.bias), Lq);
  const kh = heads(F.linear(k, m.k_proj.weight, m.k_proj.bias), Lk);
  const vh = heads(F.linear(v, m.v_proj.weight, m.v_proj.bias), Lk);
  let s = paddle.scale(paddle.matmul(qh, kh, false, true), 1 / Math.sqrt(D));
  if (mask) s = paddle.add(s, mask);
  const w = F.softmax(s, -1);
  const o = paddle.reshape(paddle.transpose(paddle.matmul(w, vh), [0, 2, 1, 3]), [B, Lq, H * D]);
  return [F.linear(o, m.out_proj.weight, m.out_proj.bias), w];
}

describe('attention and Transformer layers', () => {
  it('MultiHeadAttention: self and cross attention, kdim/vdim, float and bool masks, need_weights', () => {
    const m = new nn.MultiHeadAttention(8, 2);
    const q = paddle.randn([2, 3, 8]);
    close(m.call(q), refAttention(m, q, q, q)[0], 1e-4);
    const c = new nn.MultiHeadAttention(8, 4, 0, 5, 6, true);
    const k = paddle.randn([2, 4, 5]), v = paddle.randn([2, 4, 6]);
    const fmask = paddle.randn([2, 1, 3, 4]);
    const [out, w] = c.call(q, k, v, fmask);
    const [ro, rw] = refAttention(c, q, k, v, fmask);
    close(out, ro, 1e-4);
    close(w, rw, 1e-4);
    // bool mask: false is masked out (-1e9 added)
    const bmask = paddle.to_tensor([[true, true, false, false], [true, false, true, false], [true, true, true, true]]);
    const add = paddle.scale(paddle.cast(bmask, 'float32'), 1e9, -1e9);
    close(c.call(q, k, v, bmask)[0], refAttention(c, q, k, v, add)[0], 1e-4);
    close(m.call(q, q, q, paddle.slice(bmask, [1], [0], [3])), refAttention(m, q, q, q, paddle.slice(add, [1], [0], [3]))[0], 1e-4);
    expect(m.named_parameters().map(([n]: [string]) => n)).toEqual(['q_proj.weight', 'q_proj.bias', 'k_proj.weight', 'k_proj.bias', 'v_proj.weight', 'v_proj.bias', 'out_proj.weight', 'out_proj.bias']);
    expect(c.k_proj.weight.shape).toEqual([5, 8]);
    expect(() => new nn.MultiHeadAttention(8, 3)).toThrow(/MultiHeadAttention: embed_dim 8 must be divisible by num_heads 3/);
    expect(() => m.call(paddle.randn([2, 3, 7]))).toThrow(/MultiHeadAttention: query must be/);
  });

  for (const normalize_before of [false, true]) {
    it(`TransformerEncoderLayer / DecoderLayer (normalize_before=${normalize_before})`, () => {
      const enc = new nn.TransformerEncoderLayer(8, 2, 16, 0.1, 'gelu', null, null, normalize_before).eval();
      const src = paddle.randn([2, 4, 8]);
      const mask = paddle.randn([4, 4]);
      const ln = (l: any, x: Tensor) => F.layer_norm(x, [8], l.weight, l.bias, 1e-5);
      const ffn = (l: any, x: Tensor) => F.linear(F.gelu(F.linear(x, l.linear1.weight, l.linear1.bias)), l.linear2.weight, l.linear2.bias);
      let want: Tensor;
      if (normalize_before) {
        const h = paddle.add(src, refAttention(enc.self_attn, ln(enc.norm1, src), ln(enc.norm1, src), ln(enc.norm1, src), mask)[0]);
        want = paddle.add(h, ffn(enc, ln(enc.norm2, h)));
      } else {
        const h = ln(enc.norm1, paddle.add(src, refAttention(enc.self_attn, src, src, src, mask)[0]));
        want = ln(enc.norm2, paddle.add(h, ffn(enc, h)));
      }
      close(enc.call(src, mask), want, 1e-4);

      const dec = new nn.TransformerDecoderLayer(8, 2, 16, 0.1, 'relu', null, null, normalize_before).eval();
      const tgt = paddle.randn([2, 3, 8]);
      const causal = new nn.Transformer(8, 2, 1, 1, 16).generate_square_subsequent_mask(3);
      const ffr = (l: any, x: Tensor) => F.linear(F.relu(F.linear(x, l.linear1.weight, l.linear1.bias)), l.linear2.weight, l.linear2.bias);
      let d: Tensor;
      if (normalize_before) {
        const t1 = ln(dec.norm1, tgt);
        const a = paddle.add(tgt, refAttention(dec.self_attn, t1, t1, t1, causal)[0]);
        const b = paddle.add(a, refAttention(dec.cross_attn, ln(dec.norm2, a), src, src)[0]);
        d = paddle.add(b, ffr(dec, ln(dec.norm3, b)));
      } else {
        const a = ln(dec.norm1, paddle.add(tgt, refAttention(dec.self_attn, tgt, tgt, tgt, causal)[0]));
        const b = ln(dec.norm2, paddle.add(a, refAttention(dec.cross_attn, a, src, src)[0]));
        d = ln(dec.norm3, paddle.add(b, ffr(dec, b)));
      }
      close(dec.call(tgt, src, causal), d, 1e-4);
    });
  }

  it('TransformerEncoder/Decoder clone the layer config; Transformer names follow Paddle', () => {
    const layer = new nn.TransformerEncoderLayer(8, 2, 16);
    const enc = new nn.TransformerEncoder(layer, 3, new nn.LayerNorm(8)).eval();
    expect(enc.layers.at(0)).toBe(layer);
    expect(enc.layers.at(1).linear1.weight).not.toBe(layer.linear1.weight);
    const x = paddle.randn([1, 5, 8]);
    let want = x;
    for (const l of enc.layers) want = l.call(want);
    close(enc.call(x), enc.norm.call(want), 1e-5);
    const t = new nn.Transformer(8, 2, 2, 1, 16).eval();
    const names = Object.keys(t.state_dict());
    expect(names).toContain('encoder.layers.1.self_attn.out_proj.weight');
    expect(names).toContain('decoder.layers.0.cross_attn.k_proj.bias');
    expect(names).toContain('decoder.norm.weight');
    expect(names.length).toBe(2 * 16 + 2 + (26 + 2));
    const src = paddle.randn([2, 5, 8]), tgt = paddle.randn([2, 3, 8]);
    const mask = t.generate_square_subsequent_mask(3);
    expect(arr(mask)).toEqual([0, -Infinity, -Infinity, 0, 0, -Infinity, 0, 0, 0]);
    close(t.call(src, tgt, null, mask), t.decoder.call(tgt, t.encoder.call(src), mask), 1e-5);
  });
});

describe('incremental decoding caches', () => {
  it('TransformerDecoder step by step with gen_cache equals the causal full pass', () => {
    for (const nb of [false, true]) {
      const dec = new nn.TransformerDecoder(new nn.TransformerDecoderLayer(8, 2, 16, 0, 'relu', null, null, nb), 2, new nn.LayerNorm(8)).eval();
      const memory = paddle.randn([2, 5, 8]), tgt = paddle.randn([2, 4, 8]);
      const full = dec.call(tgt, memory, new nn.Transformer(8, 2, 1, 1, 16).generate_square_subsequent_mask(4));
      let cache = dec.gen_cache(memory);
      const steps: Tensor[] = [];
      for (let t = 0; t < 4; t++) {
        const [y, c] = dec.call(paddle.slice(tgt, [1], [t], [t + 1]), memory, null, null, cache);
        steps.push(y);
        cache = c;
      }
      close(paddle.concat(steps, 1), full, 1e-4);
      expect(cache[0][0].k.shape).toEqual([2, 2, 4, 4]);
      expect(cache[1][1].k.shape).toEqual([2, 2, 5, 4]);
    }
  });
  it('MultiHeadAttention returns [out, weights, cache]; encoder caches grow', () => {
    const m = new nn.MultiHeadAttention(8, 2, 0, null, null, true);
    const x = paddle.randn([1, 3, 8]);
    const [out, w, c] = m.call(x, x, x, null, m.gen_cache(x));
    close(out, m.call(x)[0], 1e-5);
    expect(w.shape).toEqual([1, 2, 3, 3]);
    expect(c).toBeInstanceOf(nn.MultiHeadAttention.Cache);
    const enc = new nn.TransformerEncoder(new nn.TransformerEncoderLayer(8, 2, 16, 0), 2).eval();
    const [y, caches] = enc.call(x, null, enc.gen_cache(x));
    close(y, enc.call(x), 1e-4);
    expect(caches[1].k.shape).toEqual([1, 2, 3, 4]);
    expect(() => m.call(x, x, x, null, { k: x, v: x })).toThrow(/MultiHeadAttention: cache must be/);
  });
});

describe('Bilinear, ParameterList, dropout variants, Pad, pools', () => {
  const cases: { name: string; make: () => any; inputs: () => Tensor[]; ref: (l: any, ...x: Tensor[]) => Tensor | number[] }[] = [
    {
      name: 'Bilinear', make: () => new nn.Bilinear(3, 4, 2), inputs: () => [paddle.randn([5, 3]), paddle.randn([5, 4])],
      ref: (l, a, b) => {
        const W = arr(l.weight), A = arr(a), Bv = arr(b), bias = arr(l.bias);
        const out: number[] = [];
        for (let n = 0; n < 5; n++) for (let o = 0; o < 2; o++) {
          let s = bias[o];
          for (let i = 0; i < 3; i++) for (let j = 0; j < 4; j++) s += A[n * 3 + i] * W[(o * 3 + i) * 4 + j] * Bv[n * 4 + j];
          out.push(s);
        }
        return out;
      },
    },
    { name: 'Dropout2D eval', make: () => new nn.Dropout2D(0.5).eval(), inputs: () => [paddle.randn([2, 3, 4, 4])], ref: (_l, x) => x },
    { name: 'AlphaDropout eval', make: () => new nn.AlphaDropout(0.3).eval(), inputs: () => [paddle.randn([7])], ref: (_l, x) => x },
    { name: 'Pad1D reflect', make: () => new nn.Pad1D([1, 2], 'reflect'), inputs: () => [paddle.randn([1, 2, 5])], ref: (_l, x) => F.pad(x, [1, 2], 'reflect', 0, 'NCL') },
    { name: 'Pad2D int', make: () => new nn.Pad2D(1, 'constant', 2.5), inputs: () => [paddle.randn([1, 1, 2, 2])], ref: (_l, x) => F.pad(x, [1, 1, 1, 1], 'constant', 2.5) },
    { name: 'Pad3D replicate', make: () => new nn.Pad3D([1, 0, 0, 1, 1, 1], 'replicate'), inputs: () => [paddle.randn([1, 1, 2, 2, 2])], ref: (_l, x) => F.pad(x, [1, 0, 0, 1, 1, 1], 'replicate', 0, 'NCDHW') },
    { name: 'MaxPool1D', make: () => new nn.MaxPool1D(2, 2), inputs: () => [paddle.randn([2, 3, 8])], ref: (_l, x) => F.max_pool1d(x, 2, 2) },
    { name: 'MaxPool3D', make: () => new nn.MaxPool3D(2, 1, 1), inputs: () => [paddle.randn([1, 2, 3, 3, 3])], ref: (_l, x) => F.max_pool3d(x, 2, 1, 1) },
    { name: 'AvgPool1D', make: () => new nn.AvgPool1D(3, 2, 1, false), inputs: () => [paddle.randn([2, 3, 8])], ref: (_l, x) => F.avg_pool1d(x, 3, 2, 1, false) },
    { name: 'AvgPool3D', make: () => new nn.AvgPool3D(2, 2), inputs: () => [paddle.randn([1, 2, 4, 4, 4])], ref: (_l, x) => F.avg_pool3d(x, 2, 2) },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const l = c.make();
      const xs = c.inputs();
      close(l.call(...xs), c.ref(l, ...xs) as Tensor, 1e-5);
    });
  }

  it('Dropout2D/3D drop whole channels; AlphaDropout keeps mean and variance', () => {
    paddle.seed(5);
    const y = arr(new nn.Dropout2D(0.5).call(paddle.ones([4, 8, 3, 3])));
    for (let ch = 0; ch < 32; ch++) {
      const v = y.slice(ch * 9, ch * 9 + 9);
      expect(v.every((e) => e === v[0]) && (v[0] === 0 || v[0] === 2)).toBe(true);
    }
    const y3 = arr(F.dropout3d(paddle.ones([2, 2, 2, 2, 3]), 0.5, true, 'NDHWC'));   // channels last: element i is channel i % 3
    for (let n = 0; n < 2; n++) for (let ch = 0; ch < 3; ch++) {
      const v = y3.filter((_e, i) => Math.floor(i / 24) === n && i % 3 === ch);
      expect(v.every((e) => e === v[0]) && (v[0] === 0 || v[0] === 2)).toBe(true);
    }
    const a = arr(new nn.AlphaDropout(0.2).call(paddle.randn([20000])));
    const mean = a.reduce((s, v) => s + v, 0) / a.length;
    const variance = a.reduce((s, v) => s + (v - mean) ** 2, 0) / a.length;
    expect(Math.abs(mean)).toBeLessThan(0.05);
    expect(Math.abs(variance - 1)).toBeLessThan(0.08);
    expect(() => F.dropout2d(paddle.ones([2, 3]))).toThrow(/dropout2d: x must be 4-D/);
  });

  it('ParameterList names its parameters 0, 1, ...', () => {
    class Net extends nn.Layer {
      ws = new nn.ParameterList([0, 1, 2].map((i) => this.create_parameter([2, 2 + i])));
      forward(x: Tensor) { return paddle.matmul(paddle.matmul(x, this.ws.at(0)), paddle.slice(this.ws.at(1), [1], [0], [2])); }
    }
    const n = new Net();
    expect(Object.keys(n.state_dict())).toEqual(['ws.0', 'ws.1', 'ws.2']);
    expect(n.ws.length).toBe(3);
    expect([...n.ws].map((p: Tensor) => p.shape)).toEqual([[2, 2], [2, 3], [2, 4]]);
  });
});

describe('gradients reach every parameter', () => {
  const nets: [string, () => any, () => Tensor[]][] = [
    ['LSTM bidirect 2 layers', () => new nn.LSTM(3, 4, 2, 'bidirect'), () => [paddle.randn([2, 4, 3])]],
    ['GRU', () => new nn.GRU(3, 4, 1, 'forward', true), () => [paddle.randn([4, 2, 3])]],
    ['SimpleRNN relu', () => new nn.SimpleRNN(3, 4, 2, 'forward', false, 0, 'relu'), () => [paddle.randn([2, 4, 3])]],
    // a nonzero initial state, or weight_hh would get a zero gradient from h0 = 0
    ['LSTMCell proj', () => new nn.LSTMCell(3, 4, null, null, null, null, 2), () => [paddle.randn([2, 3]), [paddle.randn([2, 2]), paddle.randn([2, 4])]] as any],
    ['MultiHeadAttention', () => new nn.MultiHeadAttention(8, 2, 0, 4, 4), () => [paddle.randn([2, 3, 8]), paddle.randn([2, 5, 4]), paddle.randn([2, 5, 4])]],
    ['Transformer', () => new nn.Transformer(8, 2, 1, 1, 16, 0), () => [paddle.randn([2, 5, 8]), paddle.randn([2, 3, 8])]],
    ['Bilinear', () => new nn.Bilinear(3, 4, 2), () => [paddle.randn([5, 3]), paddle.randn([5, 4])]],
  ];
  for (const [name, make, inputs] of nets) {
    it(name, () => {
      const net = make();
      const out = net.call(...inputs());
      const first = (Array.isArray(out) ? out[0] : out) as Tensor;
      paddle.sum(paddle.square(first)).backward();
      for (const [n, p] of net.named_parameters()) {
        expect(p.grad, n).not.toBeNull();
        expect(arr(p.grad).some((v) => v !== 0), n).toBe(true);
      }
    });
  }
});

describe('paddle.summary', () => {
  it('prints one row per layer and returns the totals', () => {
    const lines: string[] = [];
    const net = new nn.Sequential(new nn.Conv2D(1, 4, 3), new nn.ReLU(), new nn.Flatten(), new nn.Linear(4 * 26 * 26, 10));
    const r = paddle.summary(net, [-1, 1, 28, 28], null, null, (s: string) => lines.push(s));
    expect(r).toEqual({ total_params: 4 * 9 + 4 + 4 * 26 * 26 * 10 + 10, trainable_params: 4 * 9 + 4 + 4 * 26 * 26 * 10 + 10 });
    const text = lines.join('\n');
    expect(text).toMatch(/Conv2D-1\s+\[\[1, 1, 28, 28\]\]\s+\[1, 4, 26, 26\]\s+40/);
    expect(text).toMatch(/Linear-4\s+\[\[1, 2704\]\]\s+\[1, 10\]\s+27,050/);
    expect(text).toContain('Total params: 27,090');
    const lstm = new nn.LSTM(3, 4);
    lstm.weight_ih_l0.stop_gradient = true;
    expect(paddle.summary(lstm, [2, 5, 3], null, null, () => {})).toEqual({ total_params: 48 + 64 + 16 + 16, trainable_params: 64 + 16 + 16 });
  });
});

// Deterministic weights and inputs; test/python/cases/test_nn_more_layers.py checks the same
// numbers from Python, so both languages' layers agree with each other.
const GOLDEN: Record<string, [number[], number]> = {
  lstm: [[0.064416, 0.158409, 0.065988, 0.128107], -1.66015], gru: [[-0.370317, -0.523627, -0.36382, 0.02633], -8.80455],
  rnn: [[1.047685, 0.204739, 0, 0], 2.65624], mha: [[0.483313, 0.543445, 0.530023, 0.444865], 12.37851],
  enc: [[-0.52752, -0.483616, -0.158793, -0.010176], -19.13824], transformer: [[0.430865, 0.667132, 0.825202, 0.756803], 10.0929],
  bilinear: [[0.437154, 0.387601, -0.016415, 0.591614], 3.65683],
};

describe('golden numbers shared with Python', () => {
  const det = (shape: number[], k: number) => paddle.reshape(paddle.to_tensor(Array.from({ length: shape.reduce((a, b) => a * b, 1) }, (_, i) => 0.5 * Math.sin(i * 0.37 + k)), 'float32'), shape);
  /** Parameter k (in named_parameters order) gets det(shape, k); RNN's second spelling of each tensor in state_dict gets the same. */
  const setAll = (net: any) => {
    const named: [string, Tensor][] = net.named_parameters();
    const sd: Record<string, Tensor> = {};
    named.forEach(([n, p], k) => { sd[n] = det(p.shape as number[], k); });
    for (const [n, p] of Object.entries(net.state_dict() as Record<string, Tensor>)) if (!(n in sd)) sd[n] = sd[named.find(([, q]) => q === p)![0]];
    net.set_state_dict(sd);
    return net;
  };
  const check = (name: string, t: Tensor) => {
    const a = arr(t);
    close(paddle.to_tensor(a.slice(0, 4)), GOLDEN[name][0], 2e-5);
    expect(Math.abs(a.reduce((s, v) => s + v, 0) - GOLDEN[name][1])).toBeLessThan(1e-3);
  };
  it('recurrent, attention, Transformer and Bilinear layers', () => {
    check('lstm', setAll(new nn.LSTM(3, 4, 2, 'bidirect')).call(det([2, 5, 3], 7), null, paddle.to_tensor([5, 3], 'int64'))[0]);
    check('gru', setAll(new nn.GRU(3, 4)).call(det([2, 5, 3], 7))[0]);
    check('rnn', setAll(new nn.SimpleRNN(3, 4, 1, 'forward', false, 0, 'relu')).call(det([2, 5, 3], 7))[1]);
    check('mha', setAll(new nn.MultiHeadAttention(8, 2)).call(det([2, 3, 8], 7), null, null, paddle.to_tensor([[true, false, true]])));
    check('enc', setAll(new nn.TransformerEncoderLayer(8, 2, 16, 0).eval()).call(det([2, 3, 8], 7)));
    const t = setAll(new nn.Transformer(8, 2, 1, 1, 16, 0, 'relu', null, null, true).eval());
    check('transformer', t.call(det([2, 3, 8], 7), det([2, 2, 8], 9), null, t.generate_square_subsequent_mask(2)));
    check('bilinear', setAll(new nn.Bilinear(3, 4, 2)).call(det([5, 3], 7), det([5, 4], 9)));
  });
});
