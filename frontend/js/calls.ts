// Calls: inlining of user functions, closures and user layers' forward (when their source is
// available), symbolic calls of Skiff's own library (paddle.* functions, Tensor methods, built-in
// layers' forward: they run on symbolic tensors and their registry ops are recorded), pure JS
// builtins on constants (Math.*, Number, String...), array/Map methods on translation-made
// containers, and the breaks of the catalogue (console.*, .item(), .numpy(), unknown functions).
import type * as E from 'estree';
import { Layer } from '../../src/nn/layer.js';
import { Sequential } from '../../src/nn/container.js';
import { surface } from '../../src/ops/index.js';
import { Tensor } from '../../src/tensor/tensor.js';
import { SymTensor } from '../../sot/function_graph.js';
import { GraphBreak } from '../../sot/graph_breaks.js';
import { TensorVar, type Variable } from '../../sot/variables.js';
import { isPlainObject, layerSnapshot } from './guards.js';
import { chain, expr, Frame, isNullish, memberKey, primitive, runFunction, scopeOf, SHORT } from './interp.js';
import { getMember, iterate, iterateVar, strictEqual, truthy, wrapHost } from './ops.js';
import { parseFunction, type ParsedFunction } from './parse.js';
import { convertsArgs, isBuiltinClass, isLibraryFunction, inplaceBase, isPureBuiltin } from './library.js';
import { MAX_INLINE_DEPTH, type Translation } from './translation.js';
import { capturing } from './control_flow.js';
import { SplitSignal } from './split.js';
import { isPrimitive, JsArray, JsClosure, JsMap, JsObject, JsValue, js, LazyValue, lazyMethod, materialize, Scope, UNDEFINED, wrap } from './vars.js';

export function callExpression(frame: Frame, n: E.CallExpression, scope: Scope, inChain: boolean): Variable | typeof SHORT {
  frame.info.node = n;
  const c = n.callee;
  if (c.type === 'Super') throw new GraphBreak('SOT007', 'super() call');
  const sub = (e: E.Expression): Variable | typeof SHORT =>
    inChain && (e.type === 'MemberExpression' || e.type === 'CallExpression') ? chainValue(frame, e, scope) : expr(frame, e, scope);
  if (c.type === 'MemberExpression') {
    if (c.object.type === 'Super') {
      const key = c.computed ? memberKey(expr(frame, c.property as E.Expression, scope)) : (c.property as E.Identifier).name;
      return superCall(frame, String(key), evalArgs(frame, n.arguments, scope));
    }
    const obj = sub(c.object as E.Expression);
    if (obj === SHORT) return SHORT;
    if (c.optional && isNullish(obj)) return SHORT;
    const key = c.computed ? memberKey(expr(frame, c.property as E.Expression, scope)) : (c.property as E.Identifier).name;
    if ((n as E.SimpleCallExpression).optional && isNullish(getMember(frame.tr, obj, key))) return SHORT;
    const args = evalArgs(frame, n.arguments, scope);
    frame.info.node = n;
    return callMethod(frame, obj, String(key), args);
  }
  const callee = sub(c as E.Expression);
  if (callee === SHORT) return SHORT;
  if ((n as E.SimpleCallExpression).optional && isNullish(callee)) return SHORT;
  // The build plugin's inserted helpers (`__skiffScope(() => ..., names, getter)`) evaluate to
  // their first argument; the rest is the accessor's plumbing, which is not run (contract in
  // docs/js_frontend.md, Build plugin).
  if (isScopeHelper(callee)) {
    const first = n.arguments[0];
    if (!first || first.type === 'SpreadElement') throw new GraphBreak('SOT007', 'a skiff scope helper call without a plain first argument');
    return expr(frame, first, scope);
  }
  const args = evalArgs(frame, n.arguments, scope);
  frame.info.node = n;
  return callValue(frame, callee, UNDEFINED, args);
}

const HELPER_KEY = Symbol.for('skiff.scope.helper');
const isScopeHelper = (f: Variable): boolean =>
  f instanceof JsValue && typeof f.value === 'function' && Object.prototype.hasOwnProperty.call(f.value, HELPER_KEY);

function chainValue(frame: Frame, e: E.MemberExpression | E.CallExpression, scope: Scope): Variable | typeof SHORT {
  return chain(frame, e, scope);
}

function evalArgs(frame: Frame, args: readonly (E.Expression | E.SpreadElement)[], scope: Scope): Variable[] {
  const out: Variable[] = [];
  for (const a of args) {
    if (a.type === 'SpreadElement') out.push(...iterateVar(frame.tr, expr(frame, a.argument, scope)));
    else out.push(expr(frame, a, scope));
  }
  return out;
}

export function newExpression(frame: Frame, n: E.NewExpression, scope: Scope): Variable {
  frame.info.node = n;
  const C = expr(frame, n.callee as E.Expression, scope);
  const args = evalArgs(frame, n.arguments, scope);
  if (C instanceof JsValue && C.value === Map) {
    const m = new JsMap(new Map());
    if (args[0] && !isNullish(args[0])) for (const pair of iterate(args[0])) {
      const [k, v] = iterate(pair);
      m.entries.set(mapKey(k), v ?? UNDEFINED);
    }
    return m;
  }
  throw new GraphBreak('SOT007', `new ${C instanceof JsValue && typeof C.value === 'function' ? C.value.name : 'value'}() inside translated code`);
}

function mapKey(k: Variable): unknown {
  if (k instanceof JsValue) return k.value;
  throw new GraphBreak('SOT007', 'a Map key that is not a concrete value');
}

// ---- dispatch on the receiver ---------------------------------------------------------------

export function callMethod(frame: Frame, recv: Variable, name: string, args: Variable[]): Variable {
  if (recv instanceof TensorVar) return tensorMethod(frame, recv, name, args);
  if (recv instanceof JsArray) return arrayMethod(frame, recv, name, args);
  if (recv instanceof JsMap) return mapMethod(frame, recv, name, args);
  if (recv instanceof JsObject) return callValue(frame, getMember(frame.tr, recv, name), recv, args);
  if (recv instanceof LazyValue) {
    const lazy = lazyMethod(recv, name, args);
    if (lazy) return lazy;
  }
  if (recv instanceof JsValue) {
    const v = recv.value;
    if (v === null || v === undefined) throw new GraphBreak('SOT007', `calling ${name} of ${String(v)} (TypeError eagerly)`);
    if (v instanceof Tensor) return tensorMethod(frame, new TensorVar(frame.tr.graph.bind(v)), name, args);
    if (isPrimitive(v)) return primitiveMethod(v, name, args);
    // Any console method (also a spied or replaced one): printed by the leaf, in order with the
    // other side effects (whichever function console[name] is then), so it does not break the
    // graph (full_graph allows it). Not inside code conditioned on a tensor: whether it prints
    // would depend on the branch taken.
    if (v === globalThis.console) {
      if (capturing()) throw new GraphBreak('SOT004', `console.${name}()`);
      if (typeof (console as unknown as Record<string, unknown>)[name] !== 'function') throw new GraphBreak('SOT007', `console.${name} is not a function (TypeError eagerly)`);
      frame.tr.consoleCall(name, args);
      return UNDEFINED;
    }
    if (v instanceof Layer) {
      if (name === 'call' || name === 'forward') return layerCall(frame, recv, name, args);
      const owner = ownerOf(v, name);
      if (owner && isBuiltinClass(owner.constructor)) throw new GraphBreak('SOT005', `${owner.constructor.name}.${name}() is Skiff library code that is not modelled`);
    }
    // A method's free variables come with its class (the plugin's accessor is per class).
    const owner = typeof v === 'object' ? ownerOf(v as object, name) : null;
    return callValue(frame, getMember(frame.tr, recv, name), recv, args, owner?.constructor);
  }
  return callValue(frame, getMember(frame.tr, recv, name), recv, args);
}

export function callValue(frame: Frame, f: Variable, thisVar: Variable, args: Variable[], ownerClass?: unknown): Variable {
  const tr = frame.tr;
  if (f instanceof JsClosure) {
    const parent = f.frame as Frame;
    const fr = new Frame(tr, f.parsed, f.lexicalThis ?? thisVar, parent.scopeSource, parent.scopeRecord, `${parent.info.name}>${f.node.type === 'ArrowFunctionExpression' ? 'arrow' : (f.node.id?.name ?? 'function')}`,
      f.node.type === 'ArrowFunctionExpression' ? parent.home : null);
    return inline(fr, f.node, f.scope, args);
  }
  if (!(f instanceof JsValue) || typeof f.value !== 'function') throw new GraphBreak('SOT007', 'call of a value that is not a function (TypeError eagerly)');
  const fn = f.value as (...a: unknown[]) => unknown;
  if (isConsole(fn)) throw new GraphBreak('SOT004', `console.${fn.name}()`);
  if (fn === Math.random) throw new GraphBreak('SOT010', 'Math.random()');
  if (fn === Object.is) {
    const [a, b] = [args[0] ?? UNDEFINED, args[1] ?? UNDEFINED];
    return js(a instanceof JsValue && b instanceof JsValue ? Object.is(a.value, b.value) : strictEqual(a, b));
  }
  if (fn === Array.isArray) return js(args[0] instanceof JsArray || (args[0] instanceof JsValue && Array.isArray(args[0].value)));
  if (fn === Object.keys && args[0] instanceof JsObject) return new JsArray([...args[0].props.keys()].map((k) => js(k)));
  if (fn === Object.values && args[0] instanceof JsObject) return new JsArray([...args[0].props.values()]);
  if (fn === Object.entries && args[0] instanceof JsObject) return new JsArray([...args[0].props].map(([k, v]) => new JsArray([js(k), v])));
  if ((fn === Object.keys || fn === Object.values || fn === Object.entries) && args[0] instanceof JsValue && isPlainObject(args[0].value)) {
    return outsideKeys(tr, args[0], fn === Object.keys ? 'keys' : fn === Object.values ? 'values' : 'entries');
  }
  if (fn === Array.from && args.length === 1 && !(args[0] instanceof TensorVar)) return new JsArray(iterate(args[0]));
  if (isPureBuiltin(fn)) return pureCall(fn, thisVar, convertsArgs(fn) ? args.map((a) => convertTensor(tr, a, `${fn.name}()`)) : args);
  if (isLibraryFunction(fn)) {
    const base = inplaceBase(fn);
    if (base && args[0] instanceof TensorVar) return functionalize(frame, args[0], base, undefined, args.slice(1), fn.name);
    return libraryCall(frame, fn, thisVar instanceof JsValue ? thisVar.value : undefined, args);
  }
  if (isBuiltinClass(fn)) throw new GraphBreak('SOT007', `${fn.name} called without new`);
  // A user function: inline it when its source is available.
  const parsed = parseOrUnknown(fn, thisVar);
  let sc = scopeOf(tr, fn, f.source);
  if (!sc.record && ownerClass) sc = scopeOf(tr, ownerClass, null);
  const home = ownerClass && typeof ownerClass === 'function' ? (ownerClass as { prototype: object }).prototype : null;
  const fr = new Frame(tr, parsed, thisVar, sc.source, sc.record, fn.name || 'anonymous', home);
  return inline(fr, parsed.node, null, args);
}

/**
 * Object.keys/values/entries of a plain object from outside: its key list is guarded (a new or
 * removed key re-translates), its values are read (and guarded) as member reads are. Keys the
 * translated code added are not modelled (JS orders integer-like keys first): a break.
 */
function outsideKeys(tr: Translation, o: JsValue, what: 'keys' | 'values' | 'entries'): Variable {
  const obj = o.value as Record<string, unknown>;
  const keys = Object.keys(obj);
  const written = tr.overlay.get(obj);
  if (written && [...written.keys()].some((k) => !keys.includes(k))) throw new GraphBreak('SOT005', `${what} of an object the function added properties to`);
  tr.guards.add({ kind: 'keys', source: o.source ?? tr.pin(obj), expect: keys });
  if (what === 'keys') return new JsArray(keys.map((k) => js(k)));
  const values = keys.map((k) => getMember(tr, o, k));
  return new JsArray(what === 'values' ? values : keys.map((k, i) => new JsArray([js(k), values[i]])));
}

/**
 * The source of a called function, or break SOT005 naming it. An unknown function (native,
 * bound, a class) does not split the graph as a value read does: it may have effects, and a JS
 * frame cannot be resumed after a step with effects (a later failure would rerun the function
 * from its start, calling it twice). So calls reaching it run the whole function eagerly.
 */
function parseOrUnknown(fn: Function, thisVar: Variable): ParsedFunction {
  try {
    return parseFunction(fn);
  } catch (e) {
    if (!(e instanceof GraphBreak) || e.code !== 'SOT005') throw e;
    const owner = thisVar instanceof JsValue && thisVar.value !== null && thisVar.value !== undefined && thisVar.value !== globalThis
      ? (typeof thisVar.value === 'function' ? (thisVar.value as Function).name : (thisVar.value as object).constructor?.name) : '';
    const name = `${owner ? `${owner}.` : ''}${fn.name || 'anonymous function'}`;
    throw new GraphBreak('SOT005', `call of ${name}: ${e.detail}; an unknown call does not split the graph (it may have effects, and a rerun after a later break would call it twice), so the whole call runs eagerly. ${UNKNOWN_CALL_HINT}`);
  }
}

/** What to do about an unknown call (also the full_graph hint of SOT005 in JS, static_function.ts). */
export const UNKNOWN_CALL_HINT = 'Move the call out of the translated function (pass its result in as an argument), or use a paddle API or a function whose source the translator can read';

function inline(fr: Frame, node: Parameters<typeof runFunction>[1], closureScope: Scope | null, args: Variable[]): Variable {
  if (fr.tr.stack.length >= MAX_INLINE_DEPTH) throw new GraphBreak('SOT007', `inlining deeper than ${MAX_INLINE_DEPTH} calls (recursion?)`);
  return runFunction(fr, node, closureScope, args);
}

const consoleFns = new Set<unknown>(Object.values(console).filter((v) => typeof v === 'function'));
const isConsole = (f: unknown): boolean => consoleFns.has(f);

function pureCall(fn: (...a: unknown[]) => unknown, thisVar: Variable, args: Variable[]): Variable {
  // String() of a split's string (String(t) itself): the same string, still unread (and unguarded).
  if (fn === String && args.length === 1 && args[0] instanceof LazyValue && typeof args[0].raw === 'string') return args[0];
  const real = args.map((a) => materialize(a));
  if (real.some((x) => x instanceof SymTensor || (Array.isArray(x) && x.some((y) => y instanceof SymTensor)))) {
    throw new GraphBreak('SOT001', `${fn.name}() on a tensor (JS converts it to a number through its values)`);
  }
  try {
    return wrapHost(fn.apply(thisVar instanceof JsValue ? thisVar.value : undefined, real));
  } catch (e) {
    throw new GraphBreak('SOT007', `${fn.name}(): ${(e as Error).message} (raises eagerly)`);
  }
}

/** Runs Skiff library code on symbolic arguments: its registry ops are recorded into the graph. */
export function libraryCall(frame: Frame, fn: (...a: unknown[]) => unknown, self: unknown, args: readonly Variable[]): Variable {
  const real = args.map((a) => materialize(a));
  let out: unknown;
  try {
    out = frame.tr.graph.recording(() => fn.apply(self, real));
  } catch (e) {
    if (e instanceof GraphBreak) throw e;
    throw new GraphBreak('SOT011', `${fn.name || 'library function'}: ${(e as Error).message}`);
  }
  return wrap(out);
}

function primitiveMethod(v: unknown, name: string, args: Variable[]): Variable {
  const f = (Object(v) as Record<string, unknown>)[name];
  if (typeof f !== 'function') throw new GraphBreak('SOT007', `${typeof v}.${name} is not a function (TypeError eagerly)`);
  const real = args.map((a) => primitive(a, `argument of ${typeof v}.${name}()`));
  try {
    return wrapHost((f as (...a: unknown[]) => unknown).apply(v, real));
  } catch (e) {
    throw new GraphBreak('SOT007', `${typeof v}.${name}(): ${(e as Error).message} (raises eagerly)`);
  }
}

// ---- tensors --------------------------------------------------------------------------------

const TO_VALUE = new Set(['item', 'tolist', 'dataSync', 'rawData', 'toString', 'toLocaleString']);

/**
 * A value JS converts to a primitive (an operator's operand, a template literal's part, an
 * argument of Math.* or Number/String): a tensor converts through its toString (Tensor has no
 * valueOf or Symbol.toPrimitive), a pure read of its value, so it splits the graph like
 * `.item()`: the step is String(t) on the real tensor, and the conversion goes on from that
 * string exactly as the engine's does. Not inside code conditioned on a tensor, nor under
 * full_graph: there it stays break SOT001.
 */
export function convertTensor(tr: Translation, v: Variable, what: string): Variable {
  if (!(v instanceof TensorVar)) return v;
  if (tr.splitting && !capturing() && convertsByToString()) return tr.splitAt(() => new SplitSignal('toString', v.sym, 'SOT002', `${what} converts a tensor to a string`));
  throw new GraphBreak('SOT001', `${what} on a tensor (JS converts it with toString, which reads its values)`);
}
/** ToPrimitive on a Tensor is its toString for every hint (checked, not assumed: a later valueOf would change that). */
const convertsByToString = (): boolean => {
  const p = Tensor.prototype as unknown as Record<PropertyKey, unknown>;
  return p[Symbol.toPrimitive] === undefined && p.valueOf === Object.prototype.valueOf;
};

/** Hand-written Tensor methods that are compositions of public ops (safe on symbolic tensors). */
const COMPOSITE_METHODS = new Set(['get', 'norm', 'repeat_interleave']);

function tensorMethod(frame: Frame, t: TensorVar, name: string, args: Variable[]): Variable {
  if (TO_VALUE.has(name)) {
    // A pure read of the value splits the graph (split.ts): not inside code conditioned on a
    // tensor (a captured side cannot end a segment), and `.item()` only where it cannot raise.
    // `.dataSync()` and `.toString()` are `.tolist()`'s kind: they cannot raise on a live tensor.
    const method = name === 'item' || name === 'tolist' || name === 'dataSync' ? name : name === 'toString' || name === 'toLocaleString' ? 'toString' : null;
    const one = t.sym.shape.every((d) => typeof d === 'number') && t.sym.shape.reduce((p: number, d) => p * (d as number), 1) === 1;
    if (method && frame.tr.splitting && args.length === 0 && !capturing() && (method !== 'item' || one) && !t.sym.dtype.startsWith('complex')) {
      return frame.tr.splitAt(() => new SplitSignal(method, t.sym));
    }
    throw new GraphBreak('SOT002', `.${name}()`);
  }
  if (name === 'numpy') throw new GraphBreak('SOT003', '.numpy()');
  if (name === 'detach') return new TensorVar(frame.tr.graph.detach(t.sym));
  const proto = SymTensor.prototype as unknown as Record<string, unknown>;
  if (name.endsWith('_') && surface.methods.has(name) && surface.methods.has(name.slice(0, -1))) {
    return functionalize(frame, t, proto[name.slice(0, -1)] as (...a: unknown[]) => unknown, t.sym, args, name);
  }
  // Object.prototype's methods (hasOwnProperty, valueOf, ...) would run on the symbolic tensor
  // and answer for it, not for the real one.
  if (Object.prototype.hasOwnProperty.call(Object.prototype, name) && (Tensor.prototype as unknown as Record<string, unknown>)[name] === (Object.prototype as unknown as Record<string, unknown>)[name]) {
    throw new GraphBreak('SOT007', `Tensor.${name}() (Object.prototype's) is not modelled on a captured tensor`);
  }
  if (typeof proto[name] === 'function') return libraryCall(frame, proto[name] as (...a: unknown[]) => unknown, t.sym, args);
  const hand = (Tensor.prototype as unknown as Record<string, unknown>)[name];
  if (COMPOSITE_METHODS.has(name) && typeof hand === 'function') return libraryCall(frame, hand as (...a: unknown[]) => unknown, t.sym, args);
  throw new GraphBreak('SOT007', `Tensor.${name}() is not modelled on a captured tensor`);
}

/**
 * An inplace op (x.add_(y), paddle.relu_(x)) on a tensor made in the graph: recorded in its
 * functional form and the tensor's variable rebound, so every alias in the translation sees it.
 * A tensor from outside would need a write-back, and a view shares storage the rebinding cannot
 * follow: both break (the function runs eagerly).
 */
function functionalize(frame: Frame, t: TensorVar, base: (...a: unknown[]) => unknown, self: unknown, rest: Variable[], name: string): Variable {
  if (t.source) throw new GraphBreak('SOT007', `${name}: inplace write to a tensor from outside the function`);
  const id = t.sym.id;
  if (frame.tr.graph.nodes.some((nd) => nd.def.view && (nd.inputs.includes(id) || nd.outputs.includes(id)))) {
    throw new GraphBreak('SOT007', `${name}: inplace write to a view (or a viewed tensor) made in the graph`);
  }
  const r = self === undefined ? libraryCall(frame, base, undefined, [t, ...rest]) : libraryCall(frame, base, self, rest);
  if (!(r instanceof TensorVar) || r.sym.dtype !== t.sym.dtype) throw new GraphBreak('SOT007', `${name}: the result does not keep the tensor's dtype`);
  t.sym = r.sym;
  return t;
}

/** super.name(...args) in a method: the lookup starts above the method's home object. */
function superCall(frame: Frame, name: string, args: Variable[]): Variable {
  const tr = frame.tr;
  if (!frame.home) throw new GraphBreak('SOT007', `super.${name}() outside a method the translator knows the class of`);
  const parent = Object.getPrototypeOf(frame.home) as object | null;
  const owner = parent && (Object.prototype.hasOwnProperty.call(parent, name) ? parent : ownerOf(parent, name));
  const fn = owner ? (owner as Record<string, unknown>)[name] : undefined;
  if (typeof fn !== 'function') throw new GraphBreak('SOT007', `super.${name} is not a function (TypeError eagerly)`);
  const self = frame.thisVar;
  if (isBuiltinClass(owner!.constructor)) {
    // A user subclass calling a built-in layer's forward: run it symbolically on the real layer.
    if (name !== 'forward' || !(self instanceof JsValue) || !(self.value instanceof Layer)) throw new GraphBreak('SOT005', `super.${name}() is Skiff library code that is not modelled`);
    const layer = self.value;
    if (layer.sublayers(false).length) throw new GraphBreak('SOT005', 'super.forward() of a built-in layer that has sublayers');
    tr.guards.add({ kind: 'layer_state', source: self.source ?? tr.pin(layer), expect: layerSnapshot(layer) });
    return libraryCall(frame, fn as (...a: unknown[]) => unknown, layer, args);
  }
  const parsed = parseFunction(fn);
  const sc = scopeOf(tr, owner!.constructor, null);
  return inline(new Frame(tr, parsed, self, sc.source, sc.record, `${owner!.constructor.name}.${name}`, owner), parsed.node, null, args);
}

// ---- layers ---------------------------------------------------------------------------------

function ownerOf(obj: object, name: string): { constructor: Function } | null {
  for (let p = Object.getPrototypeOf(obj); p; p = Object.getPrototypeOf(p)) if (Object.prototype.hasOwnProperty.call(p, name)) return p;
  return null;
}

const hasHooks = (l: Layer): boolean => {
  const a = l as unknown as { _preHooks: Map<number, unknown>; _postHooks: Map<number, unknown> };
  return a._preHooks.size > 0 || a._postHooks.size > 0;
};

const isBuiltinLeaf = (l: Layer): boolean => l.sublayers(true).every((s) => !hasHooks(s) && isBuiltinClass(ownerOf(s, 'forward')!.constructor) && s.call === Layer.prototype.call);

function layerCall(frame: Frame, lv: JsValue, name: 'call' | 'forward', args: Variable[]): Variable {
  const tr = frame.tr;
  const layer = lv.value as Layer;
  const src = lv.source ?? tr.pin(layer);
  const self = new JsValue(layer, src);
  if (name === 'call') {
    if (layer.call !== Layer.prototype.call) return callValue(frame, getMember(tr, self, 'call'), self, args);
    if (hasHooks(layer)) throw new GraphBreak('SOT005', `${layer.constructor.name} has forward hooks`);
  }
  const owner = ownerOf(layer, 'forward')!;
  if (isBuiltinClass(owner.constructor)) {
    if (layer instanceof Sequential && owner === Sequential.prototype) {
      // Sequential's forward is a loop over its items: each item dispatches on its own kind.
      const items = getMember(tr, self, '_items');
      let y = args[0] ?? UNDEFINED;
      for (const pair of iterate(items)) {
        const l = iterate(pair)[1];
        y = callMethod(frame, l, 'call', [y]);
      }
      return y;
    }
    if (!isBuiltinLeaf(layer)) throw new GraphBreak('SOT005', `${layer.constructor.name} holds user-defined sublayers or hooks`);
    tr.guards.add({ kind: 'layer_state', source: src, expect: layerSnapshot(layer) });
    return libraryCall(frame, owner.constructor.prototype.forward as (...a: unknown[]) => unknown, layer, args);
  }
  const fwd = (owner as unknown as { forward: (...a: unknown[]) => unknown }).forward;
  const parsed = parseFunction(fwd);
  const sc = scopeOf(tr, owner.constructor, null);
  const fr = new Frame(tr, parsed, self, sc.source, sc.record, `${layer.constructor.name}.forward`, owner);
  return inline(fr, parsed.node, null, args);
}

// ---- arrays and Maps made in the translation ------------------------------------------------

function arrayMethod(frame: Frame, a: JsArray, name: string, args: Variable[]): Variable {
  const mutating = ['push', 'pop', 'shift', 'unshift', 'reverse', 'splice', 'sort', 'fill', 'copyWithin'];
  if (mutating.includes(name)) {
    if (!['push', 'pop', 'shift', 'unshift', 'reverse'].includes(name)) throw new GraphBreak('SOT007', `Array.${name}() is not modelled`);
    frame.tr.arrayChanged(a);   // an outside array: its new contents are written back after the graph
  }
  const num = (i: number, d: number): number => (args[i] === undefined || isNullish(args[i]) ? d : Number(primitive(args[i], `argument of ${name}()`)));
  const cb = (i: number, it: Variable, k: number): Variable => callValue(frame, args[0], UNDEFINED, [it, js(k), a]);
  switch (name) {
    case 'push': a.items.push(...args); return js(a.items.length);
    case 'pop': return a.items.pop() ?? UNDEFINED;
    case 'shift': return a.items.shift() ?? UNDEFINED;
    case 'unshift': a.items.unshift(...args); return js(a.items.length);
    case 'reverse': a.items.reverse(); return a;
    case 'slice': {
      const n = a.items.length;
      return new JsArray(a.items.slice(num(0, 0), num(1, n)));
    }
    case 'concat': return new JsArray([...a.items, ...args.flatMap((x) => (x instanceof JsArray ? x.items : x instanceof JsValue && Array.isArray(x.value) ? iterate(x) : [x]))]);
    case 'at': { const i = num(0, 0); return a.items[i < 0 ? a.items.length + i : i] ?? UNDEFINED; }
    case 'indexOf': return js(a.items.findIndex((x) => strictEqual(x, args[0] ?? UNDEFINED)));
    case 'includes': return js(a.items.some((x) => strictEqual(x, args[0] ?? UNDEFINED)));
    case 'join': return js(a.items.map((x) => { const p = primitive(x, 'join'); return p === null || p === undefined ? '' : String(p); }).join(args[0] ? String(primitive(args[0], 'join')) : ','));
    case 'map': return new JsArray(a.items.map((x, k) => cb(0, x, k)));
    case 'forEach': a.items.forEach((x, k) => cb(0, x, k)); return UNDEFINED;
    case 'filter': return new JsArray(a.items.filter((x, k) => truthy(cb(0, x, k))));
    case 'some': return js(a.items.some((x, k) => truthy(cb(0, x, k))));
    case 'every': return js(a.items.every((x, k) => truthy(cb(0, x, k))));
    case 'find': return a.items.find((x, k) => truthy(cb(0, x, k))) ?? UNDEFINED;
    case 'findIndex': return js(a.items.findIndex((x, k) => truthy(cb(0, x, k))));
    case 'reduce': {
      let k = 0;
      let acc: Variable;
      if (args.length > 1) acc = args[1];
      else { if (!a.items.length) throw new GraphBreak('SOT007', 'reduce of an empty array (TypeError eagerly)'); acc = a.items[0]; k = 1; }
      for (; k < a.items.length; k++) acc = callValue(frame, args[0], UNDEFINED, [acc, a.items[k], js(k), a]);
      return acc;
    }
    case 'keys': return new JsArray(a.items.map((_, k) => js(k)));
    case 'entries': return new JsArray(a.items.map((x, k) => new JsArray([js(k), x])));
    default: throw new GraphBreak('SOT007', `Array.${name}() is not modelled`);
  }
}

function mapMethod(frame: Frame, m: JsMap, name: string, args: Variable[]): Variable {
  const key = () => mapKey(args[0] ?? UNDEFINED);
  switch (name) {
    case 'get': return m.entries.get(key()) ?? UNDEFINED;
    case 'set': m.entries.set(key(), args[1] ?? UNDEFINED); return m;
    case 'has': return js(m.entries.has(key()));
    case 'delete': return js(m.entries.delete(key()));
    case 'clear': m.entries.clear(); return UNDEFINED;
    case 'keys': return new JsArray([...m.entries.keys()].map((k) => js(k)));
    case 'values': return new JsArray([...m.entries.values()]);
    case 'entries': return new JsArray([...m.entries].map(([k, v]) => new JsArray([js(k), v])));
    case 'forEach': for (const [k, v] of m.entries) callValue(frame, args[0], UNDEFINED, [v, js(k), m]); return UNDEFINED;
    default: throw new GraphBreak('SOT007', `Map.${name}() is not modelled`);
  }
}
