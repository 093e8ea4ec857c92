// Numerical equivalence: programs run through the executor before and after the inference (and
// training) pipeline give the same results on random inputs, at two batch sizes. The models
// are recorded from the public API (test/passes/models.ts); a variant adds clumsy ops that
// canonicalization and constant folding must remove.
import { describe, expect, it } from 'vitest';
import { compile, fromPir } from '../../src/executor/index.js';
import { type Builder, type Program, type Value } from '../../src/pir/index.js';
import { runPipeline } from '../../src/passes/index.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { expectAllClose, randTensor } from '../executor/helpers.js';
import { buildModel, MODELS, type ModelSpec } from './models.js';

function run(p: Program, params: Record<string, Tensor>, x: Tensor): Tensor {
  const g = fromPir(p);
  const exe = compile(g.graph, { params: [...g.params.map((n) => params[n]), ...g.constants] });
  const [out] = exe.run([x]);
  exe.dispose();
  for (const c of g.constants) c.dispose();
  return out;
}

function randomParams(spec: ModelSpec): Record<string, Tensor> {
  const out: Record<string, Tensor> = {};
  let seed = 100;
  for (const [n, shape] of Object.entries(spec.params)) out[`${spec.name}.${n}`] = randTensor(shape, seed++);
  return out;
}

/** out * (2 * 0.5) + (transpose(transpose(zeros))) : folds to nothing. */
function clumsy(b: Builder, out: Value): Value {
  const t = out.type.kind === 'tensor' ? out.type : null;
  if (!t) throw new Error('tensor expected');
  const two = b.scalar(2, 'float32');
  const [half] = b.pd('full', [], { shape: [], fill_value: 0.5, dtype: 'float32' });
  const [one] = b.pd('multiply', [two, half]);
  const [scaled] = b.pd('multiply', [out, one]);
  const last = t.shape[t.shape.length - 1] as number;
  const [z] = b.pd('full', [], { shape: [2, last], fill_value: 0, dtype: 'float32' });
  const [zt] = b.pd('transpose', [z], { perm: [1, 0] });
  const [ztt] = b.pd('transpose', [zt], { perm: [1, 0] });
  const [row] = b.pd('slice', [ztt], { axes: [0], starts: [0], ends: [1] });
  const [sum] = b.pd('add', [scaled, row]);
  const [cast] = b.pd('cast', [sum], { dtype: 'float32' });
  return cast;
}

const count = (p: Program, name: string): number => p.allOps().filter((o) => o.name === name).length;

describe('passes keep results (executor before/after)', () => {
  for (const spec of MODELS) {
    for (const pipeline of ['inference', 'training']) {
      it(`${spec.name}, ${pipeline} pipeline`, () => {
        const before = buildModel(spec, spec.name === 'mlp' ? clumsy : undefined);
        const after = before.clone();
        const stats = runPipeline(after, pipeline, { verify: true });
        expect(stats.map((s) => s.pass)[0]).toBe('canonicalize');
        // A second run finds nothing left to do (the pipeline reaches its fixed point).
        expect(runPipeline(after, pipeline).map((s) => s.rewrites)).toEqual(stats.map(() => 0));
        expect(after.allOps().length).toBeLessThan(before.allOps().length + 1);
        const fused = count(after, 'pd_op.fused_gemm_epilogue');
        if (pipeline === 'inference') expect(fused).toBeGreaterThan(0);
        else expect(fused).toBe(0);
        if (spec.name === 'mlp') {
          // The clumsy tail is gone: no transpose, cast, full or constant left.
          for (const n of ['pd_op.transpose', 'pd_op.cast', 'pd_op.full', 'builtin.constant', 'pd_op.slice']) expect(count(after, n), n).toBe(0);
        }
        const params = randomParams(spec);
        for (const [batch, seed] of [[2, 1], [5, 2]]) {
          const x = randTensor([batch, ...spec.inTail], seed);
          const want = run(before, params, x);
          const got = run(after, params, x);
          expectAllClose(got, want, `${spec.name} batch ${batch}`, 1e-5);
          want.dispose(); got.dispose(); x.dispose();
        }
        for (const t of Object.values(params)) t.dispose();
      });
    }
  }

  it('fuses every linear layer of the transformer block (q, k, v, o, two MLP layers, gelu folded in)', () => {
    const p = buildModel(MODELS[2]);
    runPipeline(p, 'inference', { verify: true });
    const fused = p.allOps().filter((o) => o.name === 'pd_op.fused_gemm_epilogue');
    expect(fused.length).toBe(6);
    expect(fused.map((o) => (o.attr('activation') as { value: string }).value).sort()).toEqual(['gelu', 'none', 'none', 'none', 'none', 'none']);
    expect(count(p, 'pd_op.gelu')).toBe(0);
  });
});
