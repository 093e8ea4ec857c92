// Graph splitting at breaks: the JS frontend on sot's trace tree (sot/trace_tree.ts).
//
// A break whose concrete step is a pure read of a tensor's value (`t.item()`, `t.tolist()`,
// `t.dataSync()`, a tensor converted to a string or number by JS) ends the current segment: its
// graph is compiled, the step becomes the node's exit (run for real on the graph's outputs), and
// the child node chosen by guards on the step's result continues. The child's guards cover only
// what its simulation read of the result (vars.ts LazyValue): a value only returned, printed or
// stored is read again from its entry slot by the leaf, not guarded.
//
// A recursive ESTree interpreter cannot be suspended and resumed at the break, so a child is
// translated by *replaying* the function from its start with the results of the steps already
// taken on this path (entry slots of the child) and keeping only what comes after the last of
// them. The replay is exact because nothing observable happens before the path's last node:
// graphs are pure, the steps are pure reads, and side effects (property writes, arrays, Maps,
// batch_norm buffers, console output) are all replayed by the leaf, in program order. So the
// prefix reads the same outside values the ancestors read (and guarded) in this call, and
// records the same graph values (checked). The same purity makes a late failure safe: when a
// child cannot be translated (a break that does not split), the call reruns the original
// function eagerly from its start; the segments already run have no visible effect.
//
// Entry of a node (RtValues): [root slots (this, scope, fn, args...)][step results][carried
// tensors]. Every graph value computed before a break is carried to the child (the interpreter's
// temporaries cannot be enumerated), so tensors stay alive until the call returns.
import { set_item } from '../../src/ops/index.js';
import { scope as tensorScope, Tensor } from '../../src/tensor/tensor.js';
import { CompiledGraph, type GraphNode, type SymTensor } from '../../sot/function_graph.js';
import { type BreakCode, GraphBreak, type BreakEvent } from '../../sot/graph_breaks.js';
import type { ConcreteStep, Host } from '../../sot/host.js';
import { slotSource, type Source } from '../../sot/sources.js';
import type { Template } from '../../sot/trace_tree.js';
import type { HostRef, RtValue } from '../../sot/values.js';
import { NONE } from '../../sot/values.js';
import { MISSING, resolveJs, toRt, UNDEFINED_ID } from './guards.js';
import type { Translation } from './translation.js';

/**
 * The pure reads of a tensor's value that split: the methods, and `toString` for a conversion by
 * JS itself (String(t), a template literal, an operator, Math.*: ToPrimitive on a Tensor, which
 * has no valueOf or Symbol.toPrimitive of its own, calls its toString).
 */
export type SplitMethod = 'item' | 'tolist' | 'dataSync' | 'toString';

/** A splittable break reached for the first time on this path: unwinds the translation to its end. */
export class SplitSignal extends GraphBreak {
  constructor(readonly method: SplitMethod, readonly operand: SymTensor, code: BreakCode = 'SOT002', detail = `.${method}()`) {
    super(code, detail);
  }
}

/** The step of a split, run for real on the graph's output: exactly what eager does at that point. */
function readValue(t: Tensor, method: string): unknown {
  switch (method) {
    case 'item': return t.item();
    case 'tolist': return t.tolist();
    case 'dataSync': return t.dataSync();
    case 'toString': return String(t);
    default: throw new Error(`to_static: unknown value read .${method}() in a split step`);
  }
}

/**
 * Thrown from a concrete step to make the call rerun the original function eagerly. Not an
 * Error: calls reaching an eager node throw it every time, and an Error would capture a stack.
 */
export class EagerRerun {
  constructor(readonly event: BreakEvent | null) {}
}

// ---- JS values as sot RtValues --------------------------------------------------------------

const refOf = (v: unknown): HostRef => ({
  id: v === undefined ? UNDEFINED_ID : (v as object),
  typeName: v === undefined ? 'undefined' : typeof v === 'function' ? 'function' : ((v as object)?.constructor?.name ?? 'object'),
  handle: v,
});

/** A JS value as an RtValue: tensors and primitives by value, everything else by identity. */
export function toRtValue(v: unknown): RtValue {
  if (v instanceof Tensor) return { k: 'tensor', t: v };
  return toRt(v) ?? { k: 'obj', ref: refOf(v) };
}

export function fromRtValue(r: RtValue): unknown {
  switch (r.k) {
    case 'tensor': return r.t;
    case 'int': case 'float': case 'bool': case 'str': return r.v;
    case 'none': return null;
    case 'obj': return r.ref.handle;
    case 'tuple': case 'list': return r.items.map(fromRtValue);
    case 'dict': return Object.fromEntries(r.keys.map((k, i) => [String(fromRtValue(k)), fromRtValue(r.values[i])]));
  }
}

const opaque = (v: unknown): RtValue => ({ k: 'obj', ref: refOf(v) });

/** An entry's JS values, unwrapped once per entry array (guards and host reads use them per node). */
const unwrapped = new WeakMap<readonly RtValue[], readonly unknown[]>();
/** A call's JS values as an entry of RtValues, with its unwrapped form known (fromRtValue(toRtValue(v)) is v). */
export function entryOf(slots: readonly unknown[]): RtValue[] {
  const entry = slots.map(toRtValue);
  unwrapped.set(entry, slots);
  return entry;
}
export function entrySlots(entry: readonly RtValue[]): readonly unknown[] {
  let v = unwrapped.get(entry);
  if (!v) { v = entry.map(fromRtValue); unwrapped.set(entry, v); }
  return v;
}

// ---- the host -------------------------------------------------------------------------------

/** How the leaf rebuilds the result and replays side effects (operand i: the i-th reference). */
export type Out =
  | { readonly k: 'g'; readonly i: number }
  | { readonly k: 'v'; readonly v: unknown }
  | { readonly k: 'src'; readonly s: Source }
  | { readonly k: 'arr'; readonly items: readonly Out[] }
  /** A string concatenated from split results (vars.ts lazyConcat): String() of each item, joined. */
  | { readonly k: 'cat'; readonly items: readonly Out[] }
  /** A primitive's method called by the leaf (vars.ts lazyMethod): items[0] the receiver, then the arguments. */
  | { readonly k: 'call'; readonly name: string; readonly items: readonly Out[] }
  | { readonly k: 'obj'; readonly keys: readonly string[]; readonly items: readonly Out[] }
  | { readonly k: 'map'; readonly keys: readonly unknown[]; readonly items: readonly Out[] };

export type EffectOut =
  | { readonly k: 'set'; readonly target: Source; readonly key: string; readonly value: Out }
  | { readonly k: 'array'; readonly target: Source; readonly items: readonly Out[] }
  | { readonly k: 'log'; readonly method: string; readonly args: readonly Out[] };

/** What the leaf's finishing step does: tensor write-backs, side effects in order, the result. */
export interface Finish {
  readonly nRefs: number;
  readonly writes: readonly { readonly target: Tensor; readonly i: number }[];
  readonly effects: readonly EffectOut[];
  readonly out: Out;
}

export const STEP_VALUE = 'js_value';
export const STEP_FINISH = 'js_finish';
export const STEP_EAGER = 'js_eager';

export const valueStep = (method: SplitMethod): ConcreteStep => ({ opname: STEP_VALUE, arg: 0, argval: { k: 'str', v: method } });
export const finishStep = (f: Finish): ConcreteStep => ({ opname: STEP_FINISH, arg: 0, argval: opaque(f) });
export const eagerStep = (event: BreakEvent): ConcreteStep => ({ opname: STEP_EAGER, arg: 0, argval: opaque(event) });

/**
 * The JavaScript side of sot's Host: real values are the JS values themselves. Steps: a tensor's
 * value (`item`/`tolist`), the leaf's finish (write-backs, side effects, the result), and the
 * eager marker of a path that cannot be translated.
 */
export class JsHost implements Host {
  readonly lang = 'js' as const;
  /** Inside the leaf's finish: an error now has visible effects behind it and must propagate. */
  finishing = false;
  /** The last finish raised (set until the next call resets it). */
  finishFailed = false;
  constructor(readonly pins: unknown[]) {}

  describe(): never { throw new Error('JsHost.describe: the JS translator describes values itself'); }
  getattr(obj: RtValue, name: string): RtValue { return toRtValue(Reflect.get(Object(fromRtValue(obj)), name)); }
  takeReplacedTensors(): null { return null; }
  refresh(v: RtValue): RtValue { return v; }
  pin(): void { /* pins live as long as the StaticFunction */ }
  unpin(): void { /* idem */ }

  resolve(source: Source, entry: readonly RtValue[]): RtValue | undefined {
    const v = resolveJs(source, { slots: entrySlots(entry), pins: this.pins }, new Map());
    return v === MISSING ? undefined : toRtValue(v);
  }

  concrete(step: ConcreteStep, operands: readonly RtValue[]): RtValue[] {
    switch (step.opname) {
      case STEP_VALUE: {
        const t = fromRtValue(operands[0]);
        if (!(t instanceof Tensor)) throw new Error('to_static: the operand of a split step is not a tensor');
        return [toRtValue(readValue(t, step.argval?.k === 'str' ? step.argval.v : ''))];
      }
      case STEP_EAGER: throw new EagerRerun(fromRtValue(step.argval!) as BreakEvent);
      case STEP_FINISH: {
        const f = fromRtValue(step.argval!) as Finish;
        const ops = operands.map(fromRtValue);
        return [NONE, toRtValue(this.runFinish(f, ops.slice(0, f.nRefs), ops.slice(f.nRefs)))];
      }
      default: throw new Error(`to_static: unknown concrete step ${step.opname}`);
    }
  }

  /** The leaf's finish on the tensors it refers to and the node's entry slots (also fast_leaf.ts). */
  runFinish(f: Finish, refs: readonly unknown[], slots: readonly unknown[]): unknown {
    this.finishing = true;
    try {
      return this.finish(f, refs, slots);
    } catch (e) {
      this.finishFailed = true;
      throw e;
    } finally {
      this.finishing = false;
    }
  }

  private finish(f: Finish, refs: readonly unknown[], slots: readonly unknown[]): unknown {
    const entry = { slots, pins: this.pins };
    let memo = new Map<string, unknown>();
    if (f.writes.length) {
      tensorScope(() => {
        for (const w of f.writes) set_item(w.target, '...', (refs[w.i] as Tensor).detach());
      });
    }
    const build = (o: Out): unknown => {
      switch (o.k) {
        case 'g': return refs[o.i];
        case 'v': return o.v;
        case 'src': { const v = resolveJs(o.s, entry, memo); return v === MISSING ? undefined : v; }
        case 'arr': return o.items.map(build);
        case 'cat': return o.items.map((x) => String(build(x))).join('');
        case 'call': {
          const [recv, ...args] = o.items.map(build);
          return (Object(recv) as Record<string, (...a: unknown[]) => unknown>)[o.name](...args);
        }
        case 'obj': { const r: Record<string, unknown> = {}; o.keys.forEach((k, i) => { r[k] = build(o.items[i]); }); return r; }
        case 'map': return new Map(o.keys.map((k, i) => [k, build(o.items[i])]));
      }
    };
    for (const fx of f.effects) {
      if (fx.k === 'log') {
        const args = fx.args.map(build);
        (console as unknown as Record<string, (...a: unknown[]) => void>)[fx.method](...args);
        continue;
      }
      const target = resolveJs(fx.target, entry, memo);
      if (target === MISSING || target === null || typeof target !== 'object') throw new Error(`to_static: the target ${fx.target.key} of a side effect is gone`);
      if (fx.k === 'set') (target as Record<string, unknown>)[fx.key] = build(fx.value);
      else { const a = target as unknown[]; const items = fx.items.map(build); a.length = 0; a.push(...items); }
      memo = new Map();   // values read later must see the write
    }
    return build(f.out);
  }
}

// ---- segments -------------------------------------------------------------------------------

/** Frame layout a child needs to continue: recorded at the parent's exit (TreeNode exit.layout). */
export interface SplitLayout {
  /** Number of root slots (3 + argument count). */
  readonly rootSlots: number;
  /** Step results on the path including this exit's (entry slots rootSlots ..). */
  readonly results: number;
  /** Graph value ids carried in the child's entry after the results, in order. */
  readonly carried: readonly number[];
  /** Graph values and nodes recorded at this break (the replay must reach the same counts). */
  readonly values: number;
  readonly nodes: number;
  /** Tests of capturing code the path evaluates concretely (Translation.noCapture): the replay needs the same. */
  readonly noCapture: ReadonlySet<unknown>;
}

/** Where a node's segment starts in its translation's graph, and how its entry is laid out. */
export interface SegmentStart {
  readonly nodes: number;
  readonly guards: number;
  /** Carried value id -> entry slot. */
  readonly carried: ReadonlyMap<number, number>;
}

export interface Segment {
  readonly graph: CompiledGraph | null;
  readonly graphInputs: Template[];
  /** How the node refers to graph value `id`: its own output, a carried slot, an input source or a bound constant. */
  ref(id: number): Template;
}

const inputsOfNode = (n: GraphNode): number[] => n.inputs.filter((x): x is number => x !== null);

/**
 * The node's graph: the ops recorded since the segment started, with the values it reads from
 * before as inputs and `needed` (values the exit, the carried set or the leaf reads) as outputs.
 */
export function buildSegment(tr: Translation, start: SegmentStart, needed: readonly number[], name: string, minSize: number): Segment {
  const g = tr.graph;
  const all = g.nodes.slice(start.nodes);
  const defined = new Set<number>();
  for (const n of all) for (const o of n.outputs) defined.add(o);
  const outputs = [...new Set(needed.filter((id) => defined.has(id)))];
  // Dead ops are dropped (random ops are kept: they advance the generator, as eager does).
  const live = new Set(outputs);
  const kept: GraphNode[] = [];
  for (let i = all.length - 1; i >= 0; i--) {
    const n = all[i];
    if (n.def.random || n.outputs.some((o) => live.has(o))) {
      kept.push(n);
      for (const x of inputsOfNode(n)) live.add(x);
    }
  }
  kept.reverse();
  const outer = (id: number): Template => {
    const slot = start.carried.get(id);
    if (slot !== undefined) return { k: 'local', source: slotSource(slot) };
    const inp = g.inputs.find((x) => x.value === id);
    if (!inp) throw new Error(`to_static: graph value %${id} of an earlier segment is not carried`);
    if (inp.source.k === 'const') return { k: 'const', v: { k: 'tensor', t: g.bound[inp.source.i] } };
    return { k: 'local', source: inp.source };
  };
  const inputIds: number[] = [];
  for (const n of kept) for (const x of inputsOfNode(n)) if (!defined.has(x) && !inputIds.includes(x)) inputIds.push(x);
  const graphInputs = inputIds.map(outer);
  const gout = new Map(outputs.map((id, i) => [id, i]));
  let graph: CompiledGraph | null = null;
  if (kept.length) {
    const inputs = inputIds.map((id) => {
      const slot = start.carried.get(id);
      return { value: id, source: slot !== undefined ? slotSource(slot) : g.inputs.find((x) => x.value === id)!.source };
    });
    graph = new CompiledGraph(g.values, inputs, kept, outputs);
    graph.name = name;
    if (graph.opCount < minSize) graph.opByOp = true;
  } else if (outputs.length) {
    throw new Error('to_static: a segment without ops has outputs');
  }
  return {
    graph,
    graphInputs,
    ref: (id) => {
      const i = gout.get(id);
      return i !== undefined ? { k: 'gout', i } : outer(id);
    },
  };
}

/** Every value computed by the graph so far (top-level node outputs): what a split carries. */
export function computedValues(tr: Translation): number[] {
  return tr.graph.nodes.flatMap((n) => n.outputs);
}
