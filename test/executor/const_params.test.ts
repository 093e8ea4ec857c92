// Executables compiled with constantParams (the predictor, paddle.jit.load) let GEMM kernels pack
// a constant weight once (native/src/const_cache.h, native/gemm/gemm_packed.h). The packed path
// must give bit-identical results to packing per call, pack each weight once per process (not per
// run or per input signature), follow a different tensor bound to the same parameter, and stay
// off for executables whose parameters may change. Also: per-instruction profiles.
import { describe, expect, it } from 'vitest';
import { compile, formatProfile, GraphBuilder, profileByOp } from '../../src/executor/index.js';
import { native } from '../../src/native.js';
import { paddle } from '../../src/paddle.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { sym } from '../../src/tensor/shape.js';
import { flat, randTensor } from './helpers.js';

/** x [B, 48] -> matmul(x, W1 [40, 48], transpose_y) -> relu -> fused_gemm_epilogue(W2 [40, 36], b) (symbolic batch). */
function mlp() {
  const b = new GraphBuilder();
  const x = b.input('float32', [sym('s0'), 48]);
  const w1 = b.param('float32', [40, 48]), w2 = b.param('float32', [40, 36]), bias = b.param('float32', [36]);
  const h = b.op1('relu', [b.op1('matmul', [x, w1], { transpose_x: false, transpose_y: true })]);
  b.output(b.op1('fused_gemm_epilogue', [h, w2, bias], { trans_x: false, trans_y: false, activation: 'none' }));
  return b.build();
}

const built = (): number => native.constCacheStats().built;

describe('constant parameters: GEMM weights packed once', () => {
  const params = [randTensor([40, 48], 2), randTensor([40, 36], 3), randTensor([36], 4)];

  it('equal bits to the per-call packing, one pack per weight across runs and batch sizes', () => {
    const plain = compile(mlp(), { params });
    const frozen = compile(mlp(), { params, constantParams: true });
    const before = built();
    for (const batch of [5, 33, 64, 5]) {
      const x = randTensor([batch, 48], batch);
      const [a] = plain.run([x]), [b] = frozen.run([x]);
      expect(flat(b), `batch ${batch}`).toEqual(flat(a));
      for (const t of [a, b, x]) t.dispose();
    }
    // Batch 5 runs at 5*40*48 < 32^3 (direct path: nothing packed); 33 and 64 pack W1 and W2 once.
    expect(built() - before).toBe(2);
    plain.dispose();
    frozen.dispose();
  });

  it('a [batch, seq, K] input folded into one tall GEMM uses the packed weight too', () => {
    const g = (() => {
      const b = new GraphBuilder();
      const x = b.input('float32', [sym('s0'), 7, 48]);
      const w = b.param('float32', [40, 48]);
      b.output(b.op1('matmul', [x, w], { transpose_x: false, transpose_y: true }));
      return b.build();
    })();
    const w = [randTensor([40, 48], 21)];
    const plain = compile(g, { params: w }), frozen = compile(g, { params: w, constantParams: true });
    const before = built();
    const x = randTensor([6, 7, 48], 22);
    const [a] = plain.run([x]), [b] = frozen.run([x]);
    expect(flat(b)).toEqual(flat(a));
    expect(built() - before).toBe(1);
  });

  it('a wide weight (columns split across threads when packed) gives the same bits', () => {
    // [64, 192] x [4000, 192]^T, an LM head's shape scaled down: enough work for two threads.
    const b = new GraphBuilder();
    const x = b.input('float32', [64, 192]);
    const w = b.param('float32', [4000, 192]);
    b.output(b.op1('matmul', [x, w], { transpose_x: false, transpose_y: true }));
    const g = b.build();
    paddle.seed(31);
    const ws = [paddle.randn([4000, 192]) as Tensor];
    const threads = native.numThreads();
    native.numThreads(2);
    try {
      const X = paddle.randn([64, 192]) as Tensor;
      const [a] = compile(g, { params: ws }).run([X]);
      const [c] = compile(g, { params: ws, constantParams: true }).run([X]);
      const bytes = (t: Tensor) => { const f = t.rawData() as Float32Array; return Buffer.from(f.buffer, f.byteOffset, f.byteLength); };
      expect(bytes(c).equals(bytes(a))).toBe(true);
    } finally {
      native.numThreads(threads);
    }
  });

  it('a different tensor bound to the parameter is packed anew (never a stale weight)', () => {
    const frozen = compile(mlp(), { params, constantParams: true });
    const x = randTensor([64, 48], 9);
    const [a] = frozen.run([x]);
    const other = [randTensor([40, 48], 12), params[1], params[2]];
    const [b] = frozen.run([x], other);
    const [want] = compile(mlp(), { params: other }).run([x]);
    expect(flat(b)).toEqual(flat(want));
    expect(flat(b)).not.toEqual(flat(a));
    frozen.dispose();
  });

  it('executables without constantParams never cache', () => {
    const plain = compile(mlp(), { params });
    const before = built();
    const x = randTensor([64, 48], 10);
    plain.run([x]);
    plain.run([x]);
    expect(built()).toBe(before);
    plain.dispose();
  });

  it('profile: one median per instruction, per-op totals and a text report', () => {
    const exe = compile(mlp(), { params, constantParams: true });
    const x = randTensor([64, 48], 11);
    const prof = exe.profile([x], 3);
    expect(prof.runs).toBe(3);
    expect(prof.ns.length).toBe(prof.lowered.instrs.length);
    expect([...prof.ns].every((v) => v >= 0)).toBe(true);
    expect(profileByOp(prof).map((o) => o.op).sort()).toEqual(['fused_gemm_epilogue', 'matmul', 'relu']);
    expect(formatProfile(prof)).toMatch(/3 runs: run\(\) median .* µs, instructions .* µs per run \(3 instructions\)\ntop instructions/);
    expect(() => exe.profile([x], 0)).toThrow(/runs must be a positive integer, got 0/);
    exe.dispose();
  });
});
