// Fused F.scaled_dot_product_attention (online softmax over key blocks, no [seq, seq] matrix)
// against the same attention from unfused eager ops (transpose, matmul, scale, softmax, matmul,
// transpose), float32, [batch, seq, heads, head_dim], whole pool. GF/s counts the two matmuls
// (4 * B * H * Sq * Sk * D flops; half of that with is_causal, whose masked half neither computes
// usefully). Writes the "Attention" section.   Run: npx tsx bench/attention.ts
import os from 'node:os';
import { native } from '../src/native.js';
import { paddle } from '../src/paddle.js';
import { scope, type Tensor } from '../src/tensor/tensor.js';
import { table, writeSection, timeCalls } from './results.js';

interface Case { shape: [number, number, number, number]; causal: boolean }
const cases: Case[] = [
  { shape: [8, 128, 12, 64], causal: false },
  { shape: [4, 256, 8, 64], causal: false },
  { shape: [1, 1024, 8, 64], causal: false },
  { shape: [1, 1024, 8, 64], causal: true },
  { shape: [1, 2048, 4, 64], causal: true },
];


const F = paddle.nn.functional;
const P = paddle as unknown as Record<string, (...a: unknown[]) => Tensor>;
const rows: (string | number)[][] = [];
for (const c of cases) {
  const [B, S, H, D] = c.shape;
  const q = paddle.rand(c.shape, 'float32') as Tensor, k = paddle.rand(c.shape, 'float32') as Tensor, v = paddle.rand(c.shape, 'float32') as Tensor;
  const causalBias = c.causal ? P.triu(P.full([S, S], -Infinity, 'float32'), 1) : null;
  const fused = () => F.scaled_dot_product_attention(q, k, v, null, 0, c.causal) as Tensor;
  const unfused = () => {
    const t = (x: Tensor) => P.transpose(x, [0, 2, 1, 3]);
    let s = P.scale(P.matmul(t(q), t(k), false, true), 1 / Math.sqrt(D));
    if (causalBias) s = P.add(s, causalBias);
    return t(P.matmul(F.softmax(s, -1) as Tensor, t(v)));
  };
  const diff = scope(() => (P.max(P.abs(P.subtract(fused(), unfused()))) as Tensor).item() as number);
  const gf = (4 * B * H * S * S * D * (c.causal ? 0.5 : 1)) / 1e9;
  const tf = timeCalls(() => scope(() => { fused(); }), { minMs: 600, maxReps: 100 }).med;
  const tu = timeCalls(() => scope(() => { unfused(); }), { minMs: 600, maxReps: 100 }).med;
  rows.push([JSON.stringify(c.shape), c.causal ? 'yes' : 'no', tf.toPrecision(3), gf / (tf / 1e3), tu.toPrecision(3), gf / (tu / 1e3), (tu / tf).toFixed(2),
    `${((B * H * S * S * 4) / 2 ** 20).toFixed(0)} MB`, diff.toExponential(1)]);
  console.log(rows[rows.length - 1].join('  '));
  q.dispose(); k.dispose(); v.dispose(); causalBias?.dispose();
}

writeSection('Attention', `\`F.scaled_dot_product_attention\` (fused native kernel) against the unfused eager ops
(transpose, matmul, scale, [+ causal bias], softmax, matmul, transpose), float32, ${native.numThreads()} threads, ms per call
(median). GF/s counts the two products (halved for causal). speedup = unfused ms / fused ms; "scores" is the
[B, H, S, S] float32 matrix the unfused path materialises and the fused kernel never does.
Load average when measured: ${os.loadavg().map((v) => v.toFixed(1)).join(' / ')}.

${table(['q/k/v shape', 'causal', 'fused ms', 'fused GF/s', 'unfused ms', 'unfused GF/s', 'speedup', 'scores', 'max abs diff'], rows)}`);
