// One translation of a JS function: the graph being recorded, the guards collected while reading
// values through sources, the objects pinned for paths without a source, and the simulated call
// stack (for break reports). `track` is the only way a value from outside becomes a variable, so
// every outside value is guarded.
import type { Node } from 'estree';
import { Tensor } from '../../src/tensor/tensor.js';
import { SymDim, type Dim } from '../../src/tensor/shape.js';
import { GraphBreak, type BreakEvent } from '../../sot/graph_breaks.js';
import { constGuard, identityGuard, kindGuard, lengthGuard, tensorGuard } from '../../sot/guards.js';
import { globalSource, itemSource, slotSource, type Source } from '../../sot/sources.js';
import { rtInt } from '../../sot/values.js';
import { TensorVar, type Variable } from '../../sot/variables.js';
import { JsGraph } from './graph.js';
import { isPlainObject, JsGuardSet, toRt, UNDEFINED_ID } from './guards.js';
import { lineOf, type ParsedFunction } from './parse.js';
import { JsArray, JsMap, JsObject, JsValue, LazyValue } from './vars.js';

export interface SpecDims { readonly [slotKey: string]: readonly (number | null)[] }

export interface FrameInfo {
  readonly name: string;
  readonly parsed: ParsedFunction;
  node: Node | null;
}

/** Limits that keep translation finite (a concrete `while (true)` would never end). */
export const MAX_LOOP_ITERATIONS = 100_000;
export const MAX_INLINE_DEPTH = 64;

export class Translation {
  readonly graph = new JsGraph();
  readonly guards = new JsGuardSet();
  /** Objects reached without a path; shared by all translations of one function (sources stay valid across the tree). */
  readonly pins: unknown[];
  private pinIds: Map<unknown, Source>;
  readonly stack: FrameInfo[] = [];
  /** Where the first break happened (filled when a GraphBreak leaves an inlined frame). */
  breakFrames: FrameInfo[] | null = null;
  private breakNode: Node | null = null;

  /**
   * Side effects on outside objects, in program order: property writes (replayed after the graph
   * with the values the translation computed) and outside arrays whose contents changed.
   */
  readonly effects: ({ readonly k: 'set'; readonly target: Source; readonly key: string; readonly value: Variable } | { readonly k: 'array'; readonly target: Source; readonly array: JsArray }
    | { readonly k: 'log'; readonly method: string; readonly args: readonly Variable[] })[] = [];

  /**
   * `console.<method>(...args)`: printed by the leaf in order with the other side effects (so it
   * neither breaks nor splits the graph). Arrays, objects and Maps made or changed by the code are
   * copied now: the print shows them as they are at the call.
   */
  consoleCall(method: string, args: readonly Variable[]): void {
    const snap = (v: Variable): Variable => {
      if (v instanceof JsArray) return new JsArray(v.items.map(snap));
      if (v instanceof JsObject) return new JsObject(new Map([...v.props].map(([k, x]) => [k, snap(x)])));
      if (v instanceof JsMap) return new JsMap(new Map([...v.entries].map(([k, x]) => [k, snap(x)])));
      return v;
    };
    this.effects.push({ k: 'log', method, args: args.map(snap) });
  }
  /** Property values written by the translated code, seen by its later reads. */
  readonly overlay = new Map<object, Map<string, Variable>>();

  /** Records `obj[key] = value` on an outside object (seen by later reads, replayed after the graph). */
  setProperty(obj: object, objSource: Source | null, key: string, value: Variable): void {
    let o = this.overlay.get(obj);
    if (!o) this.overlay.set(obj, (o = new Map()));
    o.set(key, value);
    this.effects.push({ k: 'set', target: objSource ?? this.pin(obj), key, value });
  }

  /** Marks an outside array as changed: its final contents are written back after the graph. */
  arrayChanged(a: JsArray): void {
    if (!a.ref || this.effects.some((e) => e.k === 'array' && e.array === a)) return;
    this.effects.push({ k: 'array', target: a.source ?? this.pin(a.ref), array: a });
  }

  constructor(
    /** The `scope` option: manual free-variable values. */
    readonly scopeOption: Readonly<Record<string, unknown>>,
    /** Symbolic dims from input_spec, by entry source key: null entries are symbolic. */
    readonly specDims: SpecDims = {},
    shared: { readonly pins: unknown[]; readonly pinIds: Map<unknown, Source> } = { pins: [], pinIds: new Map() },
  ) {
    this.pins = shared.pins;
    this.pinIds = shared.pinIds;
  }

  // ---- graph splitting (frontend/js/split.ts) ----
  /** Whether a pure value read (`.item()`, `.tolist()`) may split the graph (not under full_graph). */
  splitting = false;
  /** Results of the steps already taken on this path, by break index (a replay). */
  known: readonly unknown[] = [];
  /** Number of root entry slots (step results follow them). */
  rootSlots = 0;
  /** Graph counts the replay must reach at its last known step (null: nothing to check). */
  expect: { readonly values: number; readonly nodes: number } | null = null;
  /** Where the segment being translated starts: after the last known step. */
  segNodes = 0;
  segGuards = 0;
  private splits = 0;
  /** Test expressions of capturing code to evaluate concretely (their capture refused in an earlier attempt). */
  noCapture: ReadonlySet<unknown> = new Set();
  /** Splittable breaks reached so far (known ones included). */
  get splitCount(): number { return this.splits; }

  /**
   * A splittable break: a known step gives its recorded result (guarded at its entry slot);
   * the first unknown one ends the translation with a SplitSignal.
   */
  splitAt(signal: () => Error): Variable {
    const k = this.splits++;
    if (k >= this.known.length) throw signal();
    if (k === this.known.length - 1) {
      if (this.expect && (this.graph.values.length !== this.expect.values || this.graph.nodes.length !== this.expect.nodes)) {
        throw new Error(`replay diverged at step ${k}: ${this.graph.values.length} values, ${this.graph.nodes.length} ops (expected ${this.expect.values}, ${this.expect.nodes})`);
      }
      this.segNodes = this.graph.nodes.length;
      this.segGuards = this.guards.list.length;
    }
    return this.trackResult(this.known[k], slotSource(this.rootSlots + k));
  }

  /**
   * A split step's result: primitives are guarded by value only when read (LazyValue), arrays
   * (`tolist`, `dataSync`) by kind and length with their items read lazily; anything else as `track`.
   */
  private trackResult(value: unknown, source: Source): Variable {
    const rt = toRt(value);
    if (rt) return new LazyValue(value, source, () => this.guards.add(constGuard(source, rt)));
    if (Array.isArray(value)) {
      this.guards.add(kindGuard(source, 'list'));
      this.guards.add(lengthGuard(source, value.length));
      return new JsArray(value.map((x, i) => this.trackResult(x, itemSource(source, rtInt(i)))), source, value);
    }
    return this.track(value, source);
  }

  /** A source for an object reached without a path (fixed for this translation). */
  pin(obj: unknown): Source {
    const hit = this.pinIds.get(obj);
    if (hit) return hit;
    const s = globalSource(`#pin:${this.pins.length}`);
    this.pins.push(obj);
    this.pinIds.set(obj, s);
    return s;
  }

  /** The variable for a value read from outside at `source`, with its guards. */
  track(value: unknown, source: Source): Variable {
    if (value instanceof Tensor) {
      const spec = this.specDims[source.key];
      let shape: Dim[] = [...value.shape];
      if (spec) {
        if (spec.length !== shape.length) throw new TypeError(`to_static: input_spec for ${source.key} has rank ${spec.length}, the tensor has shape [${value.shape.join(', ')}]`);
        shape = shape.map((d, i) => (spec[i] === null || spec[i] === -1 ? SymDim.of(`S${source.key}_${i}`.replace(/[^A-Za-z0-9_]/g, '_')) : d));
        spec.forEach((d, i) => { if (d !== null && d !== -1 && d !== value.shape[i]) throw new TypeError(`to_static: input_spec dim ${i} of ${source.key} is ${d}, the tensor has ${value.shape[i]}`); });
      }
      const meta = { dtype: value.dtype, shape, stop_gradient: value.stop_gradient };
      this.guards.add(tensorGuard(source, meta));
      return new TensorVar(this.graph.input(source, meta), source);
    }
    const rt = toRt(value);
    if (rt) { this.guards.add(constGuard(source, rt)); return new JsValue(value, source); }
    if (value === undefined) { this.guards.add(identityGuard(source, UNDEFINED_ID, 'undefined')); return new JsValue(undefined, source); }
    if (Array.isArray(value)) {
      this.guards.add(kindGuard(source, 'list'));
      this.guards.add(lengthGuard(source, value.length));
      return new JsArray(value.map((x, i) => this.track(x, itemSource(source, rtInt(i)))), source, value);
    }
    if (isPlainObject(value)) { this.guards.add({ kind: 'plain', source }); return new JsValue(value, source); }
    this.guards.add(identityGuard(source, value as object, typeName(value)));
    return new JsValue(value, source);
  }

  /** Records where a break happened (the innermost frame first reached wins). */
  noteBreak(e: unknown): void {
    if (e instanceof GraphBreak && !this.breakFrames) {
      this.breakFrames = this.stack.map((f) => ({ ...f }));
      this.breakNode = this.stack[this.stack.length - 1]?.node ?? null;
    }
  }

  /** The break as an event: code, detail, and the line in the innermost simulated frame. */
  event(e: GraphBreak): BreakEvent {
    const frames = (this.breakFrames ?? []).map((f) => ({ file: f.name, line: f.node ? lineOf(f.parsed, f.node) : 0, name: f.name }));
    const inner = this.breakFrames?.[this.breakFrames.length - 1];
    const line = inner && this.breakNode ? lineOf(inner.parsed, this.breakNode) : 0;
    let sourceLine: string | undefined;
    if (inner) sourceLine = inner.parsed.text.slice(inner.parsed.shift).split('\n')[line - 1]?.trim();
    return { code: e.code, file: inner?.name ?? '<js>', line, sourceLine, detail: e.detail, frames };
  }
}

export function typeName(v: unknown): string {
  if (typeof v === 'function') return v.name || 'function';
  if (v !== null && typeof v === 'object') return (v as object).constructor?.name ?? 'object';
  return typeof v;
}
