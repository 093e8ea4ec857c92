// Eager dispatch: infer-meta, then a view or one native kernel call on handles.
// Hooks let other layers intercept without src/ops importing them: the static/PIR recorder
// (inputs that are not eager Tensors) and autograd (recording the tape).
import { native } from '../native.js';
import { DTYPE_CODE } from '../tensor/dtype.js';
import { isStatic, ShapeError, shapeStr } from '../tensor/shape.js';
import { Tensor } from '../tensor/tensor.js';
import { getOp } from './registry.js';
import type { AttrValue, Attrs, OpDef, TensorMeta } from './types.js';

/** Anything ops accept as a tensor input: eager Tensors, or symbolic values of a program being built. */
export interface TensorLike { readonly dtype: TensorMeta['dtype']; readonly shape: TensorMeta['shape'] }

export interface StaticRecorder {
  /** Records `def` applied to inputs; returns the op's outputs as symbolic values. */
  record(def: OpDef, inputs: readonly (TensorLike | null)[], attrs: Attrs, outs: TensorMeta[]): TensorLike[];
}
export interface AutogradHook {
  /** Called after an eager op ran; may attach grad nodes to outputs. */
  onOp(def: OpDef, inputs: readonly (Tensor | null)[], attrs: Attrs, outputs: Tensor[]): void;
  /**
   * Called before an eager inplace op writes input 0 (it may save x's old value or reject the
   * write); the callback it returns runs after the write, with x.
   */
  beforeInplace?(def: OpDef, inputs: readonly (Tensor | null)[], attrs: Attrs): ((x: Tensor) => void) | null;
  /** Rejects writing x in place (`name` is the inplace op) where autograd forbids it: a leaf that wants gradients. */
  checkInplace?(name: string, x: Tensor): void;
}

let recorder: StaticRecorder | null = null;
let autograd: AutogradHook | null = null;
export function setStaticRecorder(r: StaticRecorder | null): StaticRecorder | null { const p = recorder; recorder = r; return p; }
export function setAutogradHook(h: AutogradHook | null): AutogradHook | null { const p = autograd; autograd = h; return p; }
export const getStaticRecorder = (): StaticRecorder | null => recorder;

/** The profiler's view of dispatch (src/profiler): enter() before an eager op, exit() after it. */
export interface OpProfiler {
  enter(): number;
  exit(kind: 'op', name: string, t0: number): void;
}
// Null unless a profiler runs: the eager path pays one null check for it.
let profiler: OpProfiler | null = null;
export function setOpProfiler(p: OpProfiler | null): OpProfiler | null { const prev = profiler; profiler = p; return prev; }

// Scratch shared with native/src/addon.cc (runAlloc). Sized for the largest op call (concat of
// many tensors, long attribute lists); overflow is checked on the native side.
const SCRATCH_I = new Int32Array(4096);
const SCRATCH_D = new Float64Array(16384);
native.setScratch(SCRATCH_I, SCRATCH_D);

/** Counters observable by tests: eager kernel launches and views made. */
export const dispatchCounters = { kernels: 0, views: 0 };

const kernelIds = new WeakMap<OpDef, number>();
function kernelOf(def: OpDef): number {
  let id = kernelIds.get(def);
  if (id === undefined) {
    id = native.kernelId(def.kernel ?? def.name);
    if (id < 0) throw new Error(`op '${def.name}' has no native kernel '${def.kernel ?? def.name}'`);
    kernelIds.set(def, id);
  }
  return id;
}

/** Fills defaults and rejects unknown or missing attributes, naming the op. */
export function resolveAttrs(def: OpDef, given: Readonly<Record<string, unknown>>): Attrs {
  const out: Record<string, AttrValue> = {};
  for (const a of def.attrs) {
    const v = given[a.name];
    if (v === undefined) {
      if (a.default === undefined) throw new TypeError(`${def.name}: missing required attribute '${a.name}'`);
      out[a.name] = a.default;
    } else out[a.name] = v as AttrValue;
  }
  for (const k of Object.keys(given)) {
    if (!(k in out)) throw new TypeError(`${def.name}: unexpected attribute '${k}' (expected ${def.attrs.map((a) => a.name).join(', ') || 'none'})`);
  }
  return out;
}

/** Default native attribute layout: declaration order; lists as [length, ...items]; null as NaN; dtype as its code. */
export function encodeAttrs(def: OpDef, attrs: Attrs, ins: readonly TensorMeta[]): number[] {
  if (def.encode) return def.encode(attrs, ins);
  const out: number[] = [];
  for (const a of def.attrs) {
    const v = attrs[a.name];
    if (v === null) out.push(NaN);
    else if (typeof v === 'boolean') out.push(v ? 1 : 0);
    else if (typeof v === 'number') out.push(v);
    else if (Array.isArray(v)) out.push(v.length, ...v);
    else if (a.type === 'dtype') out.push(DTYPE_CODE[v as keyof typeof DTYPE_CODE]);
    else throw new TypeError(`${def.name}: attribute '${a.name}' (${a.type}) needs a custom encode for the native kernel`);
  }
  return out;
}

/**
 * Runs op `name` on inputs with already-resolved attributes. Returns all outputs.
 * Inputs that are not eager Tensors go to the static recorder (paddle.static / capture).
 */
export function runOpDef(def: OpDef, inputs: readonly (TensorLike | null)[], attrs: Attrs): TensorLike[] {
  // Ops recorded into a program (static mode, SOT translation) run nothing: not profiled.
  if (profiler !== null && recorder === null) return profiledRunOpDef(profiler, def, inputs, attrs);
  return runOpDefBody(def, inputs, attrs);
}

// Kept out of runOpDef so the common path stays a small function V8 inlines (no try/finally).
function profiledRunOpDef(p: OpProfiler, def: OpDef, inputs: readonly (TensorLike | null)[], attrs: Attrs): TensorLike[] {
  const t0 = p.enter();
  try {
    return runOpDefBody(def, inputs, attrs);
  } finally {
    p.exit('op', def.name, t0);
  }
}

function runOpDefBody(def: OpDef, inputs: readonly (TensorLike | null)[], attrs: Attrs): TensorLike[] {
  let eager = true;
  for (const x of inputs) if (x !== null && !(x instanceof Tensor)) { eager = false; break; }
  const metas = inputs as readonly TensorMeta[];
  let outs: TensorMeta[];
  try {
    outs = def.infer(metas, attrs);
  } catch (e) {
    throw nameOp(def, e);
  }
  if (!eager || recorder) {
    if (!recorder) throw new Error(`${def.name}: symbolic input outside of a program being built`);
    return recorder.record(def, inputs, attrs, outs);
  }
  const ts = inputs as readonly (Tensor | null)[];
  let results: Tensor[];
  if (def.view && ts[0]) {
    const x = ts[0];
    const spec = def.view({ dtype: x.dtype, shape: x.shape, strides: x.strides, offset: x.offset }, attrs);
    if (spec) {
      dispatchCounters.views++;
      const h = native.view(x.h(def.name), spec.shape, spec.strides, spec.offset);
      const t = new Tensor(h, x.dtype, spec.shape, spec.strides, spec.offset);
      t._base = x._base ?? x;
      results = [t];
      if (autograd) autograd.onOp(def, ts, attrs, results);
      return results;
    }
  }
  const enc = encodeAttrs(def, attrs, metas);
  let specLen = 0;
  for (const m of outs) specLen += 2 + m.shape.length;
  if (ts.length + outs.length > SCRATCH_I.length || enc.length + specLen > SCRATCH_D.length) {
    if (def.dynamicShape) throw new Error(`${def.name}: too many inputs or attributes for a data-dependent-shape op`);
    results = runWithArrays(def, ts, outs, enc);
    dispatchCounters.kernels++;
    if (autograd) autograd.onOp(def, ts, attrs, results);
    return results;
  }
  // One native call: input handles, attrs and output specs go through the shared scratch arrays.
  let ni = 0;
  for (const x of ts) if (x) SCRATCH_I[ni++] = x.h(def.name);
  let pos = 0;
  for (; pos < enc.length; pos++) SCRATCH_D[pos] = enc[pos];
  const nAttrs = pos;
  for (const m of outs) {
    // Symbolic dims of a dynamicShape op go as -1: the kernel allocates that output (types.ts).
    if (!def.dynamicShape && !isStatic(m.shape)) throw new Error(`${def.name}: eager output shape ${shapeStr(m.shape)} is not concrete`);
    SCRATCH_D[pos++] = DTYPE_CODE[m.dtype];
    SCRATCH_D[pos++] = m.shape.length;
    for (const d of m.shape) SCRATCH_D[pos++] = typeof d === 'number' ? d : -1;
  }
  try {
    native.runAlloc(kernelOf(def), ni, outs.length, nAttrs);
  } catch (e) {
    throw rethrow(def, e);
  }
  results = new Array<Tensor>(outs.length);
  for (let i = 0; i < outs.length; i++) {
    const h = SCRATCH_I[ni + i];
    const shape = isStatic(outs[i].shape) ? outs[i].shape as number[] : native.meta(h).shape;
    results[i] = new Tensor(h, outs[i].dtype, shape);
  }
  dispatchCounters.kernels++;
  if (autograd) autograd.onOp(def, ts, attrs, results);
  return results;
}

/**
 * The inplace variant `<name>_` of an op (add_, relu_, scale_, set_value for __setitem__): the
 * result is written into input 0, which is returned. As in Paddle the result must keep x's shape
 * and dtype (add_ cannot broadcast x up). The kernel writes straight into x's storage when it
 * can (x contiguous, or a kernel that writes strided outputs); elementwise kernels read and write
 * the same index, so output == input 0 is safe. Otherwise the result goes to a temporary that
 * the set_value kernel copies into x's view. Other inputs that share x's storage are copied
 * first, so `x[1:] = x[:-1]` reads the old values (numpy's result).
 */
export function runOpInplace(def: OpDef, inputs: readonly (TensorLike | null)[], attrs: Attrs): TensorLike {
  if (profiler !== null && recorder === null) return profiledRunOpInplace(profiler, def, inputs, attrs);
  return runOpInplaceBody(def, inputs, attrs);
}

function profiledRunOpInplace(p: OpProfiler, def: OpDef, inputs: readonly (TensorLike | null)[], attrs: Attrs): TensorLike {
  const t0 = p.enter();
  try {
    return runOpInplaceBody(def, inputs, attrs);
  } finally {
    p.exit('op', `${def.name}_`, t0);
  }
}

function runOpInplaceBody(def: OpDef, inputs: readonly (TensorLike | null)[], attrs: Attrs): TensorLike {
  const name = `${def.name}_`;
  if (!def.inplace) throw new Error(`${def.name}: the op has no inplace variant`);
  if (def.inplace !== true) return composedInplace(def, inputs, attrs);
  const x = inputs[0];
  if (!x) throw new TypeError(`${name}: missing input x`);
  let outs: TensorMeta[];
  try {
    outs = def.infer(inputs as readonly TensorMeta[], attrs);
  } catch (e) {
    throw nameOp(def, e);
  }
  const o = outs[0];
  if (o.dtype !== x.dtype || o.shape.length !== x.shape.length || o.shape.some((d, i) => d !== x.shape[i])) {
    const msg = `${name}: the result has shape ${shapeStr(o.shape)} and dtype ${o.dtype}, but an inplace op must keep x's shape ` +
      `${shapeStr(x.shape)} and dtype ${x.dtype} (x cannot be broadcast or cast in place)`;
    throw o.dtype !== x.dtype ? new TypeError(msg) : new ShapeError(msg);
  }
  let eager = true;
  for (const t of inputs) if (t !== null && !(t instanceof Tensor)) { eager = false; break; }
  if (!eager || recorder) {
    if (!recorder) throw new Error(`${name}: symbolic input outside of a program being built`);
    // Programs are functional: record the functional op and return its value; the caller rebinds
    // x to it (the Python bridge rebinds a static Variable's value id). Writes through views of
    // captured tensors are functionalized by SOT (sot/, frontend/python/sot), not here.
    return recorder.record(def, inputs, attrs, outs)[0];
  }
  const xt = x as Tensor;
  const xh = xt.h(name);
  const afterWrite = autograd?.beforeInplace?.(def, inputs as readonly (Tensor | null)[], attrs) ?? null;
  const temps: Tensor[] = [];
  try {
    const ins: number[] = [];
    (inputs as readonly (Tensor | null)[]).forEach((t, i) => {
      if (!t) return;
      if (i > 0 && t !== xt && native.sameStorage(t.h(name), xh)) {
        const c = denseCopy(t);
        temps.push(c);
        ins.push(c.handle);
      } else ins.push(t.h(name));
    });
    const enc = encodeAttrs(def, attrs, inputs as readonly TensorMeta[]);
    if (def.writesViews || xt.is_contiguous) native.run(kernelOf(def), ins, [xh], enc);
    else {
      const tmp = new Tensor(native.empty(DTYPE_CODE[xt.dtype], xt.shape), xt.dtype, [...xt.shape]);
      temps.push(tmp);
      native.run(kernelOf(def), ins, [tmp.handle], enc);
      writeInto(xt, tmp);
    }
  } catch (e) {
    throw rethrow(def, e);
  } finally {
    for (const t of temps) t.dispose();
  }
  dispatchCounters.kernels++;
  xt._version++;
  // Autograd (src/autograd/record.ts) records the op with x's old value saved before the write.
  afterWrite?.(xt);
  return xt;
}

/**
 * Inplace variants that are not one kernel writing over x (OpDef.inplace 'assign' | 'rebind'):
 * the functional op runs (and is recorded by autograd as usual), then its result is copied into
 * x by set_value — whose grad rule routes gradients to the result — or x takes the result over.
 */
function composedInplace(def: OpDef, inputs: readonly (TensorLike | null)[], attrs: Attrs): TensorLike {
  const name = `${def.name}_`;
  const at = def.inplaceInput ?? 0;
  const x = inputs[at];
  if (!x) throw new TypeError(`${name}: missing input ${def.inputs[at]?.name ?? at}`);
  const pick = def.api?.returnOutput ?? 0;
  let eager = true;
  for (const t of inputs) if (t !== null && !(t instanceof Tensor)) { eager = false; break; }
  // Programs are functional: the op is recorded and the caller rebinds x (see runOpInplace).
  if (!eager || recorder) return runOpDef(def, inputs, attrs)[pick];
  const xt = x as Tensor;
  if (def.inplace === 'assign') {
    return assignInplace(name, xt, (src) => runOpDef(def, inputs.map((t, i) => (i === at ? src : t)), attrs) as Tensor[], pick);
  }
  // Same precondition as a kernel inplace op (autograd's beforeInplace): checked before any work.
  autograd?.checkInplace?.(name, xt);
  const outs = runOpDef(def, inputs, attrs) as Tensor[];
  const rt = outs[pick];
  for (const o of outs) if (o !== rt) o.dispose();
  xt._rebind(rt);
  xt._version++;
  return xt;
}

/**
 * The 'assign' inplace scheme, shared by registry ops (OpDef.inplace 'assign') and composites
 * that are not registry ops (multigammaln_): `compute` runs on x — on a differentiable copy when x
 * wants gradients, since its grad nodes may save a value about to be overwritten — and output
 * `pick` of its results is copied into x by set_value, whose grad rule routes the gradient.
 */
export function assignInplace(name: string, x: Tensor, compute: (src: Tensor) => Tensor[], pick = 0): Tensor {
  autograd?.checkInplace?.(name, x);
  const src = x.stop_gradient ? x : (runOpDef(getOp('scale'), [x], resolveAttrs(getOp('scale'), { scale: 1 }))[0] as Tensor);
  const outs = compute(src);
  const rt = outs[pick];
  try {
    if (rt.dtype !== x.dtype || rt.shape.length !== x.shape.length || rt.shape.some((d, i) => d !== x.shape[i])) {
      const msg = `${name}: the result has shape ${shapeStr(rt.shape)} and dtype ${rt.dtype}, but an inplace op must keep x's shape ` +
        `${shapeStr(x.shape)} and dtype ${x.dtype} (x cannot be broadcast or cast in place)`;
      throw rt.dtype !== x.dtype ? new TypeError(msg) : new ShapeError(msg);
    }
    runOpInplace(getOp('set_value_with_tensor'), [x, rt], { starts: [], ends: [], steps: [], axes: [], decrease_axes: [], none_axes: [] });
  } finally {
    for (const o of outs) o.dispose();   // the tape's nodes hold their own handles
    if (src !== x) src.dispose();
  }
  return x;
}

/** A contiguous copy of t (the `contiguous` kernel). */
function denseCopy(t: Tensor): Tensor {
  const c = new Tensor(native.empty(DTYPE_CODE[t.dtype], t.shape), t.dtype, [...t.shape]);
  native.run(kernelByName('contiguous'), [t.h('copy')], [c.handle]);
  return c;
}

/** Copies src (x's shape and dtype) into x's storage through x's strides, with the set_value kernel. */
function writeInto(x: Tensor, src: Tensor): void {
  const attrs: number[] = [];
  for (const n of x.shape) attrs.push(0, 1, n, 0);
  attrs.push(0);
  native.run(kernelByName('set_value_with_tensor'), [x.handle, src.handle], [x.handle], attrs);
}

const kernelIdsByName = new Map<string, number>();
function kernelByName(k: string): number {
  let id = kernelIdsByName.get(k);
  if (id === undefined) {
    id = native.kernelId(k);
    if (id < 0) throw new Error(`native kernel '${k}' is missing`);
    kernelIdsByName.set(k, id);
  }
  return id;
}

/** The general path for calls too large for the scratch arrays (concat of thousands of tensors). */
function runWithArrays(def: OpDef, ts: readonly (Tensor | null)[], outs: readonly TensorMeta[], enc: number[]): Tensor[] {
  const results: Tensor[] = [];
  try {
    for (const m of outs) {
      if (!isStatic(m.shape)) throw new Error(`${def.name}: eager output shape ${shapeStr(m.shape)} is not concrete`);
      results.push(new Tensor(native.empty(DTYPE_CODE[m.dtype], m.shape as number[]), m.dtype, [...m.shape as number[]]));
    }
    const ins: number[] = [];
    for (const x of ts) if (x) ins.push(x.h(def.name));
    native.run(kernelOf(def), ins, results.map((r) => r.handle), enc);
    return results;
  } catch (e) {
    for (const r of results) r.dispose();
    throw rethrow(def, e);
  }
}

export function runOp(name: string, inputs: readonly (TensorLike | null)[], attrs: Readonly<Record<string, unknown>> = {}): TensorLike[] {
  const def = getOp(name);
  return runOpDef(def, inputs, resolveAttrs(def, attrs));
}

/** Every error out of an op names it: infer rules may throw from shared helpers that do not. */
function nameOp(def: OpDef, e: unknown): unknown {
  if (e instanceof Error && !e.message.startsWith(def.name)) e.message = `${def.name}: ${e.message}`;
  return e;
}

/** Native errors become ShapeError/TypeError/RangeError by their wording, keeping the message. */
function rethrow(def: OpDef, e: unknown): Error {
  if (!(e instanceof Error)) return new Error(`${def.name}: ${String(e)}`);
  const m = e.message;
  if (/dtype/.test(m)) return Object.assign(new TypeError(m), { op: def.name });
  if (/out of range|index/.test(m)) return Object.assign(new RangeError(m), { op: def.name });
  if (/shape|broadcast|dims?\b|rank/.test(m)) { const err = new Error(m); err.name = 'ShapeError'; return err; }
  return e;
}
