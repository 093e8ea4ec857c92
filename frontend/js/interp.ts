// The symbolic interpreter: executes ESTree statements and expressions of one function on
// variables (frontend/js/vars.ts), with JavaScript's own semantics for every concrete value (the
// real operator runs on the real primitives at translation time, and the values are guarded
// where they came from). Tensor work goes into the translation's graph through calls
// (frontend/js/calls.ts). Anything that cannot be modelled raises a GraphBreak.
import type * as E from 'estree';
import { SymTensor } from '../../sot/function_graph.js';
import { GraphBreak } from '../../sot/graph_breaks.js';
import { attrSource, globalSource, slotSource, type Source } from '../../sot/sources.js';
import { TensorVar, type Variable } from '../../sot/variables.js';
import { Tensor } from '../../src/tensor/tensor.js';
import { callExpression, convertTensor, newExpression } from './calls.js';
import { binary, getMember, iterateVar, looseEqual, strictEqual, truthy, typeOf, unary } from './ops.js';
import { hoist, type FnNode, type ParsedFunction } from './parse.js';
import { MAX_LOOP_ITERATIONS, type FrameInfo, type Translation } from './translation.js';
import { JsArray, JsClosure, JsMap, JsObject, JsValue, LazyValue, lazyConcat, primitiveType, Scope, UNDEFINED, js } from './vars.js';
import { layerSnapshot, scopeRecord } from './guards.js';
import { atTest, branchTest, captureIf, captureLoop, captureTernary, noteBindingWrite } from './control_flow.js';

/** The simulated frame of each stack entry (control_flow.ts asks whether a caller captures). */
export const frameOfInfo = new WeakMap<FrameInfo, Frame>();

export type Completion = { t: 'return'; v: Variable } | { t: 'break' | 'continue'; label: string | null } | null;

/** One simulated function activation. */
export class Frame {
  readonly info: FrameInfo;
  constructor(
    readonly tr: Translation,
    readonly parsed: ParsedFunction,
    readonly thisVar: Variable,
    /** Where the function's free-variable record (build plugin accessor) is read from, if any. */
    readonly scopeSource: Source | null,
    readonly scopeRecord: Record<string, unknown> | undefined,
    name: string,
    /** The prototype object owning the running method (where `super` lookups start above), if any. */
    readonly home: object | null = null,
  ) { this.info = { name, parsed, node: null }; frameOfInfo.set(this.info, this); }
}

/** Source of the free-variable record of function/class object `holder` reached at `src`. */
export function scopeOf(tr: Translation, holder: unknown, src: Source | null): { source: Source | null; record: Record<string, unknown> | undefined } {
  const record = scopeRecord(holder);
  if (!record) return { source: null, record: undefined };
  return { source: attrSource(src ?? tr.pin(holder), '@scope'), record };
}

/** Runs a parsed function with bound arguments and returns its result variable. */
export function runFunction(frame: Frame, node: FnNode, closureScope: Scope | null, args: readonly Variable[]): Variable {
  const tr = frame.tr;
  tr.stack.push(frame.info);
  try {
    const scope = new Scope(closureScope);
    bindParams(frame, node, scope, args);
    if (node.body.type !== 'BlockStatement') return expr(frame, node.body, scope);
    const hoisted = node === frame.parsed.node ? frame.parsed.hoisted : hoist(node);
    declareHoisted(frame, node.body, scope, hoisted);
    const c = execBlock(frame, node.body.body, scope);
    if (c && c.t === 'return') return c.v;
    return UNDEFINED;
  } catch (e) {
    tr.noteBreak(e);
    throw e;
  } finally {
    tr.stack.pop();
  }
}

function bindParams(frame: Frame, node: FnNode, scope: Scope, args: readonly Variable[]): void {
  node.params.forEach((p, i) => {
    if (p.type === 'RestElement') { bindPattern(frame, p.argument, new JsArray(args.slice(i)), scope, 'param'); return; }
    bindPattern(frame, p, args[i] ?? UNDEFINED, scope, 'param');
  });
}

function declareHoisted(frame: Frame, _body: E.BlockStatement, scope: Scope, hoisted: ParsedFunction['hoisted']): void {
  for (const n of hoisted.vars) if (!scope.vars.has(n)) scope.vars.set(n, { v: UNDEFINED, kind: 'var' });
  for (const f of hoisted.functions) if (f.id) scope.vars.set(f.id.name, { v: makeClosure(frame, f, scope), kind: 'function' });
}

export function makeClosure(frame: Frame, node: FnNode, scope: Scope): JsClosure {
  if (node.async || node.generator) throw new GraphBreak('SOT106', `a nested ${node.async ? 'async' : 'generator'} function`);
  return new JsClosure(node, frame.parsed, scope, node.type === 'ArrowFunctionExpression' ? frame.thisVar : null, frame);
}

// ---- statements -----------------------------------------------------------------------------

function execBlock(frame: Frame, body: readonly E.Statement[], scope: Scope): Completion {
  for (const s of body) {
    const c = exec(frame, s, scope);
    if (c) return c;
  }
  return null;
}

export function exec(frame: Frame, s: E.Statement | E.ModuleDeclaration, scope: Scope, label: string | null = null): Completion {
  frame.info.node = s;
  switch (s.type) {
    case 'ExpressionStatement': expr(frame, s.expression, scope); return null;
    case 'VariableDeclaration': {
      for (const d of s.declarations) {
        const v = d.init ? expr(frame, d.init, scope) : UNDEFINED;
        if (!d.init && s.kind === 'var') continue;   // `var x;` keeps a hoisted value
        bindPattern(frame, d.id, v, scope, s.kind === 'var' ? 'assign-var' : s.kind);
      }
      return null;
    }
    case 'ReturnStatement': return { t: 'return', v: s.argument ? expr(frame, s.argument, scope) : UNDEFINED };
    case 'IfStatement': {
      const t = branchTest(frame, s.test, scope);
      if (typeof t !== 'boolean') return atTest(s.test, () => captureIf(frame, s, scope, t));   // a tensor's value: an if node
      if (t) return exec(frame, s.consequent, new Scope(scope));
      return s.alternate ? exec(frame, s.alternate, new Scope(scope)) : null;
    }
    case 'BlockStatement': {
      const inner = new Scope(scope);
      for (const f of s.body) if (f.type === 'FunctionDeclaration' && f.id) inner.vars.set(f.id.name, { v: makeClosure(frame, f, inner), kind: 'function' });
      return execBlock(frame, s.body, inner);
    }
    case 'EmptyStatement': case 'FunctionDeclaration': return null;   // functions are hoisted
    case 'ForStatement': return forLoop(frame, s, scope, label);
    case 'ForOfStatement': case 'ForInStatement': return forOf(frame, s, scope, label);
    case 'WhileStatement': case 'DoWhileStatement': {
      let first = s.type === 'DoWhileStatement';
      for (let n = 0; ; n++) {
        if (n > MAX_LOOP_ITERATIONS) throw new GraphBreak('SOT007', `a loop ran more than ${MAX_LOOP_ITERATIONS} iterations while translating`);
        if (!first) {
          const t = branchTest(frame, s.test, scope);
          if (typeof t !== 'boolean') return atTest(s.test, () => captureLoop(frame, scope, t, () => exec(frame, s.body, new Scope(scope)), () => branchTest(frame, s.test, scope)));
          if (!t) return null;
        }
        first = false;
        const c = exec(frame, s.body, new Scope(scope));
        const r = loopCompletion(c, label);
        if (r === 'break') return null;
        if (r !== 'continue') return r;
      }
    }
    case 'BreakStatement': return { t: 'break', label: s.label?.name ?? null };
    case 'ContinueStatement': return { t: 'continue', label: s.label?.name ?? null };
    case 'LabeledStatement': {
      const c = exec(frame, s.body, scope, s.label.name);
      return c && c.t === 'break' && c.label === s.label.name ? null : c;
    }
    case 'SwitchStatement': return switchStatement(frame, s, scope, label);
    case 'ThrowStatement': throw new GraphBreak('SOT007', 'throw statement (runs eagerly, raising as the original does)');
    case 'TryStatement': {
      // Every exception the translated code could raise is a break (throw, a library error, a
      // TypeError on undefined), and a break makes the whole call eager, where the real catch
      // runs. So within a translation the try block completes and the handler is never entered;
      // finally runs after it and its own completion (return/break) wins, as in JS.
      const c = exec(frame, s.block, scope);
      if (!s.finalizer) return c;
      const f = exec(frame, s.finalizer, scope);
      return f ?? c;
    }
    default: throw new GraphBreak('SOT101', `statement ${s.type} is not simulated`);
  }
}

/** 'break' / 'continue' when the completion belongs to this loop, else the completion itself. */
function loopCompletion(c: Completion, label: string | null): Completion | 'break' | 'continue' {
  if (!c) return 'continue';
  if (c.t === 'return') return c;
  if (c.label === null || c.label === label) return c.t;
  return c;
}

function forLoop(frame: Frame, s: E.ForStatement, outer: Scope, label: string | null): Completion {
  let scope = new Scope(outer);
  if (s.init) {
    if (s.init.type === 'VariableDeclaration') exec(frame, s.init, scope);
    else expr(frame, s.init, scope);
  }
  for (let n = 0; ; n++) {
    if (n > MAX_LOOP_ITERATIONS) throw new GraphBreak('SOT007', `a loop ran more than ${MAX_LOOP_ITERATIONS} iterations while translating`);
    const t = s.test ? branchTest(frame, s.test, scope) : true;
    if (typeof t !== 'boolean') {
      const sc = scope;
      return atTest(s.test!, () => captureLoop(frame, sc, t, () => exec(frame, s.body, new Scope(sc)) ?? (s.update ? (expr(frame, s.update, sc), null) : null), () => branchTest(frame, s.test!, sc)));
    }
    if (!t) return null;
    const c = exec(frame, s.body, new Scope(scope));
    const r = loopCompletion(c, label);
    if (r === 'break') return null;
    if (r !== 'continue') return r;
    // let-bound loop variables get a fresh binding per iteration (closures see their own).
    const next = new Scope(outer);
    for (const [k, b] of scope.vars) next.vars.set(k, { ...b });
    scope = next;
    if (s.update) expr(frame, s.update, scope);
  }
}

function forOf(frame: Frame, s: E.ForOfStatement | E.ForInStatement, scope: Scope, label: string | null): Completion {
  if (s.type === 'ForOfStatement' && s.await) throw new GraphBreak('SOT106', 'for await');
  const iterable = expr(frame, s.right, scope);
  const items: Variable[] = s.type === 'ForOfStatement' ? iterateVar(frame.tr, iterable) : forInKeys(frame.tr, iterable);
  for (const item of items) {
    const inner = new Scope(scope);
    if (s.left.type === 'VariableDeclaration') bindPattern(frame, s.left.declarations[0].id, item, inner, s.left.kind === 'var' ? 'assign-var' : s.left.kind);
    else assignPattern(frame, s.left as E.Pattern, item, scope);
    const c = exec(frame, s.body, inner);
    const r = loopCompletion(c, label);
    if (r === 'break') return null;
    if (r !== 'continue') return r;
  }
  return null;
}

function forInKeys(tr: Translation, v: Variable): Variable[] {
  if (v instanceof JsObject) return [...v.props.keys()].map((k) => js(k));
  if (v instanceof JsArray) return v.items.map((_, i) => js(String(i)));
  if (v instanceof JsValue && v.value !== null && typeof v.value === 'object' && Object.getPrototypeOf(v.value) === Object.prototype) {
    guardKeys(tr, v);
    return Object.keys(v.value).map((k) => js(k));
  }
  throw new GraphBreak('SOT009', 'for...in over a value that is not a plain object or array');
}

function switchStatement(frame: Frame, s: E.SwitchStatement, outer: Scope, label: string | null): Completion {
  const d = expr(frame, s.discriminant, outer);
  const scope = new Scope(outer);
  let start = -1;
  for (let i = 0; i < s.cases.length && start < 0; i++) {
    const t = s.cases[i].test;
    if (t && strictEqual(d, expr(frame, t, scope))) start = i;
  }
  if (start < 0) start = s.cases.findIndex((c) => c.test === null);
  if (start < 0) return null;
  for (let i = start; i < s.cases.length; i++) {
    const c = execBlock(frame, s.cases[i].consequent, scope);
    if (c) {
      if (c.t === 'break' && (c.label === null || c.label === label)) return null;
      return c;
    }
  }
  return null;
}

// ---- bindings -------------------------------------------------------------------------------

type BindKind = 'let' | 'const' | 'param' | 'assign-var' | 'using' | 'await using';

export function bindPattern(frame: Frame, p: E.Pattern, v: Variable, scope: Scope, kind: BindKind): void {
  switch (p.type) {
    case 'Identifier':
      if (kind === 'assign-var') { assignName(frame, p.name, v, scope); return; }
      scope.vars.set(p.name, { v, kind: kind === 'param' ? 'param' : kind === 'const' ? 'const' : 'let' });
      return;
    case 'AssignmentPattern': {
      const val = v instanceof JsValue && v.value === undefined ? expr(frame, p.right, scope) : v;
      bindPattern(frame, p.left, val, scope, kind);
      return;
    }
    case 'ArrayPattern': {
      const items = iterateVar(frame.tr, v);
      p.elements.forEach((el, i) => {
        if (!el) return;
        if (el.type === 'RestElement') bindPattern(frame, el.argument, new JsArray(items.slice(i)), scope, kind);
        else bindPattern(frame, el, items[i] ?? UNDEFINED, scope, kind);
      });
      return;
    }
    case 'ObjectPattern': {
      const used: string[] = [];
      for (const q of p.properties) {
        if (q.type === 'RestElement') {
          if (!(v instanceof JsObject)) throw new GraphBreak('SOT007', 'object rest pattern on a value not made in the translated code');
          bindPattern(frame, q.argument, new JsObject(new Map([...v.props].filter(([k]) => !used.includes(k)))), scope, kind);
          continue;
        }
        const key = propertyKey(frame, q, scope);
        used.push(key);
        bindPattern(frame, q.value, getMember(frame.tr, v, key), scope, kind);
      }
      return;
    }
    case 'MemberExpression': assignMember(frame, p, v, scope); return;
    default: throw new GraphBreak('SOT101', `pattern ${p.type}`);
  }
}

function assignPattern(frame: Frame, p: E.Pattern, v: Variable, scope: Scope): void { bindPattern(frame, p, v, scope, 'assign-var'); }

function propertyKey(frame: Frame, q: E.Property | E.MethodDefinition, scope: Scope): string {
  if (q.computed) return String(primitive(expr(frame, q.key as E.Expression, scope), 'computed key'));
  if (q.key.type === 'Identifier') return q.key.name;
  if (q.key.type === 'Literal') return String(q.key.value);
  throw new GraphBreak('SOT101', `property key ${q.key.type}`);
}

/** The primitive behind a concrete variable (for keys and operators), else a break. */
export function primitive(v: Variable, what: string): unknown {
  if (v instanceof JsValue && (v.value === null || (typeof v.value !== 'object' && typeof v.value !== 'function'))) return v.value;
  if (v instanceof TensorVar) throw new GraphBreak('SOT001', `${what} uses a tensor as a primitive (its string form reads its values)`);
  throw new GraphBreak('SOT007', `${what} needs a primitive value`);
}

function assignName(frame: Frame, name: string, v: Variable, scope: Scope): void {
  const b = scope.lookup(name);
  if (!b) throw new GraphBreak('SOT007', `assignment to '${name}', which is not a local of the translated code (a global or closure variable)`);
  if (b.kind === 'const') throw new GraphBreak('SOT007', `assignment to constant '${name}' (raises TypeError eagerly)`);
  noteBindingWrite(b);
  b.v = v;
}

function assignMember(frame: Frame, m: E.MemberExpression, v: Variable, scope: Scope): void {
  if (m.object.type === 'Super') throw new GraphBreak('SOT007', 'super property assignment');
  const obj = expr(frame, m.object, scope);
  const key = m.computed ? primitive(expr(frame, m.property as E.Expression, scope), 'member key') : (m.property as E.Identifier).name;
  if (obj instanceof JsObject) { obj.props.set(String(key), v); return; }
  if (obj instanceof JsArray) {
    if (key === 'length' && typeof (v as JsValue).value === 'number') { obj.items.length = (v as JsValue).value as number; frame.tr.arrayChanged(obj); return; }
    const i = typeof key === 'number' ? key : Number(key);
    if (Number.isInteger(i) && i >= 0) { while (obj.items.length < i) obj.items.push(UNDEFINED); obj.items[i] = v; frame.tr.arrayChanged(obj); return; }
  }
  if (obj instanceof TensorVar) throw new GraphBreak('SOT007', `assignment to ${String(key)} of a tensor (item assignment is x.set(...))`);
  if (obj instanceof JsValue && obj.value !== null && typeof obj.value === 'object' && !(obj.value instanceof Tensor) && Object.isExtensible(obj.value)) {
    // A write to an outside object (this.cache = y, stats.calls = n): replayed after the graph.
    // An accessor property would run user code on assignment: that runs eagerly instead.
    const k = String(key);
    for (let p: object | null = obj.value as object; p; p = Object.getPrototypeOf(p)) {
      const d = Object.getOwnPropertyDescriptor(p, k);
      if (d) { if (d.set || d.get || !d.writable) throw new GraphBreak('SOT007', `assignment to accessor or read-only property ${k}`); break; }
    }
    if (Array.isArray(obj.value)) throw new GraphBreak('SOT007', 'assignment to a property of an outside array');
    frame.tr.setProperty(obj.value as object, obj.source, k, v);
    return;
  }
  throw new GraphBreak('SOT007', `assignment to ${String(key)} of an object from outside the translated code (side effect)`);
}

// ---- expressions ----------------------------------------------------------------------------

export function lookupName(frame: Frame, name: string, scope: Scope): Variable {
  const b = scope.lookup(name);
  if (b) {
    if (b.v === null) throw new GraphBreak('SOT007', `'${name}' used before its declaration (ReferenceError eagerly)`);
    return b.v;
  }
  if (name === 'undefined') return UNDEFINED;
  if (name === 'NaN') return js(NaN);
  if (name === 'Infinity') return js(Infinity);
  if (name === 'arguments') throw new GraphBreak('SOT101', 'the arguments object');
  const tr = frame.tr;
  if (frame.scopeRecord && frame.scopeSource && name in frame.scopeRecord) return tr.track(frame.scopeRecord[name], attrSource(frame.scopeSource, name));
  if (Object.prototype.hasOwnProperty.call(tr.scopeOption, name)) return tr.track(tr.scopeOption[name], attrSource(slotSource(1), name));
  if (name in globalThis) return tr.track((globalThis as Record<string, unknown>)[name], globalSource(name));
  throw new GraphBreak('SOT107', `'${name}' in ${frame.info.name}`);
}

export function expr(frame: Frame, n: E.Expression | E.SpreadElement | E.PrivateIdentifier | E.Super, scope: Scope): Variable {
  switch (n.type) {
    case 'Literal':
      if ('regex' in n && n.regex) throw new GraphBreak('SOT007', 'regular expression literal');
      return js(n.value);
    case 'Identifier': return lookupName(frame, n.name, scope);
    case 'ThisExpression': return frame.thisVar;
    case 'TemplateLiteral': {
      // Parts that are split results stay lazy (a logged loss does not guard its value).
      const parts: JsValue[] = [js(n.quasis[0].value.cooked ?? '')];
      n.expressions.forEach((e, i) => {
        const v = convertTensor(frame.tr, expr(frame, e, scope), 'a template literal');
        parts.push(v instanceof LazyValue ? v : js(templateString(v)), js(n.quasis[i + 1].value.cooked ?? ''));
      });
      return lazyConcat(parts);
    }
    case 'ArrayExpression': {
      const items: Variable[] = [];
      for (const el of n.elements) {
        if (el === null) items.push(UNDEFINED);
        else if (el.type === 'SpreadElement') items.push(...iterateVar(frame.tr, expr(frame, el.argument, scope)));
        else items.push(expr(frame, el, scope));
      }
      return new JsArray(items);
    }
    case 'ObjectExpression': return objectExpression(frame, n, scope);
    case 'MemberExpression': return member(frame, n, scope, false).value;
    case 'ChainExpression': {
      const r = chain(frame, n.expression, scope);
      return r === SHORT ? UNDEFINED : r;
    }
    case 'CallExpression': return callExpression(frame, n, scope, false) as Variable;
    case 'NewExpression': return newExpression(frame, n, scope);
    case 'UnaryExpression': {
      if (n.operator === 'typeof' && n.argument.type === 'Identifier' && !scope.lookup(n.argument.name)) {
        try { return js(typeOf(lookupName(frame, n.argument.name, scope))); } catch (e) { if (e instanceof GraphBreak && e.code === 'SOT107') return js('undefined'); throw e; }
      }
      if (n.operator === 'delete') throw new GraphBreak('SOT007', 'delete');
      return unaryOp(frame, n.operator, expr(frame, n.argument, scope));
    }
    case 'BinaryExpression': {
      const l = expr(frame, n.left as E.Expression, scope);
      const r = expr(frame, n.right, scope);
      return binaryOp(frame, n.operator, l, r);
    }
    case 'LogicalExpression': {
      const l = expr(frame, n.left, scope);
      if (n.operator === '&&') return truthy(l) ? expr(frame, n.right, scope) : l;
      if (n.operator === '||') return truthy(l) ? l : expr(frame, n.right, scope);
      return isNullish(l) ? expr(frame, n.right, scope) : l;
    }
    case 'ConditionalExpression': {
      const t = branchTest(frame, n.test, scope);
      if (typeof t !== 'boolean') return atTest(n.test, () => captureTernary(frame, n, scope, t));
      return t ? expr(frame, n.consequent, scope) : expr(frame, n.alternate, scope);
    }
    case 'AssignmentExpression': return assignment(frame, n, scope);
    case 'UpdateExpression': {
      const old = expr(frame, n.argument, scope);
      const num = primitive(old, n.operator);
      const oldNum = typeof num === 'bigint' ? num : Number(num);
      const next = typeof oldNum === 'bigint' ? (n.operator === '++' ? oldNum + 1n : oldNum - 1n) : (n.operator === '++' ? oldNum + 1 : oldNum - 1);
      bindPattern(frame, n.argument as E.Pattern, js(next), scope, 'assign-var');
      return js(n.prefix ? next : oldNum);
    }
    case 'SequenceExpression': {
      let last: Variable = UNDEFINED;
      for (const e of n.expressions) last = expr(frame, e, scope);
      return last;
    }
    case 'ArrowFunctionExpression': case 'FunctionExpression': return makeClosure(frame, n, scope);
    case 'SpreadElement': throw new GraphBreak('SOT007', 'spread outside of a call or literal');
    case 'AwaitExpression': case 'YieldExpression': throw new GraphBreak('SOT106', n.type);
    default: throw new GraphBreak('SOT101', `expression ${n.type} is not simulated`);
  }
}

/** The key set of an outside plain object decides the iteration: guard its state (keys and values). */
function guardKeys(tr: Translation, v: JsValue): void {
  tr.guards.add({ kind: 'layer_state', source: v.source ?? tr.pin(v.value), expect: layerSnapshot(v.value as object) });
}

// (A split result's nullishness is fixed by its type, which its path fixes: no value guard.)
export const isNullish = (v: Variable): boolean => (v instanceof LazyValue ? v.raw === null || v.raw === undefined : v instanceof JsValue && (v.value === null || v.value === undefined));

/** Operators whose operands JS converts with ToPrimitive (not ===, ==, instanceof, in: those compare or look up). */
const CONVERTING = new Set<string>(['+', '-', '*', '/', '%', '**', '<', '<=', '>', '>=', '<<', '>>', '>>>', '&', '|', '^']);

/** A binary operator; a tensor operand of a converting one is its string (a split: calls.ts convertTensor). */
function binaryOp(frame: Frame, op: E.BinaryOperator, l: Variable, r: Variable): Variable {
  if (CONVERTING.has(op)) {
    l = convertTensor(frame.tr, l, `operator ${op}`);
    r = convertTensor(frame.tr, r, `operator ${op}`);
  } else if ((op === '==' || op === '!=') && (l instanceof TensorVar) !== (r instanceof TensorVar)) {
    // An object loosely compared with a primitive (not null/undefined) is converted first.
    const other = primitiveType(l instanceof TensorVar ? r : l);
    if (other !== null && other !== 'symbol' && other !== 'undefined' && !(other === 'object')) {
      l = convertTensor(frame.tr, l, `operator ${op}`);
      r = convertTensor(frame.tr, r, `operator ${op}`);
    }
  }
  // String concatenation with a split result: stays lazy (not guarded by the value).
  if (op === '+' && (l instanceof LazyValue || r instanceof LazyValue)) {
    const lt = primitiveType(l), rt = primitiveType(r);
    if (lt !== null && rt !== null && lt !== 'symbol' && rt !== 'symbol' && (lt === 'string' || rt === 'string')) return lazyConcat([l as JsValue, r as JsValue]);
  }
  return binary(op, l, r);
}

function unaryOp(frame: Frame, op: E.UnaryOperator, v: Variable): Variable {
  return unary(op, op === '+' || op === '-' || op === '~' ? convertTensor(frame.tr, v, `unary ${op}`) : v);
}

function templateString(v: Variable): string {
  if (v instanceof JsValue && (v.value === null || typeof v.value !== 'object') && typeof v.value !== 'function' && typeof v.value !== 'symbol') return String(v.value);
  if (v instanceof JsArray && v.items.every((x) => x instanceof JsValue && (x.value === null || typeof x.value !== 'object'))) return String(v.items.map((x) => (x as JsValue).value));
  if (v instanceof TensorVar) throw new GraphBreak('SOT001', 'a tensor in a template literal (its string form reads its values)');
  throw new GraphBreak('SOT007', 'a non-primitive value in a template literal');
}

function objectExpression(frame: Frame, n: E.ObjectExpression, scope: Scope): Variable {
  const props = new Map<string, Variable>();
  for (const q of n.properties) {
    if (q.type === 'SpreadElement') {
      const v = expr(frame, q.argument, scope);
      if (v instanceof JsObject) for (const [k, x] of v.props) props.set(k, x);
      else if (isNullish(v)) continue;
      else if (v instanceof JsValue && v.value !== null && typeof v.value === 'object' && Object.getPrototypeOf(v.value) === Object.prototype) {
        guardKeys(frame.tr, v);
        for (const k of Object.keys(v.value)) props.set(k, getMember(frame.tr, v, k));
      } else throw new GraphBreak('SOT007', 'object spread of a value that is not a plain object');
      continue;
    }
    if (q.kind !== 'init') throw new GraphBreak('SOT007', 'getter/setter in an object literal');
    const key = propertyKey(frame, q, scope);
    props.set(key, expr(frame, q.value as E.Expression, scope));
  }
  return new JsObject(props);
}

function assignment(frame: Frame, n: E.AssignmentExpression, scope: Scope): Variable {
  const op = n.operator;
  if (op === '=') {
    const v = expr(frame, n.right, scope);
    bindPattern(frame, n.left, v, scope, 'assign-var');
    return v;
  }
  const cur = expr(frame, n.left as E.Expression, scope);
  let v: Variable;
  if (op === '||=') { if (truthy(cur)) return cur; v = expr(frame, n.right, scope); }
  else if (op === '&&=') { if (!truthy(cur)) return cur; v = expr(frame, n.right, scope); }
  else if (op === '??=') { if (!isNullish(cur)) return cur; v = expr(frame, n.right, scope); }
  else v = binaryOp(frame, op.slice(0, -1) as E.BinaryOperator, cur, expr(frame, n.right, scope));
  bindPattern(frame, n.left, v, scope, 'assign-var');
  return v;
}

/** Marks an optional chain that short-circuited. */
export const SHORT: unique symbol = Symbol('short');

export function chain(frame: Frame, n: E.Expression, scope: Scope): Variable | typeof SHORT {
  if (n.type === 'MemberExpression') {
    const r = member(frame, n, scope, true);
    return r.short ? SHORT : r.value;
  }
  if (n.type === 'CallExpression') return callExpression(frame, n, scope, true);
  return expr(frame, n, scope);
}

/** Evaluates a member expression; inside a chain, a nullish object with `?.` short-circuits. */
export function member(frame: Frame, n: E.MemberExpression, scope: Scope, inChain: boolean): { value: Variable; object: Variable; short: boolean } {
  if (n.object.type === 'Super') throw new GraphBreak('SOT007', 'super property access');
  let object: Variable | typeof SHORT;
  if (inChain && (n.object.type === 'MemberExpression' || n.object.type === 'CallExpression')) object = chain(frame, n.object, scope);
  else object = expr(frame, n.object as E.Expression, scope);
  if (object === SHORT) return { value: UNDEFINED, object: UNDEFINED, short: true };
  if (n.optional && isNullish(object)) return { value: UNDEFINED, object, short: true };
  const key = n.computed ? memberKey(expr(frame, n.property as E.Expression, scope)) : (n.property as E.Identifier).name;
  return { value: getMember(frame.tr, object, key), object, short: false };
}

export function memberKey(k: Variable): string | number {
  const p = primitive(k, 'a computed member key');
  return typeof p === 'number' ? p : String(p);
}

export { looseEqual, SymTensor, JsMap };
