// Control-flow capture for the JS frontend: an `if`, a ternary or a `while`/`for` test that reads a
// tensor's value, inside code that asks for it (`paddle.jit.marker.capture_control_flow`, or a
// sublayer's forward), becomes an `if` / `while` node of the graph (sot/control_flow_graph.ts,
// pd_op.if / pd_op.while in PIR) instead of the SOT002 break of `.item()`.
//
// JavaScript has no operator overloading: a tensor object is always truthy, so `if (t)` and
// `if (paddle.greater_than(a, b))` always take the first branch eagerly and stay concrete here.
// The value of a tensor reaches a test only through `.item()`; so the captured forms are the ones
// whose eager meaning is a function of that value: `t.item()`, `!t.item()`, comparisons of
// `t.item()` with a number/boolean or another `t.item()`, and `&&`/`||` of those. The comparison is
// recorded on float64 copies (what `.item()` gives JS: every dtype but complex converts exactly).
//
// Each side is simulated on the live environment; the bindings that existed before the branch
// and were written inside it are recorded (assignName calls noteBindingWrite), put back after
// the side, and merged: tensors of equal dtype/shape/stop_gradient become the if node's outputs,
// other values must be identical. Anything else refuses with Python's codes (SOT013-SOT016) and
// the whole call runs eagerly, as every JS break does: never a different answer than eager.
import type * as E from 'estree';
import { runOp } from '../../src/ops/dispatch.js';
import { Layer } from '../../src/nn/layer.js';
import { Tensor } from '../../src/tensor/tensor.js';
import { isStatic, shapeStr } from '../../src/tensor/shape.js';
import { ifNode, whileNode } from '../../sot/control_flow_graph.js';
import { SymTensor, type GraphNode } from '../../sot/function_graph.js';
import { GraphBreak } from '../../sot/graph_breaks.js';
import { slotSource } from '../../sot/sources.js';
import { TensorVar, type Variable } from '../../sot/variables.js';
import { callMethod } from './calls.js';
import { exec, expr, frameOfInfo, type Completion, type Frame } from './interp.js';
import { binary, truthy } from './ops.js';
import { parseFunction, type ParsedFunction } from './parse.js';
import { JsArray, JsClosure, JsMap, JsObject, JsValue, js, Scope, type Binding } from './vars.js';

type Code = 'SOT013' | 'SOT014' | 'SOT015' | 'SOT016';
const refuse = (code: Code, detail: string): GraphBreak => new GraphBreak(code, detail);

// ---- the marker -----------------------------------------------------------------------------

export const CAPTURE_CF = Symbol.for('skiff.capture_control_flow');
/** Parsed sources of marked functions and of the methods of marked classes. */
const marked = new WeakSet<ParsedFunction>();

/**
 * paddle.jit.marker.capture_control_flow(fnOrLayerClass): tensor-valued tests in the function (or
 * in the class's methods) and in everything they call become if/while nodes. Returns its argument.
 */
export function capture_control_flow<T>(target: T): T {
  if (typeof target !== 'function') throw new TypeError(`paddle.jit.marker.capture_control_flow: expected a function or a Layer class, got ${target === null ? 'null' : typeof target}`);
  Object.defineProperty(target, CAPTURE_CF, { value: true, configurable: true, enumerable: false });
  const text = Function.prototype.toString.call(target);
  const fns: Function[] = [];
  if (/^class[\s{]/.test(text)) {
    for (let p = (target as { prototype?: object }).prototype; p && p !== Object.prototype && p !== Layer.prototype; p = Object.getPrototypeOf(p)) {
      for (const k of Object.getOwnPropertyNames(p)) {
        const d = Object.getOwnPropertyDescriptor(p, k);
        if (k !== 'constructor' && d && typeof d.value === 'function') fns.push(d.value as Function);
      }
    }
  } else fns.push(target as unknown as Function);
  // A function whose source cannot be simulated falls back when translated anyway.
  for (const f of fns) { try { marked.add(parseFunction(f)); } catch { /* not simulated */ } }
  return target;
}

/** Whether this frame asks for capture: marked code, or the forward of a layer below the root. */
function frameWants(f: Frame): boolean {
  if (marked.has(f.parsed)) return true;
  const self = f.thisVar;
  if (!(self instanceof JsValue) || !(self.value instanceof Layer) || !f.home) return false;
  if (self.source?.key === slotSource(0).key) return false;   // the to_static'd layer itself
  const fwd = (f.home as { forward?: unknown }).forward;
  if (typeof fwd !== 'function') return false;
  try { return parseFunction(fwd) === f.parsed; } catch { return false; }
}

/** Capture is on in the current frame when it, or a frame that (transitively) called it, wants it. */
export function captureEnabled(frame: Frame): boolean {
  if (frameWants(frame)) return true;
  for (const info of frame.tr.stack) {
    const f = frameOfInfo.get(info);
    if (f && frameWants(f)) return true;
  }
  return false;
}

// ---- binding writes inside sides ------------------------------------------------------------

/** One map per side being simulated (innermost last): a binding's value before its first write. */
const logs: Map<Binding, Variable | null>[] = [];
/** Inside a side (or a right operand) of code conditioned on a tensor: a break here cannot split the graph. */
export const capturing = (): boolean => logs.length > 0;

/** Called by the interpreter before it assigns to an existing binding. */
export function noteBindingWrite(b: Binding): void {
  for (const log of logs) if (!log.has(b)) log.set(b, b.v);
}

/** What the code at a branch can reach from before it: bindings (with names) and containers. */
interface Outer {
  readonly names: Map<Binding, string>;
  readonly containers: Set<JsArray | JsObject | JsMap>;
}

function collectOuter(frame: Frame, scope: Scope): Outer {
  const names = new Map<Binding, string>();
  const containers = new Set<JsArray | JsObject | JsMap>();
  const seenScopes = new Set<Scope>();
  const visitScope = (s: Scope | null): void => {
    for (; s && !seenScopes.has(s); s = s.parent) {
      seenScopes.add(s);
      for (const [k, b] of s.vars) { if (!names.has(b)) names.set(b, k); if (b.v) visit(b.v); }
    }
  };
  const visit = (v: Variable): void => {
    if (v instanceof JsClosure) { visitScope(v.scope); if (v.lexicalThis) visit(v.lexicalThis); return; }
    if (!(v instanceof JsArray || v instanceof JsObject || v instanceof JsMap) || containers.has(v)) return;
    containers.add(v);
    const items = v instanceof JsArray ? v.items : v instanceof JsObject ? [...v.props.values()] : [...v.entries.values()];
    items.forEach(visit);
  };
  visitScope(scope);
  visit(frame.thisVar);
  // Values the translated code wrote onto outside objects (a closure stored as this.fn).
  for (const o of frame.tr.overlay.values()) for (const x of o.values()) visit(x);
  return { names, containers };
}

function contents(c: JsArray | JsObject | JsMap): unknown[] {
  if (c instanceof JsArray) return [c.items.length, ...c.items];
  if (c instanceof JsObject) return [...c.props].flat();
  return [...c.entries].flat();
}

interface Side {
  readonly nodes: GraphNode[];
  /** Outer bindings the side wrote: their values at its end. */
  readonly finals: Map<Binding, Variable | null>;
  readonly value: Variable | null;
}

/** Runs `body` as one side: its graph work is taken out of the graph, its binding writes undone. */
function runSide(frame: Frame, outer: Outer, body: () => { c: Completion } | { v: Variable }): Side {
  const tr = frame.tr;
  const mark = tr.graph.nodes.length, effects = tr.effects.length, writes = tr.graph.writes.length;
  const snap = [...outer.containers].map((c) => [c, contents(c)] as const);
  const log = new Map<Binding, Variable | null>();
  logs.push(log);
  let r: { c: Completion } | { v: Variable };
  try {
    r = body();
  } catch (e) {
    throw sideFailure(e);
  } finally {
    logs.pop();
  }
  const c = 'c' in r ? r.c : null;
  if (c) throw refuse('SOT016', `${c.t === 'return' ? 'a return' : `a ${c.t}`} inside code conditioned on a tensor`);
  const nodes = tr.graph.nodes.splice(mark);
  if (tr.effects.length !== effects) throw refuse('SOT015', 'a write to an object from outside inside code conditioned on a tensor');
  if (tr.graph.writes.length !== writes) throw refuse('SOT015', 'a buffer update (batch_norm running statistics) inside code conditioned on a tensor');
  for (const [ct, was] of snap) {
    const now = contents(ct);
    if (now.length !== was.length || now.some((x, i) => x !== was[i])) throw refuse('SOT015', `a change of an ${ct instanceof JsArray ? 'array' : ct instanceof JsMap ? 'Map' : 'object'} made before the branch`);
  }
  if (nodes.some(hasRandom)) throw refuse('SOT016', 'a random op inside code conditioned on a tensor');
  const finals = new Map<Binding, Variable | null>();
  for (const [b, old] of log) {
    // Bindings made inside the side are its own; the others go back to their values before it.
    if (!outer.names.has(b)) continue;
    finals.set(b, b.v);
    b.v = old;
  }
  return { nodes, finals, value: 'v' in r ? r.v : null };
}

const hasRandom = (n: GraphNode): boolean => n.def.random || (n.regions?.some((r) => r.nodes.some(hasRandom)) ?? false);

function sideFailure(e: unknown): unknown {
  if (!(e instanceof GraphBreak)) return e;   // internal errors stay SOT105
  if (['SOT013', 'SOT014', 'SOT015', 'SOT016'].includes(e.code)) return e;
  return refuse(e.code === 'SOT004' ? 'SOT015' : 'SOT016', `${e.code} inside code conditioned on a tensor: ${e.detail}`);
}

// ---- merging --------------------------------------------------------------------------------

function sameValue(a: Variable, b: Variable): boolean {
  if (a === b) return true;
  if (a instanceof TensorVar && b instanceof TensorVar) return a.sym === b.sym;
  if (a instanceof JsValue && b instanceof JsValue) return Object.is(a.value, b.value);
  return false;
}

/** A tensor as a graph value: eager tensors (constants made by creation ops) are bound as inputs. */
function asTensor(frame: Frame, v: Variable | null | undefined): TensorVar | null {
  if (v instanceof TensorVar) return v;
  if (v instanceof JsValue && v.value instanceof Tensor) return new TensorVar(frame.tr.graph.bind(v.value));
  return null;
}

class Merger {
  readonly pairs: [SymTensor, SymTensor, SymTensor][] = [];
  constructor(private readonly frame: Frame) {}

  merge(a: Variable | null, b: Variable | null, what: string): Variable | null {
    if (a === b || (a && b && sameValue(a, b))) return a;
    const undef = (v: Variable | null) => v === null || (v instanceof JsValue && v.value === undefined);
    if (undef(a) !== undef(b)) throw refuse('SOT013', `${what} is bound on one side of the branch only`);
    const ta = asTensor(this.frame, a), tb = asTensor(this.frame, b);
    if (ta && tb) {
      const x = ta.sym, y = tb.sym;
      if (x === y) return ta;
      if (x.dtype !== y.dtype || shapeStr(x.shape) !== shapeStr(y.shape)) throw refuse('SOT014', `${what} is ${x.dtype}${shapeStr(x.shape)} on one side and ${y.dtype}${shapeStr(y.shape)} on the other`);
      // A value wanting gradients on one side only (a constant start value on the other): the
      // output wants them, and the constant side passes none back.
      const out = this.frame.tr.graph.newValue(x.dtype, x.shape, x.stop_gradient && y.stop_gradient);
      this.pairs.push([x, y, out]);
      return new TensorVar(out);
    }
    throw refuse('SOT013', `${what} differs between the sides of the branch (${a?.kind} vs ${b?.kind}) and is not a tensor on both`);
  }

  node(cond: SymTensor, a: Side, b: Side): GraphNode {
    return ifNode(cond.id,
      { nodes: a.nodes, args: [], yields: this.pairs.map(([x]) => x.id) },
      { nodes: b.nodes, args: [], yields: this.pairs.map(([, y]) => y.id) },
      this.pairs.map(([, , o]) => o.id));
  }
}

/** Merges the bindings either side wrote into the live environment. */
function mergeBindings(M: Merger, outer: Outer, a: Side, b: Side): void {
  const keys = [...new Set([...a.finals.keys(), ...b.finals.keys()])];
  const merged = keys.map((k) => M.merge(a.finals.has(k) ? a.finals.get(k)! : k.v, b.finals.has(k) ? b.finals.get(k)! : k.v, `variable '${outer.names.get(k)}'`));
  keys.forEach((k, i) => { k.v = merged[i]; });
}

// ---- tests ----------------------------------------------------------------------------------

const COMPARE = new Set(['<', '<=', '>', '>=', '==', '!=', '===', '!==']);
const CMP_OP: Record<string, string> = { '<': 'less_than', '<=': 'less_equal', '>': 'greater_than', '>=': 'greater_equal', '==': 'equal', '!=': 'not_equal', '===': 'equal', '!==': 'not_equal' };

/** `.item()` of a tensor in a test: the tensor (its value is what JS would see). */
class ItemOf { constructor(readonly t: TensorVar) {} }

const rec = (frame: Frame, name: string, inputs: unknown[], attrs: Record<string, unknown> = {}): SymTensor =>
  frame.tr.graph.recording(() => runOp(name, inputs as never, attrs)[0]) as SymTensor;

/** The one-element tensor as a float64 scalar (shape []): the number `.item()` gives. */
function scalar64(frame: Frame, t: TensorVar): SymTensor {
  const s = t.sym;
  if (!isStatic(s.shape) || s.shape.reduce((p, d) => p * (d as number), 1) !== 1) throw refuse('SOT016', `condition tensor of shape ${shapeStr(s.shape)} is not one element`);
  if (s.dtype.startsWith('complex')) throw refuse('SOT016', `condition on a ${s.dtype} tensor`);
  let x: SymTensor = s;
  if (x.shape.length !== 0) x = rec(frame, 'reshape', [x], { shape: [] });
  return x.dtype === 'float64' ? x : rec(frame, 'cast', [x], { dtype: 'float64' });
}

/** Truthiness of `.item()` (0, -0 and NaN are falsy; bool is itself) as a bool scalar. */
function truth(frame: Frame, t: TensorVar): SymTensor {
  if (t.sym.dtype === 'bool') {
    scalar64(frame, t);   // the one-element check
    return t.sym.shape.length === 0 ? t.sym : rec(frame, 'reshape', [t.sym], { shape: [] });
  }
  const x = scalar64(frame, t);
  const zero = rec(frame, 'full', [], { shape: [], fill_value: 0, dtype: 'float64' });
  return rec(frame, 'logical_or', [rec(frame, 'greater_than', [x, zero]), rec(frame, 'less_than', [x, zero])]);
}

const isCond = (v: unknown): v is SymTensor => v instanceof SymTensor;

/** An operand of a comparison in a test: `.item()` of a tensor stays a tensor. */
function operand(frame: Frame, n: E.Expression, scope: Scope): Variable | ItemOf {
  if (n.type === 'CallExpression' && n.arguments.length === 0 && n.callee.type === 'MemberExpression' && !n.callee.computed && !n.callee.optional && !n.optional
    && n.callee.property.type === 'Identifier' && n.callee.property.name === 'item' && n.callee.object.type !== 'Super') {
    const obj = expr(frame, n.callee.object, scope);
    if (obj instanceof TensorVar) return new ItemOf(obj);
    return callMethod(frame, obj, 'item', []);
  }
  return expr(frame, n, scope);
}

function compare(frame: Frame, op: string, l: Variable | ItemOf, r: Variable | ItemOf): SymTensor {
  const side = (v: Variable | ItemOf): { s: SymTensor; type: string } => {
    if (v instanceof ItemOf) return { s: scalar64(frame, v.t), type: v.t.sym.dtype === 'bool' ? 'boolean' : 'number' };
    const p = v instanceof JsValue ? v.value : undefined;
    if (typeof p !== 'number' && typeof p !== 'boolean') throw refuse('SOT016', `a tensor value compared with a ${v instanceof JsValue ? typeof p : v.kind} (only numbers and booleans are captured)`);
    return { s: rec(frame, 'full', [], { shape: [], fill_value: Number(p), dtype: 'float64' }), type: typeof p };
  };
  const a = side(l), b = side(r);
  // `true === 1` is false in JS though both convert to 1: strict equality across types is refused.
  if ((op === '===' || op === '!==') && a.type !== b.type) throw refuse('SOT016', `${op} between a ${a.type} and a ${b.type}`);
  return rec(frame, CMP_OP[op], [a.s, b.s]);
}

/** A test's value: a concrete variable, or a bool scalar when it depends on a tensor's value. */
function condValue(frame: Frame, n: E.Expression, scope: Scope): Variable | SymTensor {
  if (n.type === 'UnaryExpression' && n.operator === '!') {
    const v = condValue(frame, n.argument, scope);
    return isCond(v) ? rec(frame, 'logical_not', [v]) : js(!truthy(v));
  }
  if (n.type === 'BinaryExpression' && COMPARE.has(n.operator) && n.left.type !== 'PrivateIdentifier') {
    const l = operand(frame, n.left, scope), r = operand(frame, n.right, scope);
    if (!(l instanceof ItemOf) && !(r instanceof ItemOf)) return binary(n.operator, l, r);
    return compare(frame, n.operator, l, r);
  }
  if (n.type === 'LogicalExpression' && n.operator !== '??') {
    const l = condValue(frame, n.left, scope);
    if (!isCond(l)) {
      // Concrete left: JS's own short-circuit (the value itself only matters for its truthiness).
      if (n.operator === '&&' ? !truthy(l) : truthy(l)) return l;
      return condValue(frame, n.right, scope);
    }
    // Eagerly the right side runs only for one value of the left: capture it only when running
    // it always changes nothing (no writes, no effects); its graph work is pure.
    const tr = frame.tr;
    const effects = tr.effects.length, writes = tr.graph.writes.length;
    const log = new Map<Binding, Variable | null>();
    logs.push(log);
    let r: Variable | SymTensor;
    try { r = condValue(frame, n.right, scope); } finally { logs.pop(); }
    if (log.size || tr.effects.length !== effects || tr.graph.writes.length !== writes) throw refuse('SOT015', `a side effect in the right operand of ${n.operator} after a tensor condition`);
    if (!isCond(r)) return truthy(r) === (n.operator === '&&') ? l : js(n.operator === '||');
    return rec(frame, n.operator === '&&' ? 'logical_and' : 'logical_or', [l, r]);
  }
  const v = operand(frame, n, scope);
  return v instanceof ItemOf ? truth(frame, v.t) : v;
}

/**
 * The value of a test (if, ternary, loop): a boolean, or, in capturing code when it depends on a
 * tensor's value, the bool scalar to branch on.
 */
export function branchTest(frame: Frame, n: E.Expression, scope: Scope): boolean | SymTensor {
  // A test whose capture refused in an earlier attempt of this translation runs concretely
  // (its `.item()` splits the graph instead: static_function.ts retries).
  if (!captureEnabled(frame) || frame.tr.noCapture.has(n)) return truthy(expr(frame, n, scope));
  return atTest(n, () => {
    const v = condValue(frame, n, scope);
    return isCond(v) ? v : truthy(v);
  });
}

/** The test expression whose capture refused, by refusal (the innermost test wins). */
export const refusedTest = new WeakMap<GraphBreak, E.Node>();
const REFUSALS = new Set(['SOT013', 'SOT014', 'SOT015', 'SOT016']);

/** Runs the capture of one test's construct, tagging a refusal with the test. */
export function atTest<R>(test: E.Node, run: () => R): R {
  try {
    return run();
  } catch (e) {
    if (e instanceof GraphBreak && REFUSALS.has(e.code) && !refusedTest.has(e)) refusedTest.set(e, test);
    throw e;
  }
}

// ---- if, ternary ----------------------------------------------------------------------------

/** `if (cond) a else b` as an if node; the environment continues with the merged values. */
export function captureIf(frame: Frame, s: E.IfStatement, scope: Scope, cond: SymTensor): Completion {
  const outer = collectOuter(frame, scope);
  const a = runSide(frame, outer, () => ({ c: exec(frame, s.consequent, new Scope(scope)) }));
  const b = runSide(frame, outer, () => ({ c: s.alternate ? exec(frame, s.alternate, new Scope(scope)) : null }));
  const M = new Merger(frame);
  mergeBindings(M, outer, a, b);
  frame.tr.graph.nodes.push(M.node(cond, a, b));
  return null;
}

/** `cond ? a : b` as an if node yielding the value (and any binding the operands wrote). */
export function captureTernary(frame: Frame, n: E.ConditionalExpression, scope: Scope, cond: SymTensor): Variable {
  const outer = collectOuter(frame, scope);
  const a = runSide(frame, outer, () => ({ v: expr(frame, n.consequent, scope) }));
  const b = runSide(frame, outer, () => ({ v: expr(frame, n.alternate, scope) }));
  const M = new Merger(frame);
  const v = M.merge(a.value, b.value, 'the value of the conditional expression')!;
  mergeBindings(M, outer, a, b);
  frame.tr.graph.nodes.push(M.node(cond, a, b));
  return v;
}

// ---- loops ----------------------------------------------------------------------------------

/**
 * The rest of a loop whose test `cond0` depends on a tensor, as a while node. `iteration` runs
 * the body (and a for loop's update) once; `test` evaluates the condition again. Pass 1 finds the
 * loop-carried bindings (written with a different value); pass 2 runs the body on block
 * arguments standing for them and yields the next condition and values.
 */
export function captureLoop(frame: Frame, scope: Scope, cond0: SymTensor, iteration: () => Completion, test: () => boolean | SymTensor): Completion {
  const tr = frame.tr;
  const outer = collectOuter(frame, scope);
  const pass = (): Side => runSide(frame, outer, () => {
    const c = iteration();
    if (c) return { c };
    const t = test();
    if (typeof t === 'boolean') throw refuse('SOT016', 'the loop condition does not depend on a tensor after an iteration');
    return { v: new TensorVar(t) };
  });
  const p1 = pass();
  const carried = [...p1.finals].filter(([b, v]) => !(v && b.v && sameValue(v, b.v))).map(([b, v]) => {
    const name = `variable '${outer.names.get(b)}'`;
    const init = asTensor(frame, b.v), after = asTensor(frame, v);
    if (!init || !after) throw refuse('SOT013', `${name} changes in the loop and is not a tensor`);
    sameMeta(init.sym, after.sym, name);
    return { b, init: init.sym, name, sg: init.sym.stop_gradient && after.sym.stop_gradient };
  });
  const args = carried.map((c) => tr.graph.newValue(c.init.dtype, c.init.shape, c.sg));
  carried.forEach((c, k) => { c.b.v = new TensorVar(args[k]); });
  let p2: Side;
  try {
    p2 = pass();
  } finally {
    carried.forEach((c) => { c.b.v = new TensorVar(c.init); });
  }
  for (const [b, v] of p2.finals) {
    if (carried.some((c) => c.b === b)) continue;
    if (!(v && b.v && sameValue(v, b.v))) throw refuse('SOT016', `variable '${outer.names.get(b)}' changes in the loop only on block arguments`);
  }
  const next = carried.map((c, k) => {
    const v = asTensor(frame, p2.finals.has(c.b) ? p2.finals.get(c.b) : new TensorVar(args[k]));
    if (!v) throw refuse('SOT013', `${c.name} is not a tensor after an iteration`);
    sameMeta(args[k], v.sym, c.name);
    if (v.sym.stop_gradient !== c.sg) throw refuse('SOT014', `${c.name} wants gradients only after an iteration`);
    return v.sym;
  });
  const cond = (p2.value as TensorVar).sym;
  const outs = carried.map((c) => tr.graph.newValue(c.init.dtype, c.init.shape, c.sg));
  tr.graph.nodes.push(whileNode(cond0.id, carried.map((c) => c.init.id),
    { nodes: p2.nodes, args: args.map((a) => a.id), yields: [cond.id, ...next.map((x) => x.id)] }, outs.map((o) => o.id)));
  carried.forEach((c, k) => { c.b.v = new TensorVar(outs[k]); });
  return null;
}

function sameMeta(x: SymTensor, y: SymTensor, what: string): void {
  if (x.dtype !== y.dtype || shapeStr(x.shape) !== shapeStr(y.shape)) throw refuse('SOT014', `${what} is ${x.dtype}${shapeStr(x.shape)} before an iteration and ${y.dtype}${shapeStr(y.shape)} after it`);
}
