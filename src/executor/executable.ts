// compile(graph) -> Executable: lowers once per input layout (dtypes, ranks, strides) and rebinds
// that lowering for each concrete signature its symbolic dims allow (rebind.ts; a bounded LRU of
// native programs), runs each program in one native call, and services host calls in between.
import { native, type NativeSuspension } from '../native.js';
import { activeCollector, profileGraph } from '../profiler/profiler.js';
import { type DType } from '../tensor/dtype.js';
import { Tensor } from '../tensor/tensor.js';
import { checkGraph, type ExecGraph, type GraphInfo } from './graph.js';
import { lower, type LowerOptions } from './lower.js';
import { createProgram } from './program.js';
import { rebind } from './rebind.js';
import type { BoundMeta } from './specialize.js';
import type { LoweredProgram } from './types.js';

export interface CompileOptions extends LowerOptions {
  /** Tensors bound to graph.params, in order (may be overridden per run). */
  readonly params?: readonly Tensor[];
  /** Plans kept per executable (LRU by input signature); default 16. */
  readonly cacheSize?: number;
  /**
   * The params bound at run time are never written by anyone between runs (an inference model's
   * weights): kernels may cache derived forms of them (a GEMM weight packed once). A program that
   * updates a param keeps that one non-constant.
   */
  readonly constantParams?: boolean;
}

/** Per-instruction wall time of a plan over some runs (Executable.profile). */
export interface PlanProfile {
  readonly lowered: LoweredProgram;
  readonly runs: number;
  /** ns per instruction and run: the median over the runs */
  readonly ns: Float64Array;
  /** wall time of each whole run() call, ms */
  readonly runMs: number[];
}

/** TS-side executor counters (native ones: native.programStats(), both in executorStats()). */
export const executorCounters = { lowered: 0, rebound: 0, cacheHits: 0, cacheMisses: 0, evictions: 0, runs: 0, hostCalls: 0 };

/** Counters that prove work ran in the executor: lowering, plan cache, native runs and instructions. */
export function executorStats(): typeof executorCounters & { native: ReturnType<typeof native.programStats> } {
  return { ...executorCounters, native: native.programStats() };
}

interface OutInfo { dtype: DType; shape: number[]; strides: number[]; relOffset: number; rootInput: number; rootParam: number; identity: boolean }
interface Entry {
  lowered: LoweredProgram; id: number; inH: Int32Array; pH: Int32Array; outs: Int32Array; outInfo: OutInfo[];
  /** What the plan was specialized for: input dtypes/shapes/strides (null = contiguous) and the params key. */
  inputs: { dtype: DType; shape: readonly number[]; strides: readonly number[] | null }[];
  paramKey: string;
}

const sameDims = (a: readonly number[], b: readonly number[]): boolean => {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
};

const programFinalizer = new FinalizationRegistry<Set<number>>((ids) => { for (const id of ids) native.programFree(id); });

const boundMeta = (t: Tensor): BoundMeta => ({ dtype: t.dtype, shape: t.shape, strides: t.is_contiguous ? null : t.strides });
const sigOf = (t: Tensor): string => (t.is_contiguous ? `${t.dtype}[${t.shape.join(',')}]` : `${t.dtype}[${t.shape.join(',')}]@${t.strides.join(',')}`);
/** What a lowering depends on besides dim values: dtypes, ranks, and strided layouts exactly. */
const layoutOf = (t: Tensor): string => (t.is_contiguous ? `${t.dtype}/${t.shape.length}` : sigOf(t));

/**
 * A compiled ExecGraph. run() specializes shapes on first sight of an input signature, then runs
 * the cached native program in one call.
 * @example
 *   const exe = compile(graph, { params: [w, b] });
 *   const [y] = exe.run([x]);
 */
export class Executable {
  readonly graph: ExecGraph;
  private readonly info: GraphInfo;
  private readonly opts: CompileOptions;
  private readonly cap: number;
  private readonly cache = new Map<string, Entry>();
  /** The first lowering per layout key: later signatures of that layout rebind it. */
  private readonly templates = new Map<string, LoweredProgram>();
  private readonly ids = new Set<number>();
  private params: readonly Tensor[];
  private paramSig: { list: readonly Tensor[]; items: Tensor[]; sig: string } | null = null;
  private last: Entry | null = null;

  constructor(graph: ExecGraph, opts: CompileOptions = {}) {
    this.graph = graph;
    this.info = checkGraph(graph);
    this.opts = opts;
    this.cap = Math.max(1, opts.cacheSize ?? 16);
    this.params = opts.params ?? [];
    programFinalizer.register(this, this.ids, this);
  }

  /** Number of native programs currently cached. */
  get cachedPlans(): number { return this.cache.size; }

  /** Runs the graph; returns fresh output tensors (the caller owns them). */
  run(inputs: readonly Tensor[], params: readonly Tensor[] = this.params): Tensor[] {
    // Profiled as one row per program (a captured SOT graph already names its own run).
    if (activeCollector() !== null) return profileGraph('executor program', this.graph.nodes.length, () => this.runUnprofiled(inputs, params));
    return this.runUnprofiled(inputs, params);
  }

  private runUnprofiled(inputs: readonly Tensor[], params: readonly Tensor[]): Tensor[] {
    const e = this.entry(inputs, params);
    inputs.forEach((t, i) => { e.inH[i] = t.handle; });
    params.forEach((t, i) => { e.pH[i] = t.handle; });
    let r = native.programRun(e.id, e.inH, e.pH, e.outs);
    while (r !== 0) r = this.hostCall(e, r);
    executorCounters.runs++;
    return e.outInfo.map((o, i) => {
      const root = o.rootInput >= 0 ? inputs[o.rootInput] : o.rootParam >= 0 ? params[o.rootParam] : null;
      const strides = o.identity && root ? [...root.strides] : [...o.strides];
      const t = new Tensor(e.outs[i], o.dtype, [...o.shape], strides, o.relOffset + (root ? root.offset : 0));
      if (root) t._base = root._base ?? root;  // shares an input's storage, as an eager view would
      return t;
    });
  }

  /**
   * Runs `runs` times with the native runner timing each instruction (after one untimed warm-up
   * run); outputs are disposed.
   */
  profile(inputs: readonly Tensor[], runs: number, params: readonly Tensor[] = this.params): PlanProfile {
    if (!Number.isInteger(runs) || runs < 1) throw new RangeError(`Executable.profile: runs must be a positive integer, got ${runs}`);
    for (const t of this.run(inputs, params)) t.dispose();
    const e = this.entry(inputs, params);
    const runMs: number[] = [];
    const perRun: Float64Array[] = [];
    let prev = native.programProfile(e.id, true);  // starts profiling: all zeros
    try {
      for (let r = 0; r < runs; r++) {
        const t0 = performance.now();
        const outs = this.run(inputs, params);
        runMs.push(performance.now() - t0);
        for (const t of outs) t.dispose();
        const now = native.programProfile(e.id, true);  // running totals: this run is the difference
        perRun.push(now.subarray(1).map((v, i) => v - prev[i + 1]));
        prev = now;
      }
    } finally {
      native.programProfile(e.id, false);
    }
    // Per instruction, the median over runs: other processes' bursts land in a few runs only.
    const ns = new Float64Array(e.lowered.instrs.length).map((_, i) => {
      const xs = perRun.map((a) => a[i]).sort((a, b) => a - b);
      return xs.length % 2 ? xs[xs.length >> 1] : (xs[xs.length / 2 - 1] + xs[xs.length / 2]) / 2;
    });
    return { lowered: e.lowered, runs: perRun.length, ns, runMs };
  }

  /** The lowered program run() would use for these inputs (lowering it now if needed). */
  plan(inputs: readonly Tensor[], params: readonly Tensor[] = this.params): LoweredProgram { return this.entry(inputs, params).lowered; }

  /** Peak plan storage (bytes) and instructions of the most recent run, from the native runner. */
  lastRun(): { peakBytes: number; instructions: number } | null {
    if (!this.last) return null;
    const i = native.programInfo(this.last.id);
    return { peakBytes: i.lastPeakBytes, instructions: i.lastInstructions };
  }

  /** Frees every cached native program. The executable stays usable (it lowers again). */
  dispose(): void {
    for (const id of this.ids) native.programFree(id);
    this.ids.clear();
    this.cache.clear();
    this.templates.clear();
    this.last = null;
  }

  private entry(inputs: readonly Tensor[], params: readonly Tensor[]): Entry {
    const g = this.graph;
    if (inputs.length !== g.inputs.length) throw new Error(`executor: the graph takes ${g.inputs.length} inputs, got ${inputs.length}`);
    if (params.length !== g.params.length) throw new Error(`executor: the graph binds ${g.params.length} params, got ${params.length}`);
    // Calls usually repeat the last signature: compare it directly, without building the key.
    const last = this.last;
    if (last && this.sameInputs(last, inputs) && this.paramsKey(params) === last.paramKey) {
      executorCounters.cacheHits++;
      return last;
    }
    let key = '';
    for (let i = 0; i < inputs.length; i++) {
      const t = inputs[i];
      if (!(t instanceof Tensor)) throw new TypeError(`executor: input ${i} is not a Tensor`);
      t.h(`executor input ${i}`);
      key += sigOf(t) + ';';
    }
    key += '|' + this.paramsKey(params);
    let e = this.cache.get(key);
    if (e) {
      executorCounters.cacheHits++;
      if (this.last !== e) { this.cache.delete(key); this.cache.set(key, e); }
    } else {
      executorCounters.cacheMisses++;
      e = this.build(key, inputs, params);
    }
    this.last = e;
    return e;
  }

  private sameInputs(e: Entry, inputs: readonly Tensor[]): boolean {
    for (let i = 0; i < inputs.length; i++) {
      const t = inputs[i], m = e.inputs[i];
      if (!(t instanceof Tensor) || t.handle === 0 || t.dtype !== m.dtype || !sameDims(t.shape, m.shape)) return false;
      const contiguous = t.is_contiguous;
      if (contiguous !== (m.strides === null) || (!contiguous && !sameDims(t.strides, m.strides!))) return false;
    }
    return true;
  }

  private paramsKey(params: readonly Tensor[]): string {
    const c = this.paramSig;
    if (c && c.list === params && c.items.every((t, i) => t === params[i] && t.handle !== 0)) return c.sig;
    let sig = '';
    params.forEach((t, i) => {
      if (!(t instanceof Tensor)) throw new TypeError(`executor: param ${i} is not a Tensor`);
      t.h(`executor param ${i}`);
      sig += sigOf(t) + ';';
    });
    this.paramSig = { list: params, items: [...params], sig };
    return sig;
  }

  private build(key: string, inputs: readonly Tensor[], params: readonly Tensor[]): Entry {
    const ins = inputs.map(boundMeta), ps = params.map(boundMeta);
    const layout = inputs.map(layoutOf).join(';') + key.slice(key.indexOf('|'));
    const tpl = this.templates.get(layout);
    let lowered = tpl ? rebind(tpl, this.info, ins, ps, key) : null;
    if (lowered) executorCounters.rebound++;
    else {
      lowered = lower(this.info, ins, ps, this.opts, key);
      executorCounters.lowered++;
      // A template that failed to rebind made a size-dependent decision: the new lowering replaces it.
      if (tpl || this.templates.size < this.cap) this.templates.set(layout, lowered);
    }
    const id = createProgram(lowered, { constantParams: this.opts.constantParams });
    this.ids.add(id);
    const outInfo = lowered.outputSlots.map((s): OutInfo => {
      const S = lowered.slots[s], R = lowered.slots[S.root];
      return {
        dtype: S.dtype, shape: S.shape, strides: S.strides, relOffset: S.relOffset,
        rootInput: R.kind === 'input' ? R.index : -1, rootParam: R.kind === 'param' ? R.index : -1, identity: S.root === s,
      };
    });
    const e: Entry = {
      lowered, id, outInfo,
      inH: new Int32Array(inputs.length), pH: new Int32Array(params.length), outs: new Int32Array(lowered.outputSlots.length),
      inputs: inputs.map((t) => ({ dtype: t.dtype, shape: [...t.shape], strides: t.is_contiguous ? null : [...t.strides] })),
      paramKey: key.slice(key.indexOf('|') + 1),
    };
    this.cache.set(key, e);
    if (this.cache.size > this.cap) {
      const [oldKey, old] = this.cache.entries().next().value as [string, Entry];
      this.cache.delete(oldKey);
      native.programFree(old.id);
      this.ids.delete(old.id);
      executorCounters.evictions++;
    }
    return e;
  }

  // A run stopped at a host instruction: call the function, hand its results back, continue.
  private hostCall(e: Entry, s: NativeSuspension): 0 | NativeSuspension {
    executorCounters.hostCalls++;
    const I = e.lowered.instrs[s.instr];
    const args = Array.from(s.args, (h, i) => {
      const m = native.meta(h);
      return new Tensor(h, e.lowered.slots[I.ins[i]].dtype, m.shape, m.strides, m.offset);
    });
    let handles: Int32Array;
    let results: Tensor[] = [];
    try {
      const r = e.lowered.hostFns[s.host](args);
      if (!Array.isArray(r) || r.some((t) => !(t instanceof Tensor)))
        throw new TypeError(`executor: host call ${I.op} (instruction ${s.instr}) must return an array of Tensors`);
      results = r;
      handles = Int32Array.from(results, (t, i) => t.h(`executor: host call ${I.op} result ${i}`));
    } catch (err) {
      native.programAbort(s.state);
      for (const a of args) a.dispose();
      throw err;
    }
    try {
      return native.programResume(s.state, handles, e.outs);
    } finally {
      for (const t of results) t.dispose();
      for (const a of args) a.dispose();
    }
  }
}

/** Compiles an ExecGraph for the native executor. */
export const compile = (graph: ExecGraph, opts: CompileOptions = {}): Executable => new Executable(graph, opts);
