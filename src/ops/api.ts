// Derives the public functions and Tensor methods from the op table. Argument binding follows
// Paddle: positional in (inputs..., attrs...) order, then a trailing options object by name.
import { type DType, promoteTypes, promoteWithScalar } from '../tensor/dtype.js';
import { Tensor } from '../tensor/tensor.js';
import { resolveAttrs, runOpDef, runOpInplace, type TensorLike } from './dispatch.js';
import { allOps } from './registry.js';
import type { OpDef } from './types.js';
import { scalarTensor } from './scalar.js';

export type OpFunction = (...args: unknown[]) => unknown;

const isOptions = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Tensor) && !ArrayBuffer.isView(v) && Object.getPrototypeOf(v) === Object.prototype;

const isTensorLike = (v: unknown): v is TensorLike =>
  v instanceof Tensor || (v !== null && typeof v === 'object' && 'dtype' in v && 'shape' in v && !isOptions(v));

interface Binder { params: string[]; paramIndex: Map<string, number>; nIn: number; variadicAt: number }
const binders = new WeakMap<OpDef, Binder>();
function binderOf(def: OpDef): Binder {
  let b = binders.get(def);
  if (!b) {
    const params = [...def.inputs.map((i) => i.name), ...def.attrs.map((a) => a.name)];
    b = { params, paramIndex: new Map(params.map((p, i) => [p, i])), nIn: def.inputs.length, variadicAt: def.inputs.findIndex((i) => i.variadic) };
    binders.set(def, b);
  }
  return b;
}

/** Binds JS call arguments to an op's inputs and attributes and runs it; `inplace` runs `<name>_` (returns input 0). */
export function callOp(def: OpDef, args: readonly unknown[], inplace = false): unknown {
  const { params, paramIndex, nIn, variadicAt } = binderOf(def);
  // Slot per parameter, in (inputs..., attrs...) order.
  const slots = new Array<unknown>(params.length);
  let nPos = args.length;
  if (nPos > 0 && isOptions(args[nPos - 1]) && variadicAt !== nPos - 1) {
    nPos--;
    const opts = args[nPos] as Record<string, unknown>;
    for (const k in opts) {
      const key = def.api?.aliases?.[k] ?? k;
      if (key === 'name') continue;  // Paddle's `name=` is accepted everywhere and ignored
      const i = paramIndex.get(key);
      if (i === undefined) throw new TypeError(`${def.name}() got an unexpected keyword argument '${k}'`);
      if (i < nPos) throw new TypeError(`${def.name}() got multiple values for argument '${key}'`);
      slots[i] = opts[k];
    }
  }
  if (nPos > params.length) throw new TypeError(`${def.name}() takes at most ${params.length} arguments (${nPos} given)`);
  for (let i = 0; i < nPos; i++) slots[i] = args[i];

  const inputs: (TensorLike | null)[] = [];
  let scalarSlots: { index: number; value: number | boolean }[] | null = null;
  for (let k = 0; k < nIn; k++) {
    const spec = def.inputs[k];
    const v = slots[k];
    if (spec.variadic) {
      if (!Array.isArray(v)) throw new TypeError(`${def.name}(): '${spec.name}' must be a list of tensors`);
      for (const t of v) {
        if (!isTensorLike(t)) throw new TypeError(`${def.name}(): '${spec.name}' must contain only tensors`);
        inputs.push(t);
      }
    } else if (v instanceof Tensor) inputs.push(v);
    else if (v === undefined || v === null) {
      if (!spec.optional) throw new TypeError(`${def.name}() missing required argument '${spec.name}'`);
      inputs.push(null);
    } else if (isTensorLike(v)) inputs.push(v);
    else if (typeof v === 'number' || typeof v === 'boolean') { (scalarSlots ??= []).push({ index: inputs.length, value: v }); inputs.push(null); }
    else throw new TypeError(`${def.name}(): argument '${spec.name}' must be a Tensor, got ${describe(v)}`);
  }
  const attrGiven: Record<string, unknown> = {};
  for (let i = nIn; i < params.length; i++) if (slots[i] !== undefined) attrGiven[params[i]] = slots[i];
  const attrs = resolveAttrs(def, attrGiven);

  if (scalarSlots || def.api?.promote) promoteInputs(def, inputs, scalarSlots ?? [], inplace);
  if (inplace) return runOpInplace(def, inputs, attrs);
  const outs = runOpDef(def, inputs, attrs);
  if (def.api?.returnOutput !== undefined) return outs[def.api.returnOutput];
  // Ops whose output count depends on attributes (split, unbind) always return a list.
  return outs.length === 1 && (!def.numOutputs || def.api?.unwrapSingle) ? outs[0] : outs;
}

function promoteInputs(def: OpDef, inputs: (TensorLike | null)[], scalars: { index: number; value: number | boolean }[], inplace: boolean): void {
  let dt: DType | null = null;
  for (const x of inputs) if (x) dt = dt === null ? x.dtype : promoteTypes(dt, x.dtype);
  for (const s of scalars) {
    const kind = typeof s.value === 'boolean' ? 'bool' : Number.isInteger(s.value) ? 'int' : 'float';
    dt = dt === null ? (kind === 'float' ? 'float32' : kind === 'int' ? 'int64' : 'bool') : promoteWithScalar(dt, kind);
  }
  if (dt === null) return;
  // x of an inplace call keeps its dtype: the others may be cast to it, x never (Paddle: add_ of
  // an int tensor and a float one raises).
  if (inplace && inputs[0] && dt !== inputs[0].dtype)
    throw new TypeError(`${def.name}_: the result dtype ${dt} differs from x's dtype ${inputs[0].dtype}; an inplace op cannot change its input's dtype`);
  const target: DType = dt;
  for (const s of scalars) inputs[s.index] = scalarTensor(s.value, target);
  if (def.api?.promote) {
    for (let i = 0; i < inputs.length; i++) {
      const x = inputs[i];
      if (x && x.dtype !== target) inputs[i] = castTo(x, target);
    }
  }
}

let castFn: ((x: TensorLike, dt: DType) => TensorLike) | null = null;
/** The cast op registers itself here so promotion does not depend on defs import order. */
export function setCastImpl(f: (x: TensorLike, dt: DType) => TensorLike): void { castFn = f; }
function castTo(x: TensorLike, dt: DType): TensorLike {
  if (!castFn) throw new Error('cast op not registered');
  return castFn(x, dt);
}

function describe(v: unknown): string {
  if (v === undefined) return 'undefined';
  if (Array.isArray(v)) return 'a list';
  return typeof v === 'object' ? (v as object).constructor?.name ?? 'object' : typeof v;
}

export interface PublicSurface {
  /** Dotted public path -> function ('add', 'nn.functional.relu'). */
  functions: Map<string, OpFunction>;
  /** Tensor method name -> function taking the tensor as first argument. */
  methods: Map<string, OpFunction>;
}

/** Builds every public function and Tensor method from the registry. */
export function buildSurface(): PublicSurface {
  const functions = new Map<string, OpFunction>();
  const methods = new Map<string, OpFunction>();
  for (const def of allOps()) {
    const fn: OpFunction = (...args) => callOp(def, args);
    Object.defineProperty(fn, 'name', { value: def.name });
    const names = def.api?.names ?? [def.name];
    for (const n of names) {
      if (functions.has(n)) throw new Error(`public name '${n}' is claimed by two ops`);
      functions.set(n, fn);
    }
    const ms = def.api?.methods ?? (def.api?.names ? [] : [def.name]);
    for (const m of ms) methods.set(m, fn);
    if (def.inplace) {
      // Paddle's inplace variants: paddle.add_, nn.functional.relu_, x.add_(y); they return x.
      const fi: OpFunction = (...args) => callOp(def, args, true);
      Object.defineProperty(fi, 'name', { value: `${def.name}_` });
      for (const n of names) {
        if (functions.has(`${n}_`)) throw new Error(`public name '${n}_' is claimed by two ops`);
        functions.set(`${n}_`, fi);
      }
      for (const m of ms) methods.set(`${m}_`, fi);
    }
  }
  return { functions, methods };
}

/** Attaches generated methods to Tensor.prototype (x.add(y) === paddle.add(x, y)). */
export function installTensorMethods(surface: PublicSurface): void {
  for (const [m, fn] of surface.methods) {
    if (Object.prototype.hasOwnProperty.call(Tensor.prototype, m)) continue;  // hand-written members win
    Object.defineProperty(Tensor.prototype, m, {
      value: function (this: Tensor, ...args: unknown[]) { return fn(this, ...args); },
      writable: true, configurable: true,
    });
  }
}
