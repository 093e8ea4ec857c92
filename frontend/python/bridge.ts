// The JS side of the Python bridge: the functions compat/paddle/_bridge.py binds once and calls
// with numbers and strings only. Ops run through the registry (callOp / runOpDef), so results
// are those of the TS API. Errors never cross as exceptions: a call returns 0 and Python asks
// for `last_error()` and raises the matching Python type (see errors.ts).
//
// Tensors made here are `untracked`: Python owns them through the handle table and frees them
// deterministically, so they skip the GC backstop; temporaries (scalar operands, promotion
// casts) are disposed before returning.
import { callOp } from '../../src/ops/api.js';
import { allOps, getOp, hasOp } from '../../src/ops/index.js';
import { resolveAttrs, runOp, runOpDef } from '../../src/ops/dispatch.js';
import { scalarTensor } from '../../src/ops/scalar.js';
import { seed as generatorSeed } from '../../src/ops/defs/random.js';
import type { Attrs, OpDef } from '../../src/ops/types.js';
import { paddle } from '../../src/paddle.js';
import { native } from '../../src/native.js';
import { to_tensor } from '../../src/tensor/creation.js';
import { DTYPE_CODE, type DType, promoteTypes, promoteWithScalar, toDType } from '../../src/tensor/dtype.js';
import { decode, memoryStats, printDecoder, scope, Tensor, untracked } from '../../src/tensor/tensor.js';
import { formatTensor, set_printoptions } from '../../src/tensor/format.js';
import { pyErrorOf } from './errors.js';
import { Value } from '../../src/pir/index.js';
import { staticValues } from './static.js';
import { HandleTable } from './handles.js';
import { autogradCalls } from './bridge_autograd.js';
import { optimizerCalls } from './bridge_optimizer.js';
import { progressCalls } from './bridge_progress.js';
import { ioCalls } from './bridge_io.js';
import { opTableJson } from './optable.js';

/** A PyProxy as far as the bridge uses one (a borrowed buffer argument). */
interface PyBufferSource { getBuffer(type?: string): { data: ArrayBufferView; release(): void } }

type ScalarKind = 'int' | 'float' | 'bool';
const KINDS: readonly ScalarKind[] = ['int', 'float', 'bool'];
const REVERSED = 4;
const MAX_CONSTANTS = 512;

/** Counters a test reads to prove proxies return to baseline. */
export const bridgeStats = { proxiesTaken: 0, proxiesReleased: 0 };

/** A Python scalar with its type: JS numbers cannot tell 2 from 2.0, Python can. */
class PyScalar {
  constructor(readonly value: number | boolean, readonly kind: ScalarKind) {}
}

interface Reader { tags: string; vals: unknown[]; ti: number; vi: number }

export class Bridge {
  readonly handles = new HandleTable();
  private defs: OpDef[] = [];
  /** Attributes resolved to their defaults, per op id; null when the op has a required attribute. */
  private defaultAttrs: (Attrs | null | undefined)[] = [];
  private lastError: unknown = null;
  private constants = new Map<DType, Map<number | boolean, Tensor>>();
  private constantCount = 0;

  /** The op table as JSON; fixes op ids for this process. */
  readonly optable = (): string => {
    this.defs = allOps();
    this.defaultAttrs = [];
    return opTableJson(this.defs);
  };

  private def(op: number): OpDef {
    const d = this.defs[op];
    if (!d) throw new Error(`skiff bridge: unknown op id ${op}`);
    return d;
  }

  private attrs0(op: number): Attrs | null {
    let a = this.defaultAttrs[op];
    if (a === undefined) {
      const def = this.def(op);
      a = def.attrs.every((s) => s.default !== undefined) ? resolveAttrs(def, {}) : null;
      this.defaultAttrs[op] = a;
    }
    return a;
  }

  private fail(e: unknown): 0 {
    this.lastError = e;
    return 0;
  }

  /** Registers outputs; one handle as a number, several as 'h1,h2'; program values (paddle.static) as 'v<id>,<id>'. */
  private ret(out: unknown): number | string {
    if (out instanceof Tensor) return this.handles.add(out);
    if (out instanceof Value) return `v${staticValues.add(out)}`;
    if (Array.isArray(out) && out[0] instanceof Value) return `v${out.map((v) => staticValues.add(v as Value)).join(',')}`;
    if (Array.isArray(out)) return out.map((t) => this.handles.add(t as Tensor)).join(',');
    throw new Error(`skiff bridge: op returned ${typeof out}, expected tensors`);
  }

  /** Unary op with default attributes: x.relu(), -x, abs(x). */
  readonly un = (op: number, h: number): number | string => {
    try {
      const def = this.def(op);
      const x = this.handles.get(h);
      const a = this.attrs0(op);
      if (a !== null && def.outputs.length === 1 && def.inputs.length === 1) {
        return this.handles.add(untracked(() => runOpDef(def, [x], a)[0] as Tensor));
      }
      return this.ret(untracked(() => scope(() => callOp(def, [x]))));
    } catch (e) { return this.fail(e); }
  };

  /** Binary op on two tensors with default attributes (x + y, x @ y). */
  readonly bin = (op: number, ha: number, hb: number): number | string => {
    try {
      const def = this.def(op);
      const x = this.handles.get(ha), y = this.handles.get(hb);
      const a = this.attrs0(op);
      if (a !== null && def.outputs.length === 1 && def.inputs.length === 2 && (x.dtype === y.dtype || !def.api?.promote)) {
        return this.handles.add(untracked(() => runOpDef(def, [x, y], a)[0] as Tensor));
      }
      return this.ret(untracked(() => scope(() => callOp(def, [x, y]))));
    } catch (e) { return this.fail(e); }
  };

  /**
   * Binary op of a tensor and a Python scalar (x + 1, 2.0 * x). `code` packs op id * 8 + kind,
   * kind = 0 int, 1 float, 2 bool, +4 if the scalar comes first (one argument fewer to convert).
   */
  readonly bins = (code: number, h: number, v: number | boolean): number | string => {
    try {
      const op = code >> 3, kind = code & 7;
      const def = this.def(op);
      const x = this.handles.get(h);
      const rev = (kind & REVERSED) !== 0;
      const dt = promoteWithScalar(x.dtype, KINDS[kind & 3]);
      const a = this.attrs0(op);
      if (a !== null && def.outputs.length === 1 && def.inputs.length === 2 && def.api?.promote && dt === x.dtype) {
        const s = this.constant(v, dt);
        return this.handles.add(untracked(() => runOpDef(def, rev ? [s, x] : [x, s], a)[0] as Tensor));
      }
      return this.ret(untracked(() => scope(() => {
        const s = scalarTensor(v, dt);
        return callOp(def, rev ? [s, x] : [x, s]);
      })));
    } catch (e) { return this.fail(e); }
  };

  /**
   * A cached 0-dim tensor holding a Python scalar operand (`x + 1` in a loop reuses one): the
   * same `full` the TS path builds, made once. Only ever an op input, never given to Python.
   */
  private constant(v: number | boolean, dt: DType): Tensor {
    if (Object.is(v, -0)) return this.fresh(v, dt);  // Map keys cannot tell -0 from 0
    let m = this.constants.get(dt);
    if (!m) this.constants.set(dt, (m = new Map()));
    let t = m.get(v);
    if (t === undefined) {
      if (this.constantCount >= MAX_CONSTANTS) this.evictConstants();
      t = this.fresh(v, dt);
      m.set(v, t);
      this.constantCount++;
    }
    return t;
  }

  private fresh(v: number | boolean, dt: DType): Tensor {
    return untracked(() => scalarTensor(v, dt) as Tensor);
  }

  /**
   * A full cache starts over. Evicted tensors go to the GC backstop rather than being disposed:
   * something recorded while they were cached (an autograd tape) may still read them.
   */
  private evictConstants(): void {
    for (const m of this.constants.values()) for (const t of m.values()) t._adoptByGC();
    this.constants.clear();
    this.constantCount = 0;
  }

  /** Disposes the scalar-operand cache now (tests call it before counting live tensors). */
  readonly clear_caches = (): number => {
    for (const m of this.constants.values()) for (const t of m.values()) t.dispose();
    this.constants.clear();
    this.constantCount = 0;
    return 1;
  };

  /**
   * Any op, any arguments: one tagged value per parameter (inputs then attributes, Paddle's order).
   * Tags: t tensor handle, i int, f float, b bool, s str, n None, u not given, [ ... ] a list,
   * v a paddle.static value id (the op is then recorded into the current program).
   */
  readonly call = (op: number, tags: string, ...vals: unknown[]): number | string => {
    try {
      const def = this.def(op);
      const { args, scalars } = this.bindArgs(def, tags, vals);
      return this.ret(untracked(() => scope(() => {
        if (scalars.length) scalarInputs(args, scalars);
        return callOp(def, args);
      })));
    } catch (e) { return this.fail(e); }
  };

  /**
   * The inplace variant `<op>_` (x.add_(y); x[i] = v through set_value_with_tensor), arguments
   * tagged as for `call`. Returns 1 once x (input 0) was written in place, so Python keeps its
   * Tensor object and cached metadata (an inplace op keeps x's shape and dtype). While a
   * paddle.static program is built it returns 'v<id>' of the value that now stands for x, which
   * Python rebinds its Variable to (programs are functional).
   */
  readonly inplace = (op: number, tags: string, ...vals: unknown[]): number | string => {
    try {
      const def = this.def(op);
      const { args, scalars } = this.bindArgs(def, tags, vals);
      const out = untracked(() => scope(() => {
        if (scalars.length) scalarInputs(args, scalars);
        return callOp(def, args, true);
      }));
      return out instanceof Tensor ? 1 : this.ret(out);
    } catch (e) { return this.fail(e); }
  };

  /** Reads tagged arguments into callOp's positional form; Python scalars for tensor inputs are set aside. */
  private bindArgs(def: OpDef, tags: string, vals: unknown[]): { args: unknown[]; scalars: { index: number; value: number | boolean; kind: ScalarKind }[] } {
    const r: Reader = { tags, vals, ti: 0, vi: 0 };
    const nIn = def.inputs.length;
    const args: unknown[] = [];
    const scalars: { index: number; value: number | boolean; kind: ScalarKind }[] = [];
    for (let p = 0; p < nIn + def.attrs.length; p++) {
      const v = this.read(r);
      if (p < nIn) {
        if (v instanceof PyScalar) { scalars.push({ index: p, value: v.value, kind: v.kind }); args.push(undefined); }
        else if (Array.isArray(v)) args.push(v.map((x) => (x instanceof PyScalar ? x.value : x)));
        else args.push(v ?? undefined);
      } else args.push(attrValue(def.attrs[p - nIn].default !== undefined, v));
    }
    if (r.ti !== tags.length) throw new Error(`${def.name}: ${tags.length - r.ti} unread argument tags`);
    return { args, scalars };
  }

  private read(r: Reader): unknown {
    const c = r.tags[r.ti++];
    switch (c) {
      case 't': return this.handles.get(r.vals[r.vi++] as number);
      case 'v': return staticValues.get(r.vals[r.vi++] as number);
      case 'i': return new PyScalar(Number(r.vals[r.vi++]), 'int');
      case 'f': return new PyScalar(r.vals[r.vi++] as number, 'float');
      case 'b': return new PyScalar(Boolean(r.vals[r.vi++]), 'bool');
      case 's': return r.vals[r.vi++] as string;
      case 'n': return null;
      case 'u': return undefined;
      case '[': {
        const out: unknown[] = [];
        while (r.tags[r.ti] !== ']') {
          if (r.ti >= r.tags.length) throw new Error('skiff bridge: unterminated list in argument tags');
          out.push(this.read(r));
        }
        r.ti++;
        return out;
      }
      default: throw new Error(`skiff bridge: bad argument tag '${c}'`);
    }
  }

  /** 'dtype;d0,d1;stop_gradient' of a handle. */
  readonly meta = (h: number): string | 0 => {
    try {
      const t = this.handles.get(h);
      return `${t.dtype};${t.shape.join(',')};${t.stop_gradient ? 1 : 0}`;
    } catch (e) { return this.fail(e); }
  };

  readonly set_stop_gradient = (h: number, v: boolean): number => {
    try { this.handles.get(h).stop_gradient = Boolean(v); return 1; } catch (e) { return this.fail(e); }
  };

  /** A tensor sharing x's storage with stop_gradient=True (Tensor.detach). */
  readonly detach = (h: number): number | string => {
    try {
      const x = this.handles.get(h);
      return this.handles.add(untracked(() => {
        const t = x._alias('detach');
        t._base = x._base ?? x;
        return t;
      }));
    } catch (e) { return this.fail(e); }
  };

  /** A contiguous copy (Tensor.clone without autograd, deepcopy, to_tensor of a Tensor), cast to `dtype` if given. */
  readonly copy = (h: number, dtype: string): number | string => {
    try {
      const x = this.handles.get(h);
      const want = dtype ? toDType(dtype) : x.dtype;
      return this.handles.add(untracked(() => (want === x.dtype ? to_tensor(x) : (runOp('cast', [x], { dtype: want })[0] as Tensor))));
    } catch (e) { return this.fail(e); }
  };

  /** Releases handles Python dropped (batched by compat/paddle/_bridge.py). */
  readonly free = (...hs: number[]): void => { for (const h of hs) this.handles.release(h); };

  /** Row-major bytes of a tensor for tolist(): float16/bfloat16 widened to float32, bool as uint8. */
  readonly raw = (h: number): Uint8Array | 0 => {
    try {
      const t = this.handles.get(h);
      if (t.dtype === 'float16' || t.dtype === 'bfloat16') {
        const src = t.rawData() as Uint16Array;
        const f = new Float32Array(src.length);
        for (let i = 0; i < src.length; i++) f[i] = decode(t.dtype, src[i]) as number;
        return new Uint8Array(f.buffer);
      }
      return new Uint8Array(native.toBytes(t.h('tolist')));
    } catch (e) { return this.fail(e); }
  };

  /** One element by flat index (int64 as BigInt so Python gets an exact int); undefined (None) on error. */
  /** repr(tensor): Paddle's printed form, by the same formatter as TS (src/tensor/format.ts). */
  readonly format = (h: number, prefix: string): string | 0 => {
    try {
      const t = this.handles.get(h);
      return formatTensor(t, printDecoder(t.dtype), prefix);
    } catch (e) { return this.fail(e); }
  };

  /** paddle.set_printoptions: a JSON object of the options given. */
  readonly printoptions = (json: string): number => {
    try {
      set_printoptions(JSON.parse(json));
      return 1;
    } catch (e) { return this.fail(e); }
  };

  readonly item = (h: number, index: number): number | bigint | boolean | undefined => {
    try {
      const t = this.handles.get(h);
      const raw = t.rawData();
      if (!(index >= 0 && index < raw.length)) throw new RangeError(`item: index ${index} is out of range for a tensor of ${raw.length} elements`);
      const v = raw[index];
      return t.dtype === 'int64' ? (v as bigint) : decode(t.dtype, v);
    } catch (e) { this.fail(e); return undefined; }
  };

  /**
   * to_tensor from a Python buffer (bytes of `dtype` values, packed by Python): one copy out of
   * the wasm heap into native memory, then a cast if the requested dtype differs.
   */
  readonly from_buffer = (buf: PyBufferSource, dtype: string, shape: string, target: string, stopGradient: boolean): number | string => {
    bridgeStats.proxiesTaken++;
    let view: { data: ArrayBufferView; release(): void } | null = null;
    try {
      const dt = toDType(dtype);
      const dims = shape === '' ? [] : shape.split(',').map(Number);
      view = buf.getBuffer('u8');
      const data = view.data;
      const want = target ? toDType(target) : dt;
      const t = untracked(() => {
        const raw = new Tensor(native.fromBytes(DTYPE_CODE[dt], dims, data), dt, dims);
        if (want === dt) return raw;
        try {
          return runOp('cast', [raw], { dtype: want })[0] as Tensor;
        } finally { raw.dispose(); }
      });
      t.stop_gradient = Boolean(stopGradient);
      return this.handles.add(t);
    } catch (e) {
      return this.fail(e);
    } finally {
      view?.release();
      bridgeStats.proxiesReleased++;  // borrowed argument: Pyodide destroys it when the call returns
    }
  };

  // --- compat/numpy (issue 10) -----------------------------------------------------------
  /** 'offset;s0,s1' of a handle, in elements: ndarray.strides and the views numpy reports. */
  readonly layout = (h: number): string | 0 => {
    try {
      const t = this.handles.get(h);
      return `${t.offset};${t.strides.join(',')}`;
    } catch (e) { return this.fail(e); }
  };

  /** 'Kind\u0001message' of the last failed call, Kind being a Python exception name. */
  readonly last_error = (): string => {
    const e = this.lastError;
    this.lastError = null;
    const { kind, message } = pyErrorOf(e);
    return `${kind}\u0001${message}`;
  };

  readonly has_op = (name: string): boolean => hasOp(name);
  readonly op_id = (name: string): number => (hasOp(name) ? this.defs.indexOf(getOp(name)) : -1);

  /** paddle.seed: seeds the runtime's generator (the namespace's paddle.seed when it has one). */
  readonly seed = (n: number): number => {
    try {
      const f = (paddle as Record<string, unknown>).seed;
      if (typeof f === 'function') f(n);
      else generatorSeed(n);
      return 1;
    } catch (e) { return this.fail(e); }
  };

  readonly live_handles = (): number => this.handles.live;
  readonly live_tensors = (): number => memoryStats().liveTensors;
  readonly proxy_balance = (): number => bridgeStats.proxiesTaken - bridgeStats.proxiesReleased;

  /** The object registered as the Python module `_skiff_bridge`. */
  module(): Record<string, unknown> {
    const { optable, un, bin, bins, call, inplace, meta, set_stop_gradient, detach, copy, free, raw, item, from_buffer, last_error, has_op,
      op_id, seed, live_handles, live_tensors, proxy_balance, clear_caches, layout, format, printoptions } = this;
    return { optable, un, bin, bins, call, inplace, meta, set_stop_gradient, detach, copy, free, raw, item, from_buffer, last_error, has_op, format, printoptions,
      op_id, seed, live_handles, live_tensors, proxy_balance, clear_caches, layout, ...autogradCalls(this.handles, (e) => this.fail(e)),
      ...optimizerCalls(this.handles, (e) => this.fail(e)), ...progressCalls((e) => this.fail(e)), ...ioCalls(this.handles, (e) => this.fail(e)) };
  }
}

/** Attribute values: scalars unboxed, tensors read out (Paddle accepts a Tensor for most attributes), None means "default". */
function attrValue(hasDefault: boolean, v: unknown): unknown {
  if (v === undefined) return undefined;
  if (v === null) return hasDefault ? undefined : null;
  if (v instanceof PyScalar) return v.value;
  if (v instanceof Tensor) return v.tolist();
  if (Array.isArray(v)) return v.map((x) => attrValue(false, x));
  return v;
}

/**
 * Python scalars passed as tensor inputs become 0-dim tensors of the promoted dtype, the rule
 * callOp applies to JS scalars (src/ops/api.ts promoteInputs) but with Python's int/float kind.
 */
function scalarInputs(args: unknown[], scalars: readonly { index: number; value: number | boolean; kind: ScalarKind }[]): void {
  let dt: DType | null = null;
  const isT = (x: unknown): x is Tensor | Value => x instanceof Tensor || x instanceof Value;
  for (const x of args) {
    if (isT(x)) dt = dt === null ? x.dtype : promoteTypes(dt, x.dtype);
    else if (Array.isArray(x)) for (const t of x) if (isT(t)) dt = dt === null ? t.dtype : promoteTypes(dt, t.dtype);
  }
  for (const s of scalars) dt = dt === null ? (s.kind === 'float' ? 'float32' : s.kind === 'int' ? 'int64' : 'bool') : promoteWithScalar(dt, s.kind);
  for (const s of scalars) args[s.index] = scalarTensor(s.value, dt as DType);
}
