// Central finite differences against the tape's gradients, in float64. A record names an op,
// builds its output from input tensors, and says which inputs to differentiate. The loss is
// sum(out_i * R_i) with fixed random R_i, so every output element is weighed differently and a
// rule that mixes up elements cannot pass by symmetry.
import '../../src/autograd/index.js';
import { paddle } from '../../src/paddle.js';
import { scope, type Tensor } from '../../src/tensor/tensor.js';

export interface GradRecord {
  /** The registry op the record covers (one record per op at least). */
  op: string;
  /** Distinguishes several records of one op. */
  label?: string;
  /** Input values: a shape (random values), or explicit data with shape. */
  inputs: InputSpec[];
  /** Builds the output(s) from the input tensors. */
  fn: (...xs: Tensor[]) => Tensor | Tensor[];
  /** Inputs to check (default: every float64 input). */
  wrt?: number[];
  eps?: number;
  atol?: number;
  rtol?: number;
  /** Runs before every evaluation (random ops reseed here). */
  before?: () => void;
}

export type InputSpec =
  | { shape: number[]; lo?: number; hi?: number; dtype?: 'float64' }
  | { data: number[]; shape: number[]; dtype: 'float64' | 'int64' | 'int32' | 'bool' };

let seed = 12345;
/** Deterministic uniform in [lo, hi). */
export function rand(lo = -1, hi = 1): number {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return lo + (hi - lo) * (seed / 2147483648);
}

const numel = (s: number[]) => s.reduce((a, b) => a * b, 1);

interface Concrete { data: number[]; shape: number[]; dtype: string }

function concretize(spec: InputSpec): Concrete {
  if ('data' in spec) return { data: [...spec.data], shape: spec.shape, dtype: spec.dtype };
  const n = numel(spec.shape);
  return { data: Array.from({ length: n }, () => rand(spec.lo ?? -1, spec.hi ?? 1)), shape: spec.shape, dtype: 'float64' };
}

function toTensor(c: Concrete, requires: boolean): Tensor {
  const data = c.dtype === 'int64' ? c.data.map((v) => BigInt(v)) : c.dtype === 'bool' ? c.data.map(Boolean) : c.data;
  const t = paddle.to_tensor(data.length === 0 && c.shape.length ? [] : nest(data, c.shape), c.dtype) as Tensor;
  const r = t.shape.length === c.shape.length ? t : (paddle.reshape(t, c.shape) as Tensor);
  r.stop_gradient = !requires;
  return r;
}

function nest(flat: unknown[], shape: number[]): unknown {
  if (shape.length === 0) return flat[0];
  const step = numel(shape.slice(1));
  return Array.from({ length: shape[0] }, (_, i) => nest(flat.slice(i * step, (i + 1) * step), shape.slice(1)));
}

const outs = (r: Tensor | Tensor[]) => (Array.isArray(r) ? r : [r]);

export interface CheckResult { ok: boolean; message: string }

/** Runs one record: analytic gradients from backward vs central differences. */
export function checkRecord(rec: GradRecord): CheckResult {
  const xs = rec.inputs.map(concretize);
  const wrt = rec.wrt ?? xs.map((c, i) => (c.dtype === 'float64' ? i : -1)).filter((i) => i >= 0);
  const eps = rec.eps ?? 1e-6, atol = rec.atol ?? 1e-6, rtol = rec.rtol ?? 1e-5;
  // Output shapes and weights R.
  const weights: number[][] = scope(() => {
    rec.before?.();
    return outs(rec.fn(...xs.map((c) => toTensor(c, false)))).map((o) => Array.from({ length: o.size }, () => rand(0.5, 1.5)));
  });
  const loss = (ts: Tensor[]): Tensor => {
    rec.before?.();
    let total: Tensor | null = null;
    outs(rec.fn(...ts)).forEach((o, i) => {
      if (o.dtype !== 'float64') return;
      const w = paddle.reshape(paddle.to_tensor(weights[i].length ? weights[i] : [], 'float64'), o.shape) as Tensor;
      const s = paddle.sum(paddle.multiply(o, w)) as Tensor;
      total = total ? (paddle.add(total, s) as Tensor) : s;
    });
    if (!total) throw new Error('no float64 output');
    return total;
  };
  const analytic = scope(() => {
    const ts = xs.map((c, i) => toTensor(c, wrt.includes(i)));
    loss(ts).backward();
    return wrt.map((i) => (ts[i].grad ? (ts[i].grad!.dataSync() as number[]) : null));
  });
  const problems: string[] = [];
  wrt.forEach((i, k) => {
    const a = analytic[k];
    if (!a) { problems.push(`input ${i}: no gradient`); return; }
    for (let j = 0; j < xs[i].data.length; j++) {
      const v = xs[i].data[j];
      const f = (d: number) => scope(() => { xs[i].data[j] = v + d; return loss(xs.map((c) => toTensor(c, false))).item() as number; });
      const num = (f(eps) - f(-eps)) / (2 * eps);
      xs[i].data[j] = v;
      if (!(Math.abs(num - a[j]) <= atol + rtol * Math.abs(num))) problems.push(`input ${i}[${j}]: analytic ${a[j]} vs numeric ${num}`);
    }
  });
  return { ok: problems.length === 0, message: problems.slice(0, 6).join('\n') };
}

/**
 * Second order: with create_graph, s(x) = sum(dL/dx * V) is itself differentiated by the tape;
 * its gradient is checked against central differences of s. This is what makes rules written
 * with public ops pay off (higher-order gradients, gradient penalties).
 */
export function checkSecondOrder(rec: GradRecord): CheckResult {
  const xs = rec.inputs.map(concretize);
  const i = (rec.wrt ?? xs.map((c, k) => (c.dtype === 'float64' ? k : -1)).filter((k) => k >= 0))[0];
  const eps = rec.eps ?? 1e-5, atol = rec.atol ?? 1e-5, rtol = rec.rtol ?? 1e-4;
  const weights: number[][] = scope(() => {
    rec.before?.();
    return outs(rec.fn(...xs.map((c) => toTensor(c, false)))).map((o) => Array.from({ length: o.size }, () => rand(0.5, 1.5)));
  });
  const v = xs[i].data.map(() => rand(0.5, 1.5));
  const s = (ts: Tensor[]): Tensor => {
    rec.before?.();
    let total: Tensor | null = null;
    outs(rec.fn(...ts)).forEach((o, k) => {
      if (o.dtype !== 'float64') return;
      const w = paddle.reshape(paddle.to_tensor(weights[k], 'float64'), o.shape) as Tensor;
      const t = paddle.sum(paddle.multiply(o, w)) as Tensor;
      total = total ? (paddle.add(total, t) as Tensor) : t;
    });
    const [g] = paddle.grad(total!, ts[i], { create_graph: true }) as Tensor[];
    return paddle.sum(paddle.multiply(g, paddle.reshape(paddle.to_tensor(v, 'float64'), g.shape))) as Tensor;
  };
  const fresh = () => xs.map((c, k) => toTensor(c, k === i));
  const analytic = scope(() => {
    const ts = fresh();
    const st = s(ts);
    // A gradient linear in x (multiply, matmul, sum, ...) does not depend on x at all: s is a constant.
    if (st.stop_gradient) return xs[i].data.map(() => 0);
    const [h] = paddle.grad(st, ts[i], { allow_unused: true }) as (Tensor | null)[];
    return h ? (h.dataSync() as number[]) : xs[i].data.map(() => 0);  // unused: the first derivative is constant
  });
  const problems: string[] = [];
  for (let j = 0; j < xs[i].data.length; j++) {
    const x0 = xs[i].data[j];
    const f = (d: number) => scope(() => { xs[i].data[j] = x0 + d; return s(fresh()).item() as number; });
    const num = (f(eps) - f(-eps)) / (2 * eps);
    xs[i].data[j] = x0;
    if (!(Math.abs(num - analytic[j]) <= atol + rtol * Math.abs(num))) problems.push(`input ${i}[${j}]: analytic ${analytic[j]} vs numeric ${num}`);
  }
  return { ok: problems.length === 0, message: problems.slice(0, 6).join('\n') };
}

/** A float64 leaf whose elements sit at every other position of a wider buffer (a strided view). */
function stridedLeaf(c: Concrete): Tensor {
  const last = c.shape[c.shape.length - 1];
  const wide = [...c.shape.slice(0, -1), 2 * last];
  const data: number[] = [];
  for (let i = 0; i < c.data.length; i++) data.push(c.data[i], 1e3);   // the gaps hold a value no rule should see
  const base = paddle.reshape(paddle.to_tensor(data, 'float64'), wide) as Tensor;
  const v = paddle.strided_slice(base, [c.shape.length - 1], [0], [2 * last], [2]) as Tensor;
  v.stop_gradient = false;
  return v;
}

/**
 * The same record with every float64 input passed as a strided view: its gradients must equal
 * the contiguous run's (which checkRecord verifies against finite differences). Records with no
 * float64 input of rank >= 1 and size > 0 have nothing to vary (`skipped`).
 */
export function checkStrided(rec: GradRecord): CheckResult & { skipped?: boolean } {
  const xs = rec.inputs.map(concretize);
  const wrt = rec.wrt ?? xs.map((c, i) => (c.dtype === 'float64' ? i : -1)).filter((i) => i >= 0);
  const varied = (c: Concrete, i: number) => wrt.includes(i) && c.shape.length > 0 && c.data.length > 0;
  if (!xs.some(varied)) return { ok: true, message: '', skipped: true };
  const grads = (strided: boolean): (number[] | null)[] => scope(() => {
    rec.before?.();
    const ts = xs.map((c, i) => (strided && varied(c, i) ? stridedLeaf(c) : toTensor(c, wrt.includes(i))));
    let total: Tensor | null = null;
    outs(rec.fn(...ts)).forEach((o, k) => {
      if (o.dtype !== 'float64') return;
      const w = paddle.scale(paddle.cast(paddle.reshape(paddle.arange(0, o.size, 1, 'int64'), o.shape), 'float64'), 0.1, 1) as Tensor;
      const s = paddle.sum(paddle.multiply(o, w)) as Tensor;
      total = total ? (paddle.add(total, s) as Tensor) : s;
      void k;
    });
    if (!total) throw new Error('no float64 output');
    (total as Tensor).backward();
    return wrt.map((i) => (ts[i].grad ? (ts[i].grad!.dataSync() as number[]) : null));
  });
  const want = grads(false), got = grads(true);
  const problems: string[] = [];
  wrt.forEach((i, k) => {
    const a = want[k], b = got[k];
    if (!a || !b) { if (a !== b) problems.push(`input ${i}: gradient ${b ? 'present' : 'missing'} with strided inputs only`); return; }
    if (a.length !== b.length) { problems.push(`input ${i}: ${b.length} gradient elements vs ${a.length}`); return; }
    for (let j = 0; j < a.length; j++) if (!(Math.abs(a[j] - b[j]) <= 1e-12 + 1e-9 * Math.abs(a[j]))) problems.push(`input ${i}[${j}]: strided ${b[j]} vs contiguous ${a[j]}`);
  });
  return { ok: problems.length === 0, message: problems.slice(0, 6).join('\n') };
}

/**
 * The same record with every random-valued input made 0-dim, checked against finite differences.
 * A record whose `fn` does not accept 0-dim inputs (a fixed reshape, a conv) is `skipped`.
 */
export function checkZeroDim(rec: GradRecord): CheckResult & { skipped?: boolean } {
  if (!rec.inputs.some((s) => !('data' in s) && s.shape.length > 0)) return { ok: true, message: '', skipped: true };
  const zero: GradRecord = { ...rec, inputs: rec.inputs.map((s) => ('data' in s ? s : { ...s, shape: [] })) };
  try {
    scope(() => { zero.before?.(); zero.fn(...zero.inputs.map((s) => toTensor(concretize(s), false))); });
  } catch {
    return { ok: true, message: '', skipped: true };
  }
  return checkRecord(zero);
}
