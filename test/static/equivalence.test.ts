// Eager vs paddle.static for every op record: each sample is built as a static program (a
// paddle.static.data per input, the op called through the public dispatcher so the static
// recorder records it, its outputs fetched), run by paddle.static.Executor, and compared with
// the eager result. Strided samples are fed as non-contiguous tensors; where the op's infer
// accepts it, the program is built again with input 0's leading dim unknown (a symbol) and
// run on the same data. Random ops are compared by shape and dtype only. Ops without tensor
// inputs (creation ops) run eagerly under the recorder, so they are built with the program's
// Builder instead: the same pd op the recorder would emit.
import { afterAll, describe, expect, it } from 'vitest';
import { getOp, runOp } from '../../src/ops/index.js';
import type { Value } from '../../src/pir/index.js';
import { Executor, Program, program_guard, data, staticExecutorStats } from '../../src/static/index.js';
import { type DType } from '../../src/tensor/dtype.js';
import { scope, Tensor } from '../../src/tensor/tensor.js';
import { arrayOf, expectClose, tensorOf } from '../ops/harness.js';
import { opRecords, type OpRecord, type Sample } from '../ops/op_db.js';
import type { NDArray } from '../ops/ref.js';

type In = NDArray | NDArray[] | null;

const exe = new Executor();
const covered = { recorded: new Set<string>(), built: new Set<string>(), randomShapeOnly: new Set<string>(), skipped: new Map<string, string>() };
let samples = 0, symbolic = 0;

function eagerRun(op: string, inputs: In[], attrs: Record<string, unknown>, strided: boolean): { arrays: NDArray[] } {
  return scope(() => {
    const flat: (Tensor | null)[] = [];
    inputs.forEach((x, i) => {
      if (x === null) flat.push(null);
      else if (Array.isArray(x)) for (const t of x) flat.push(tensorOf(t));
      else flat.push(tensorOf(x, strided && i === 0));
    });
    return { arrays: (runOp(op, flat, attrs) as Tensor[]).map(arrayOf) };
  });
}

/** Builds and runs the static program of one sample; `symbolicLead` makes input 0's first dim unknown. */
function staticRun(op: string, inputs: In[], attrs: Record<string, unknown>, strided: boolean, symbolicLead: boolean): NDArray[] {
  const prog = new Program();
  try {
    const feed: Record<string, Tensor> = {};
    const made: Tensor[] = [];
    let outs: Value[] = [];
    let k = 0;
    const feedOf = (x: NDArray, stridedView: boolean, lead: boolean): Value => {
      const name = `in${k++}`;
      const t = tensorOf(x, stridedView);
      made.push(t);
      feed[name] = t;
      const shape = x.shape.map((d, i) => (lead && i === 0 ? null : d));
      return data(name, shape, x.dtype as DType);
    };
    program_guard(prog, () => {
      const vals: (Value | Value[] | null)[] = inputs.map((x, i) =>
        x === null ? null : Array.isArray(x) ? x.map((t) => feedOf(t, false, false)) : feedOf(x, strided && i === 0, symbolicLead && i === 0));
      if (inputs.length === 0) outs = prog.builder.pd(op, [], attrs);
      else outs = runOp(op, vals.flatMap((v) => (Array.isArray(v) ? v : [v])), attrs) as Value[];
    });
    try {
      return scope(() => exe.run(prog, { feed, fetch_list: outs }).map(arrayOf));
    } finally {
      for (const t of made) t.dispose();
    }
  } finally {
    prog.dispose();
  }
}

function compare(rec: OpRecord, got: NDArray[], want: NDArray[], label: string): void {
  expect(got.length, `${label}: number of outputs`).toBe(want.length);
  const random = getOp(rec.op).random;
  want.forEach((w, i) => {
    if (random) {
      expect(got[i].shape, `${label} out${i}: shape`).toEqual(w.shape);
      expect(got[i].dtype, `${label} out${i}: dtype`).toBe(w.dtype);
    } else expectClose(got[i], w, `${label} out${i}`, rec.atol, rec.rtol);
  });
}

/**
 * True when the op builds with input 0's leading dim unknown (its infer may need it concrete)
 * and the static dims it infers then agree with this sample's eager outputs. A size-1 dim is
 * left alone: it may broadcast, which a symbol (assumed equal to its partner) does not express.
 * Symbolic slices take small literal bounds as given (guarded when the graph runs); samples that
 * slice past the end of the dim are outside those assumptions and fail the agreement check.
 */
function buildsSymbolic(op: string, inputs: In[], attrs: Record<string, unknown>, want: NDArray[]): boolean {
  const x = inputs[0];
  if (!x || Array.isArray(x) || x.shape.length === 0 || x.shape[0] === 1) return false;
  const prog = new Program();
  try {
    let outs: Value[] = [];
    program_guard(prog, () => {
      const vals = inputs.map((t, i) => (t === null ? null : Array.isArray(t) ? t.map((u, j) => data(`v${i}_${j}`, u.shape, u.dtype as DType))
        : data(`in${i}`, t.shape.map((d, a) => (i === 0 && a === 0 ? null : d)), t.dtype as DType)));
      outs = runOp(op, vals.flatMap((v) => (Array.isArray(v) ? v : [v])), attrs) as Value[];
    });
    return outs.length === want.length && outs.every((v, i) => v.shape.length === want[i].shape.length &&
      v.shape.every((d, k) => typeof d !== 'number' || d === want[i].shape[k]));
  } catch {
    return false;
  } finally {
    prog.dispose();
  }
}

function checkSample(rec: OpRecord, s: Sample, i: number): void {
  const attrs = s.attrs ?? {};
  const label = `${rec.op} sample ${i}${s.note ? ` (${s.note})` : ''}`;
  const want = eagerRun(rec.op, s.inputs, attrs, false).arrays;
  compare(rec, staticRun(rec.op, s.inputs, attrs, false, false), want, label);
  samples++;
  if (s.strided) compare(rec, staticRun(rec.op, s.inputs, attrs, true, false), want, `${label} strided`);
  if (s.inputs.length && buildsSymbolic(rec.op, s.inputs, attrs, want)) {
    compare(rec, staticRun(rec.op, s.inputs, attrs, false, true), want, `${label} symbolic lead`);
    symbolic++;
  }
}

describe('eager == paddle.static for every op record', () => {
  for (const rec of opRecords()) {
    it(rec.op, (ctx) => {
      if (rec.noStatic) {
        covered.skipped.set(rec.op, rec.noStatic);
        ctx.skip(rec.noStatic);
        return;
      }
      rec.samples.forEach((s, i) => checkSample(rec, s, i));
      const def = getOp(rec.op);
      if (def.inputs.length === 0) covered.built.add(rec.op);
      else covered.recorded.add(rec.op);
      if (def.random) covered.randomShapeOnly.add(rec.op);
    });
  }

  it('covers the op table', () => {
    const n = covered.recorded.size + covered.built.size;
    console.log(`paddle.static equivalence: ${n} ops (${covered.recorded.size} recorded through the public API, ${covered.built.size} creation ops built with the Builder; ` +
      `${covered.randomShapeOnly.size} random ops checked by shape and dtype), ${samples} samples, ${symbolic} also with a symbolic leading dim; ` +
      `${covered.skipped.size} skipped (noStatic)${covered.skipped.size ? `: ${[...covered.skipped.keys()].join(', ')}` : ''}`);
    expect(n + covered.skipped.size).toBe(new Set(opRecords().map((r) => r.op)).size);
    expect(staticExecutorStats.compiled).toBeGreaterThan(0);
  });
});

afterAll(() => exe.close());
