// The eager Tensor: a native handle plus cached metadata. Freeing is deterministic through
// dispose()/scopes; a FinalizationRegistry releases handles of tensors that were just dropped.
import { native } from '../native.js';
import { DTYPE_CODE, type DType, ITEMSIZE, typedArrayFor } from './dtype.js';
import { contiguousStrides, shapeStr } from './shape.js';
import { bf16ToNumber, f16ToNumber } from './half.js';
import { formatTensor } from './format.js';

const finalizer = new FinalizationRegistry<number>((h) => { native.release(h); });

// Registering with the FinalizationRegistry costs ~0.4 µs (and unregistering again on dispose),
// more than a tiny kernel. Tensors made outside any scope therefore wait here and are registered
// in batches: at the next microtask, or when PENDING_MAX are waiting (bounding what this list
// keeps alive in a long synchronous loop). Most are disposed before that and never registered.
const pendingGC: Tensor[] = [];
const PENDING_MAX = 1024;
let flushQueued = false;
function flushPendingGC(): void {
  flushQueued = false;
  for (const t of pendingGC) t._adoptByGC();
  pendingGC.length = 0;
}

type Scope = Tensor[];
const scopes: Scope[] = [];

let nextId = 1;

export class Tensor {
  /** Native handle; 0 once disposed. */
  handle: number;
  readonly dtype: DType;
  readonly shape: number[];
  readonly offset: number;
  /** null: contiguous (strides computed on demand; most tensors never need them). */
  private _strides: number[] | null;
  /** Paddle semantics: tensors do not require grad unless told so. */
  stop_gradient = true;
  grad: Tensor | null = null;
  private _name: string | null = null;
  private readonly _id: number;
  /** Autograd node that produced this tensor (src/autograd). */
  _gradNode: unknown = null;
  /** The tensor whose storage this view shares, if any (for the inplace mechanism). */
  _base: Tensor | null = null;
  private _finalized = false;
  private _ownVersion = 0;
  /**
   * Bumped by every inplace write (Paddle's inplace version counter). A view shares its base's
   * storage, so it reports (and bumps) the base's counter: a write through either shows in both.
   */
  get _version(): number { return this._base ? this._base._version : this._ownVersion; }
  set _version(v: number) { if (this._base) this._base._version = v; else this._ownVersion = v; }
  /** Generated Tensor methods are attached to the prototype from the op registry (src/ops/api.ts). */
  [method: string]: any;

  constructor(handle: number, dtype: DType, shape: number[], strides?: number[], offset = 0) {
    this.handle = handle;
    this.dtype = dtype;
    this.shape = shape;
    this._strides = strides ?? null;
    this.offset = offset;
    this._id = nextId++;
    // Inside a scope the scope owns the tensor; only tensors that outlive every scope get the
    // FinalizationRegistry backstop (registering costs ~0.4 µs, more than a tiny kernel).
    const s = scopes[scopes.length - 1];
    if (s) s.push(this);
    else {
      pendingGC.push(this);
      if (pendingGC.length >= PENDING_MAX) flushPendingGC();
      else if (!flushQueued) { flushQueued = true; queueMicrotask(flushPendingGC); }
    }
  }

  get strides(): number[] { return (this._strides ??= contiguousStrides(this.shape)); }
  get name(): string { return (this._name ??= `generated_tensor_${this._id}`); }
  set name(v: string) { this._name = v; }

  get ndim(): number { return this.shape.length; }
  get size(): number { let n = 1; for (const d of this.shape) n *= d; return n; }
  get place(): string { return 'Place(cpu)'; }
  get isDisposed(): boolean { return this.handle === 0; }

  get is_contiguous(): boolean {
    if (this._strides === null) return true;
    let expect = 1;
    for (let i = this.shape.length - 1; i >= 0; i--) {
      if (this.shape[i] !== 1 && this.strides[i] !== expect) return false;
      expect *= this.shape[i];
    }
    return true;
  }

  /** Releases the native handle now. Idempotent. */
  dispose(): void {
    if (this.handle === 0) return;
    if (this._finalized) finalizer.unregister(this);
    native.release(this.handle);
    this.handle = 0;
  }

  /**
   * A new Tensor object on this tensor's storage and layout with a native handle of its own, so
   * disposing either leaves the other alive (saved values, handles given to Python, detach).
   * `op` names the caller in the error for a disposed tensor.
   */
  _alias(op = 'alias'): Tensor {
    return new Tensor(native.view(this.h(op), this.shape, this.strides, this.offset), this.dtype, [...this.shape], [...this.strides], this.offset);
  }

  /**
   * Takes over `r`'s storage handle and metadata (Paddle's inplace view ops such as reshape_, and
   * inplace ops that change dtype); `r` is left disposed. x keeps its identity, its base (views
   * of x still share its version counter) and its place in scopes or the GC backstop.
   */
  _rebind(r: Tensor): void {
    if (r === this) return;
    const h = r.h('rebind');
    if (r._finalized) { finalizer.unregister(r); r._finalized = false; }
    r.handle = 0;
    const old = this.handle;
    if (this._finalized) { finalizer.unregister(this); finalizer.register(this, h, this); }
    this.handle = h;
    const self = this as unknown as { dtype: DType; shape: number[]; offset: number };
    self.dtype = r.dtype;
    self.shape = r.shape;
    self.offset = r.offset;
    this._strides = r._strides;
    this.stop_gradient = r.stop_gradient;
    this._gradNode = r._gradNode;
    if (old !== 0) native.release(old);
  }

  /** Called when a tensor leaves the last scope alive: from now on the GC backstop owns it. */
  _adoptByGC(): void {
    if (this._finalized || this.handle === 0) return;
    finalizer.register(this, this.handle, this);
    this._finalized = true;
  }

  /** Checks the tensor is alive before handing its handle to native code. */
  h(op = 'tensor'): number {
    if (this.handle === 0) throw new Error(`${op}: tensor ${this.name} has been disposed`);
    return this.handle;
  }

  /** Row-major copy of the elements as a typed array (int64 as BigInt64Array, half types as raw Uint16Array bits). */
  rawData(): ArrayBufferView & ArrayLike<number | bigint> {
    const C = typedArrayFor(this.dtype);
    return new C(native.toBytes(this.h('data')));
  }

  /** Elements as JS numbers (booleans for bool). */
  dataSync(): (number | boolean)[] {
    const raw = this.rawData();
    const out = new Array<number | boolean>(raw.length);
    for (let i = 0; i < raw.length; i++) out[i] = decode(this.dtype, raw[i]);
    return out;
  }

  tolist(): unknown {
    const flat = this.dataSync();
    if (this.shape.length === 0) return flat[0];
    let pos = 0;
    const build = (d: number): unknown[] => {
      const n = this.shape[d];
      const out = new Array(n);
      for (let i = 0; i < n; i++) out[i] = d === this.shape.length - 1 ? flat[pos++] : build(d + 1);
      return out;
    };
    return build(0);
  }

  /** The single value of a one-element tensor (Paddle's Tensor.item()). */
  item(...index: number[]): number | boolean {
    if (index.length === 0) {
      if (this.size !== 1) throw new RangeError(`item: tensor of shape ${shapeStr(this.shape)} has ${this.size} elements; only one-element tensors can be converted to a scalar`);
      return this.dataSync()[0];
    }
    const flat = this.dataSync();
    let off = 0;
    if (index.length === 1) off = index[0];
    else {
      if (index.length !== this.shape.length) throw new RangeError(`item: ${index.length} indices for a tensor of rank ${this.shape.length}`);
      const st = contiguousStrides(this.shape);
      for (let i = 0; i < index.length; i++) {
        if (index[i] < 0 || index[i] >= this.shape[i]) throw new RangeError(`item: index ${index[i]} out of range for dim ${i} of size ${this.shape[i]}`);
        off += index[i] * st[i];
      }
    }
    if (off < 0 || off >= flat.length) throw new RangeError(`item: index ${off} out of range for ${flat.length} elements`);
    return flat[off];
  }

  toString(): string {
    return formatTensor(this, printDecoder(this.dtype));
  }
}

export function decode(dtype: DType, v: number | bigint): number | boolean {
  switch (dtype) {
    case 'bool': return v !== 0;
    case 'int64': return Number(v);
    case 'float16': return f16ToNumber(v as number);
    case 'bfloat16': return bf16ToNumber(v as number);
    default: return v as number;
  }
}

/** Element decoder for printing: like `decode`, but int64 stays exact (bigint). */
export const printDecoder = (dtype: DType) => (v: number | bigint): number | boolean | bigint => (dtype === 'int64' ? v : decode(dtype, v));

/** Wraps a fresh native handle (shape read from the caller's infer-meta, not from native). */
export const wrapHandle = (h: number, dtype: DType, shape: number[]): Tensor => new Tensor(h, dtype, shape);

/**
 * Runs fn; every tensor created inside and not reachable from its result is disposed.
 * @example const y = scope(() => paddle.relu(paddle.add(a, b)));
 */
export function scope<R>(fn: () => R): R {
  const s: Scope = [];
  scopes.push(s);
  let result: R;
  try {
    result = fn();
  } finally {
    scopes.pop();
  }
  const keep = new Set<Tensor>();
  collectTensors(result, keep);
  const outer = scopes[scopes.length - 1];
  for (const t of s) {
    if (keep.has(t)) { if (outer) outer.push(t); else t._adoptByGC(); }
    else if (t.handle !== 0) t.dispose();
  }
  return result;
}

/**
 * Runs fn; tensors it creates skip the FinalizationRegistry backstop because the caller owns
 * and disposes each of them (the Python bridge frees a tensor when Python drops it).
 * Temporaries must be disposed by fn, e.g. with a nested scope().
 */
export function untracked<R>(fn: () => R): R {
  scopes.push([]);
  try {
    return fn();
  } finally {
    scopes.pop();
  }
}

/**
 * Takes t out of every enclosing scope: it lives until disposed or garbage-collected. For
 * tensors owned by a long-lived object, such as a layer's parameters made inside a scope.
 */
export function persist<T extends Tensor>(t: T): T {
  let found = false;
  for (const s of scopes) {
    const i = s.indexOf(t);
    if (i >= 0) { s.splice(i, 1); found = true; }
  }
  if (found) t._adoptByGC();
  return t;
}

function collectTensors(v: unknown, out: Set<Tensor>): void {
  if (v instanceof Tensor) { out.add(v); if (v.grad) out.add(v.grad); return; }
  if (Array.isArray(v)) { for (const x of v) collectTensors(x, out); return; }
  if (v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) for (const x of Object.values(v)) collectTensors(x, out);
}

/** Live native tensors and bytes, for tests and leak checks. */
export function memoryStats(): { liveTensors: number; liveBytes: number; peakBytes: number } {
  const m = native.memStats();
  return { liveTensors: m.liveTensors, liveBytes: m.liveBytes, peakBytes: m.peakBytes };
}

export const itemsize = (d: DType): number => ITEMSIZE[d];
export const dtypeCode = (d: DType): number => DTYPE_CODE[d];
