// The SOT runtime for Python: registered functions, their trace trees, the call entry the
// Python wrapper (compat/paddle/jit/sot/runtime.py StaticFunction) crosses into once per call,
// counters, explain() and the log channels (SOT_LOG_LEVEL, STRICT_MODE, MIN_GRAPH_SIZE).
import { nodeNames } from '../../../sot/control_flow_graph.js';
import type { BreakEvent } from '../../../sot/graph_breaks.js';
import { GraphBreak } from '../../../sot/graph_breaks.js';
import { HostError } from '../../../sot/host.js';
import { describeFailure, type TreeNode, walk, type WalkStats } from '../../../sot/trace_tree.js';
import type { RtValue } from '../../../sot/values.js';
import { NullVar } from '../../../sot/variables.js';
import type { Decoder } from '../bytecode/decode.js';
import type { CodeInfo } from './code.js';
import { CO_VARARGS, CO_VARKEYWORDS } from './code.js';
import { type HostGuard, type PyRef, type PyRuntime, SotPythonHost } from './python_host.js';
import { type Layout, PSDB_NO_FALLBACK, PsdbCheckError, StrictModeError, Translator } from './translator.js';
import { versionTable, type VersionTable } from './versions.js';
import { fromHostRead } from './semantics.js';
import { childEntryShapes, type DimSpec, dimsOnlyMiss, rootEntryShapes } from '../../../sot/dynamic_dims.js';
import { itemSource, slotSource, type Source } from '../../../sot/sources.js';
import type { HandleTable } from '../handles.js';
import { profileSpan } from '../../../src/profiler/profiler.js';
import type { ViewedFunction } from '../../../sot/graph_view.js';
import { holdsSymInt } from './symint.js';
import { ResumeCache } from './resume_cache.js';
import { concreteSites, SiteEscape } from './generators.js';
import { clearCompileCache, type CompiledEntry, compileCacheEntries, stampGraph } from './compile_cache.js';

/**
 * Limits from ARCHITECTURE.md: a tree past this many nodes, or this many re-translations (a
 * guard miss where a translation already existed: a new root or a new sibling child), goes
 * eager. The first translation of each child after a break is not a miss.
 */
export const NODE_LIMIT = 64;
export const TRANSLATION_LIMIT = 20;
/** register()'s answer for callables that are not Python functions (they always run as they are). */
const NOT_A_FUNCTION = -0x7fffffff;

interface Fn {
  readonly fid: number;
  readonly ref: PyRef;
  readonly code: CodeInfo;
  readonly wrapperId: number;
  readonly fullGraph: boolean;
  /** Registered by symbolic_translate: errors leaving it name the simulated stack (compat translate.py). */
  readonly paddleErrors: boolean;
  roots: TreeNode[];
  translations: number;
  /** Translations made because existing nodes' guards failed (bounded by TRANSLATION_LIMIT). */
  misses: number;
  eager: boolean;
  eagerReason: string;
  guards: HostGuard[];
  /** Node-level host guard sets (Python side), dropped with the tree. */
  guardSets: number[];
  events: BreakEvent[];
  pins: number[];
  /** Dims made symbolic up front (InputSpec None/-1), by entry source key. */
  spec: DimSpec;
  /** Children after a break, shared by parents that leave the same layout (resume_cache.ts). */
  readonly resume: ResumeCache;
}

export interface SotStats { translations: number; graphsRun: number; graphOpsRun: number; stepsRun: number; calls: number; fallbacks: number }

function envInt(name: string, dflt: number): number {
  const v = process.env[name];
  if (v === undefined || v === '') return dflt;
  const n = Number(v);
  return Number.isFinite(n) ? n : dflt;
}

export class SotRuntime {
  readonly host: SotPythonHost;
  readonly v: VersionTable;
  private fns: Fn[] = [];
  readonly stats: SotStats = { translations: 0, graphsRun: 0, graphOpsRun: 0, stepsRun: 0, calls: 0, fallbacks: 0 };
  logLevel = envInt('SOT_LOG_LEVEL', 0);
  strict = envInt('STRICT_MODE', 0) > 0;
  minGraphSize = envInt('MIN_GRAPH_SIZE', 10);
  /** Writes log lines (stderr by default; tests capture them). */
  log: (line: string) => void = (line) => { process.stderr.write(`${line}\n`); };

  constructor(readonly rt: PyRuntime, handles: HandleTable, decoder: Decoder, private readonly setWrapperGuards: (wrapperId: number, guards: string) => void) {
    this.host = new SotPythonHost(rt, handles, decoder);
    this.v = versionTable(decoder.info.version[1]);
  }

  // ---- called from Python ---------------------------------------------------------------------

  /** Registers a function (by object id) for translation; a negative id means "always run it as plain Python" (explain() still reports why). */
  readonly register = (fnOid: number, wrapperOid: number, flags: number): number => {
    const ref = this.host.object(fnOid);
    const info = this.host.describe(ref);
    if (info.kind !== 'function') return NOT_A_FUNCTION;
    const code = this.host.code(info.codeId);
    this.host.pin(ref);
    this.host.pin(this.host.object(wrapperOid));
    const fn: Fn = {
      fid: this.fns.length + 1, ref, code, wrapperId: wrapperOid, fullGraph: (flags & 1) !== 0, paddleErrors: (flags & 2) !== 0, roots: [], translations: 0, misses: 0, resume: new ResumeCache(),
      eager: false, eagerReason: '', guards: [], guardSets: [], events: [], pins: [], spec: new Map(),
    };
    const why = this.host.unsupportedReason(code);
    if (why) {
      if (this.strict || fn.fullGraph) throw new Error(`to_static: ${code.name} cannot be translated: ${why}`);
      fn.eager = true;
      fn.eagerReason = why;
      this.stats.fallbacks++;
      this.log1(`sot: ${code.wire.qualname} runs as plain Python: ${why}`);
    }
    this.fns.push(fn);
    // A negative id: the function runs as plain Python, but explain() can still say why.
    return fn.eager ? -fn.fid : fn.fid;
  };

  /**
   * One call: 'E…' an exception (pending in Python), 'F' run eagerly from now on, 'N' the same
   * with the functions it calls translated (psdb.fallback(recursive=False)), 'X' run eagerly
   * this time, else the encoded result.
   */
  readonly call = (fid: number, enc: string, nargs: number): string => {
    const result = this.run(fid, nargs, () => this.host.decodeMany(enc));
    return typeof result === 'string' ? result : this.host.encode(result);
  };

  /**
   * The numeric form of call() for the common case where every argument is a tensor or a plain
   * object (a Layer): `codes` = [layer version, a mask whose bit i marks argument i as an
   * object, then per argument a tensor handle or an object id]. Handles are signed (negative for
   * tensors of 64 KiB or more, frontend/python/handles.ts), so the sign cannot say which is which.
   * No string is built or parsed on either side; a tensor result comes back as its handle (a
   * number), anything else in call()'s string form.
   */
  readonly callFast = (fid: number, codes: ArrayLike<number>): string | number => {
    const result = this.run(fid, codes.length - 2, () => {
      const vals: RtValue[] = [{ k: 'int', v: codes[0] }];
      const objects = codes[1];
      for (let i = 2; i < codes.length; i++) {
        const c = codes[i];
        vals.push((objects >> (i - 2)) & 1 ? { k: 'obj', ref: this.host.object(c) } : { k: 'tensor', t: this.host.tensor(c) });
      }
      return vals;
    });
    if (typeof result === 'string') return result;
    return result.k === 'tensor' ? this.host.handleOf(result.t) : this.host.encode(result);
  };

  private run(fid: number, nargs: number, decodeArgs: () => RtValue[]): RtValue | string {
    const fn = this.fns[fid - 1];
    this.stats.calls++;
    this.depth++;
    const stats: WalkStats = { graphsRun: 0, graphOpsRun: 0, stepsRun: 0, effectsRun: 0, translations: 0 };
    try {
      if (!fn || fn.eager) return 'F';
      if (fn.misses >= TRANSLATION_LIMIT || fn.roots.reduce((a, r) => a + r.size(), 0) > NODE_LIMIT) {
        this.markEager(fn, fn.misses >= TRANSLATION_LIMIT ? `more than ${TRANSLATION_LIMIT} re-translations (SOT104)` : `trace tree past ${NODE_LIMIT} nodes (SOT103)`);
        return 'F';
      }
      const vals = decodeArgs();
      const entry = this.bindRoot(fn, vals, nargs);
      if (!entry) return 'X';
      const result = walk(fn.roots, entry, this.host, (parent, e, caught) => profileSpan('translate', fn.code.wire.qualname, () => this.translate(fn, parent, e, caught === true)), stats, (node, failed) => {
        if (this.logLevel >= 2) this.log2(`sot: cache miss in ${fn.code.wire.qualname}${node ? ' (after a break)' : ''}: ${failed.map(describeFailure).join('; ')}`);
      });
      this.stats.graphsRun += stats.graphsRun;
      this.stats.graphOpsRun += stats.graphOpsRun;
      this.stats.stepsRun += stats.stepsRun;
      if (this.logLevel >= 2 && stats.translations === 0) this.log2(`sot: cache hit in ${fn.code.wire.qualname}`);
      return result;
    } catch (e) {
      // Once a step or a side effect ran, the call cannot be redone as plain Python.
      return this.failure(fn, e, stats.stepsRun > 0 || stats.effectsRun > 0);
    } finally {
      // Ids of per-call objects stay valid until the outermost call ends (a concrete step may
      // run another translated function: its end is not the end of the call that holds them).
      if (--this.depth === 0) this.host.endCall();
    }
  };
  /** Nesting of run(): a concrete step may call another translated function. */
  private depth = 0;

  readonly invalidate = (fid: number): void => {
    const fn = this.fns[fid - 1];
    if (!fn) return;
    this.log2(`sot: ${fn.code.wire.qualname}: a global or attribute changed; translations dropped`);
    fn.misses++;
    this.dropTree(fn);
  };

  // ---- translation ---------------------------------------------------------------------------

  private translate(fn: Fn, parent: TreeNode | null, entry: readonly RtValue[], caught = false): TreeNode {
    // Paddle's resume cache: the code after this break may already be translated after another parent.
    const sharable = parent !== null && !caught && parent.exit.k === 'step' && !parent.entryShapes;
    if (sharable) {
      const shared = fn.resume.find(parent, (parent.exit as { layout: unknown }).layout as Layout, entry);
      if (shared) {
        this.log2(`sot: ${fn.code.wire.qualname}: the code after the break is shared with another path`);
        return shared;
      }
    }
    fn.translations++;
    if ((parent ? (caught ? parent.excChildren : parent.children).length : fn.roots.length) > 0) fn.misses++;
    this.stats.translations++;
    const host = this.host;
    host.pendingGuards = [];
    host.pendingPins = [];
    const opts = { minGraphSize: this.minGraphSize, strict: this.strict || fn.fullGraph, log: (lvl: number, m: string) => this.logAt(lvl, m), logLevel: this.logLevel };
    let guardSlot: (i: number) => boolean;
    let layout: Layout;
    if (!parent) {
      guardSlot = () => true;
      layout = this.rootLayout(fn);
    } else {
      const exit = parent.exit;
      if (exit.k !== 'step') throw new Error('sot: a return node has no children');
      // (caught: the step raised and the child starts at a handler with the exception)
      const resume = caught ? exit.unwind!.resume : exit.resume;
      guardSlot = (i) => i === 0 || resume[i].k === 'result' || resume[i].k === 'fresh' || holdsSymInt(resume[i]);
      layout = (caught ? exit.unwind!.layout : exit.layout) as Layout;
    }
    host.pendingGuardSets = [];
    // Host reads of the entry translation are checked by the wrapper before each call; those of
    // a translation after a step, by the node itself when a call reaches it.
    const autoDims = parent ? null : this.autoDims(fn, entry);
    // A generator (or partial) the traced code made that is live where the segment ends has no
    // real counterpart: the segment is translated again with it made for real (generators.ts).
    const sites = new Set<string>();
    let tx: Translator, node: TreeNode;
    for (let attempt = 0; ; attempt++) {
      tx = new Translator(host, this.v, opts, entry, guardSlot, parent !== null);
      concreteSites.set(tx, sites);
      tx.dynamicShapes = parent ? childEntryShapes(parent) : rootEntryShapes(fn.spec, autoDims);
      tx.enter(layout);
      if (!parent) this.bindRootClosure(fn, tx);
      try {
        node = tx.run();
        break;
      } catch (e) {
        if (!(e instanceof SiteEscape) || attempt > 10) throw e;
        this.log1(`sot: ${fn.code.wire.qualname}: ${e.message}; translating again with it made for real`);
        sites.add(sites.has(e.site) || sites.size >= 8 ? '*' : e.site);
      }
    }
    // The tree is dynamic from the first node with a symbolic entry dim down.
    if (tx.entryShapes.size || parent?.entryShapes) node.entryShapes = tx.entryShapes;
    if (sharable) fn.resume.add(parent, layout, node, entry, guardSlot, (id) => host.code(id));
    if (node.graph) {
      node.graph.name = `${fn.code.wire.qualname}#${fn.translations}`;
      stampGraph(node.graph, this.rt.train_mode());
    }
    fn.events.push(...tx.events);
    fn.pins.push(...host.pendingPins);
    fn.guardSets.push(...host.pendingGuardSets);
    if (!parent && host.pendingGuards.length) {
      const seen = new Set(fn.guards.map(guardKey));
      for (const g of host.pendingGuards) {
        const k = guardKey(g);
        if (!seen.has(k)) { seen.add(k); fn.guards.push(g); }
      }
      this.setWrapperGuards(fn.wrapperId, this.encodeGuards(fn.guards));
    }
    if (this.logLevel >= 1) {
      this.log1(`sot: translated ${fn.code.wire.qualname} (${parent ? 'after a break' : 'entry'}): ${node.graph ? node.graph.opCount : 0} ops, ` +
        `${node.exit.k === 'step' ? `break ${node.exit.event.code} at line ${node.exit.event.line}` : 'returns'}; guards: ${node.guards.describe().join('; ') || 'none'}`);
    }
    return node;
  }

  /**
   * Dims to make symbolic automatically in a root translation: when an existing root missed
   * only because entry tensor dims changed size (to sizes >= 2), those dims and the ones it
   * already had symbolic. One such re-translation serves every later size.
   */
  private autoDims(fn: Fn, entry: readonly RtValue[]): ReturnType<typeof dimsOnlyMiss> {
    for (const r of fn.roots) {
      const miss = dimsOnlyMiss(r, entry);
      if (miss) {
        if (this.logLevel >= 1) this.log1(`sot: ${fn.code.wire.qualname}: entry dims ${[...miss.auto].map(([k, d]) => `${k}[${[...d].join(',')}]`).join(' ')} become symbolic`);
        return miss;
      }
    }
    return null;
  }

  /**
   * input_spec of to_static: `json` is [[argument index (self excluded), item path..., [dims]]]
   * for every InputSpec with None/-1 dims. Argument i is entry slot i + 1 (+1 more for a method's
   * self, `selfOffset`).
   */
  readonly setInputSpec = (fid: number, json: string, selfOffset: number): void => {
    const fn = this.fns[fid - 1];
    if (!fn) return;
    const spec: DimSpec = new Map();
    for (const entry of JSON.parse(json) as (number | number[])[][]) {
      const dims = entry[entry.length - 1] as number[];
      const path = entry.slice(0, -1) as number[];
      let src: Source = slotSource(path[0] + 1 + selfOffset);
      for (const p of path.slice(1)) src = itemSource(src, { k: 'int', v: p });
      spec.set(src.key, new Set(dims));
    }
    fn.spec = spec;
  };

  /** The outermost frame at instruction 0 with parameters in slots 1..n (slot 0: the layer version). */
  private rootLayout(fn: Fn): Layout {
    const c = fn.code;
    const locals: number[] = [];
    for (let i = 0; i < c.nlocalsplus; i++) locals.push(i < c.nparams ? i + 1 : -1);
    const parts = this.host.functionParts(fn.ref);
    return { frames: [{ codeId: c.id, globalsId: parts.globals, fnName: c.wire.qualname, ip: 0, stack: [], locals }], cells: [] };
  }

  /** Free variables of the outermost function: cell contents read now, re-checked by the wrapper. */
  private bindRootClosure(fn: Fn, tx: Translator): void {
    const parts = this.host.functionParts(fn.ref);
    const cells = parts.cells.k === 'tuple' ? parts.cells.items : [];
    if (!cells.length) return;
    const fresh = this.host.closureContents(fn.ref);
    const contents = fresh.contents.k === 'tuple' ? fresh.contents.items : [];
    const f = tx.frames[0];
    const nfree = cells.length;
    for (let i = 0; i < nfree; i++) {
      const cell = cells[i];
      if (cell.k !== 'obj') throw new Error('sot: a closure cell is not an object');
      this.host.recordAttrGuard(cell.ref, 'cell_contents', fresh.contentIds[i]);
      const v = fromHostRead(tx, contents[i], null);
      f.locals[fn.code.nlocalsplus - nfree + i] = tx.hostCell(cell.ref, v instanceof NullVar ? null : v);
    }
    f.closureBound = true;
  }

  /** Binds call arguments to parameters like CPython; null when binding fails (Python then raises it). */
  private bindRoot(fn: Fn, vals: RtValue[], nargs: number): RtValue[] | null {
    const [version, ...rest] = vals;
    const args = rest.slice(0, nargs);
    const kw = rest[nargs];
    const w = fn.code.wire;
    const parts = this.host.functionParts(fn.ref);
    const defaults = parts.defaults.k === 'tuple' ? parts.defaults.items : [];
    const kwdefaults = parts.kwdefaults.k === 'dict' ? parts.kwdefaults : null;
    const nPos = w.argcount;
    const bound: (RtValue | undefined)[] = new Array(nPos + w.kwonlyargcount).fill(undefined);
    for (let i = 0; i < Math.min(nPos, args.length); i++) bound[i] = args[i];
    if (args.length > nPos && !(w.flags & CO_VARARGS)) return null;
    const extraKeys: RtValue[] = [], extraVals: RtValue[] = [];
    if (kw && kw.k === 'dict') {
      kw.keys.forEach((k, j) => {
        const name = (k as { v: string }).v;
        const i = w.localsplus.indexOf(name);
        if (i >= w.posonlyargcount && i < nPos + w.kwonlyargcount) {
          if (bound[i] !== undefined) throw new BindError();
          bound[i] = kw.values[j];
        } else if (w.flags & CO_VARKEYWORDS) { extraKeys.push(k); extraVals.push(kw.values[j]); }
        else throw new BindError();
      });
    }
    const first = nPos - defaults.length;
    for (let i = 0; i < nPos; i++) if (bound[i] === undefined) { if (i >= first) bound[i] = defaults[i - first]; else return null; }
    for (let i = nPos; i < nPos + w.kwonlyargcount; i++) {
      if (bound[i] === undefined) {
        const j = kwdefaults ? kwdefaults.keys.findIndex((k) => (k as { v: string }).v === w.localsplus[i]) : -1;
        if (j < 0) return null;
        bound[i] = kwdefaults!.values[j];
      }
    }
    const out: RtValue[] = [version, ...(bound as RtValue[])];
    if (w.flags & CO_VARARGS) out.push({ k: 'tuple', items: args.slice(nPos) });
    if (w.flags & CO_VARKEYWORDS) out.push({ k: 'dict', keys: extraKeys, values: extraVals });
    return out;
  }

  private encodeGuards(gs: readonly HostGuard[]): string {
    return JSON.stringify(gs.map((g) => [g.container, g.name, g.kind, g.valueId]));
  }

  // ---- failures -------------------------------------------------------------------------------

  private failure(fn: Fn | undefined, e: unknown, stepsRan: boolean): string {
    if (e instanceof HostError) {
      // A Python exception from a concrete step: it is pending on the Python side with its type;
      // a frame at the user's line is added to its traceback.
      const ev = (e as HostError & { sotEvent?: BreakEvent }).sotEvent;
      // (`sim`: the frames Paddle shows as its simulated stack, see BreakEvent.segmentFrom)
      if (ev && fn) {
        const frames = (ev.frames ?? [{ file: ev.file, line: ev.line, name: fn.code.wire.name }]).map((f, i) => (fn.paddleErrors && i >= (ev.segmentFrom ?? 0) ? { ...f, sim: 1 } : f));
        this.rt.set_error_location(JSON.stringify(frames));
      }
      return `E${e.pyType}\u0001${e.message}`;
    }
    if (e instanceof StrictModeError) return `ERuntimeError\u0001${e.message}`;
    if (e instanceof PsdbCheckError) return `EInnerError\u0001${e.message}`;
    // psdb.check_no_fallback: a marked function refuses to run as plain Python
    if (fn && e instanceof GraphBreak && e.kind.effect === 'fallback' && (this.host.psdbFlags(fn.code.wire.id) & PSDB_NO_FALLBACK) !== 0) {
      return `EInnerError\u0001${fn.code.wire.qualname} should not fall back, but got ${e.code} (${e.detail})`;
    }
    if (e instanceof BindError) return 'X';
    const msg = e instanceof Error ? e.message : String(e);
    if (fn && !stepsRan) {
      this.markEager(fn, e instanceof GraphBreak ? `${e.code}: ${e.detail}` : `internal error (SOT105): ${msg}`);
      if (this.logLevel >= 1 && !(e instanceof GraphBreak)) this.log1((e as Error).stack ?? msg);
      return e instanceof GraphBreak && e.code === 'SOT121' ? 'N' : 'F';
    }
    // A concrete step already ran: the call cannot be redone eagerly without repeating it.
    return `ERuntimeError\u0001skiff SOT internal error after side effects ran: ${msg}`;
  }

  private markEager(fn: Fn, why: string): void {
    if (fn.eager) return;
    if (this.strict || fn.fullGraph) throw new Error(`to_static: ${fn.code.wire.qualname}: ${why}`);
    fn.eager = true;
    fn.eagerReason = why;
    this.stats.fallbacks++;
    process.emitWarning(`skiff: ${fn.code.wire.qualname} now runs eagerly: ${why}`);
    this.dropTree(fn);
  }

  private dropTree(fn: Fn): void {
    fn.roots = [];
    fn.resume.clear();
    fn.guards = [];
    for (const p of fn.pins) this.host.unpinId(p);
    fn.pins = [];
    for (const g of fn.guardSets) this.rt.drop_guards(g);
    fn.guardSets = [];
    this.setWrapperGuards(fn.wrapperId, '[]');
  }

  /** OpcodeExecutorCache().clear(): every function's trees go; the next calls translate again. */
  resetTranslations(): void {
    for (const fn of this.fns) {
      if (fn.eager) continue;
      this.dropTree(fn);
      fn.misses = 0;
      fn.events = [];
    }
  }

  /** The settings paddle.jit.sot.utils' ENV_* flags stand for. */
  getFlag(name: string): number {
    switch (name) {
      case 'strict': return this.strict ? 1 : 0;
      case 'min_graph_size': return this.minGraphSize;
      case 'log_level': return this.logLevel;
      default: throw new Error(`sot: unknown translator flag '${name}'`);
    }
  }

  setFlag(name: string, value: number): void {
    if (!Number.isInteger(value)) throw new Error(`sot: flag ${name} needs an integer, got ${value}`);
    switch (name) {
      case 'strict': this.strict = value !== 0; break;
      case 'min_graph_size': this.minGraphSize = value; break;
      case 'log_level': this.logLevel = value; break;
      default: throw new Error(`sot: unknown translator flag '${name}'`);
    }
  }

  // ---- introspection --------------------------------------------------------------------------

  translateCount(fid?: number): number {
    if (fid === undefined) return this.stats.translations;
    return this.fns[fid - 1]?.translations ?? 0;
  }

  /** CompileSIRCache().cache: the graphs of live trees captured since its last clear(). */
  compiledGraphs(): CompiledEntry[] { return compileCacheEntries(this.fns.flatMap((f) => f.roots)); }
  clearCompiledGraphs(): void { clearCompileCache(); }

  /** explain(): graphs, ops per graph, breaks with code and location, guards per entry. */
  explain(fid: number): object {
    const fn = this.fns[Math.abs(fid) - 1];
    if (!fn) return { eager: true, eagerReason: 'not a Python function (a builtin or a callable object)', graphCount: 0, opsPerGraph: [], breaks: [], guards: [] };
    const graphs: number[] = [];
    const guards: string[][] = [];
    const graphOps: string[][] = [];
    const visit = (n: TreeNode) => {
      if (n.graph) { graphs.push(n.graph.opCount); graphOps.push(nodeNames(n.graph.nodes)); }
      guards.push(n.describeGuards());
      n.children.forEach(visit);
      n.excChildren.forEach(visit);
    };
    fn.roots.forEach(visit);
    return {
      name: fn.code.wire.qualname,
      eager: fn.eager, eagerReason: fn.eagerReason,
      translations: fn.translations,
      graphCount: graphs.length, opsPerGraph: graphs, opNames: graphOps,
      breaks: fn.events.map((e) => ({ code: e.code, file: e.file, line: e.line, source: e.sourceLine ?? '', detail: e.detail })),
      guards,
      nodes: fn.roots.reduce((a, r) => a + r.size(), 0),
    };
  }

  /** The trace trees of one function (or of every registered one) for the graph viewer (src/viz). */
  viewFunctions(fid?: number): ViewedFunction[] {
    const fns = fid === undefined ? this.fns : [this.fns[Math.abs(fid) - 1]].filter((f): f is Fn => f !== undefined);
    return fns.map((fn) => ({
      name: fn.code.wire.qualname, roots: fn.roots, eagerReason: fn.eager ? fn.eagerReason : '',
      paramNames: fn.code.wire.localsplus.slice(0, fn.code.nparams),
    }));
  }

  private logAt(level: number, m: string): void { if (this.logLevel >= level) this.log(m); }
  private log1(m: string): void { this.logAt(1, m); }
  private log2(m: string): void { this.logAt(2, m); }
}

class BindError extends Error {}

const guardKey = (g: HostGuard): string => `${g.container}|${g.name}|${g.kind}`;
