// The build-time transform behind the esbuild and Vite plugins: every function and class of a
// module gets a non-enumerable `Symbol.for('skiff.scope')` property whose value is a
// zero-argument accessor returning `{ name: currentValue }` for the names it reads from
// enclosing scopes (imports included, globals not). The JS interpreter (frontend/js) reads it to
// resolve closures, because JavaScript offers no runtime handle on a closure's environment.
//
// Edits are text insertions on the lines they belong to, so every line of the input keeps its
// number (stack traces, source maps and the interpreter's line numbers still match); the one
// helper function is appended on a new last line. Names whose binding is still in its temporal
// dead zone when the accessor runs are left out of the object and listed under
// `Symbol.for('skiff.unresolved')`.
import { parse } from 'acorn';
import { analyze, type AstNode, type Owner } from './scope.js';

export const SCOPE_SYMBOL = 'skiff.scope';
export const UNRESOLVED_SYMBOL = 'skiff.unresolved';
/** On the two inserted helpers: a call of one evaluates to its first argument (the rest is plumbing). */
export const HELPER_SYMBOL = 'skiff.scope.helper';
/** Marks transformed output, so a module that passes through two plugins is transformed once. */
const MARKER = 'skiff-scope-transformed';

export interface TransformResult {
  code: string;
  /** Functions and classes that got an accessor. */
  annotated: number;
  /** Why some could not (e.g. `export default function () {}` has no name to attach to). */
  skipped: string[];
}

const HOIST_LISTS = new Set(['Program', 'BlockStatement', 'StaticBlock']);

interface Edit { pos: number; order: number; text: string }

/** Where statements may be inserted at the top of a statement list (after any directives). */
function statementListStart(source: string, container: AstNode): number {
  const body: AstNode[] = container.body;
  // A static block starts at its `static` keyword; a block at its brace.
  let pos = container.type === 'Program' ? (body[0]?.start ?? container.end) : source.indexOf('{', container.start) + 1;
  for (const st of body) {
    if (st.type === 'ExpressionStatement' && typeof st.directive === 'string') pos = st.end;
    else { if (container.type === 'Program') pos = st.start; break; }
  }
  return pos;
}

/** The name NamedEvaluation gives an anonymous function or class in this position, if any. */
function inferredName(owner: Owner): string | undefined {
  const { node, parent, key } = owner;
  if (node.id || !parent) return undefined;
  if (node.type === 'ClassExpression' || node.type === 'ClassDeclaration') {
    // A static `name` member overrides the inferred name: leave it alone.
    for (const m of node.body.body) if (m.static && !m.computed && (m.key?.name === 'name' || m.key?.value === 'name')) return undefined;
  }
  const keyName = (k: AstNode): string | undefined =>
    k.type === 'Identifier' ? k.name : k.type === 'PrivateIdentifier' ? `#${k.name}` : k.type === 'Literal' ? String(k.value) : undefined;
  switch (parent.type) {
    case 'VariableDeclarator': return key === 'init' && parent.id.type === 'Identifier' ? parent.id.name : undefined;
    case 'AssignmentExpression': return key === 'right' && parent.left.type === 'Identifier' && ['=', '||=', '&&=', '??='].includes(parent.operator) ? parent.left.name : undefined;
    case 'AssignmentPattern': return key === 'right' && parent.left.type === 'Identifier' ? parent.left.name : undefined;
    case 'Property': case 'PropertyDefinition': return key === 'value' && !parent.computed ? keyName(parent.key) : undefined;
    case 'ExportDefaultDeclaration': return 'default';
    default: return undefined;
  }
}

/** Unique identifiers for the generated helper and accessor parameter. */
function helperNames(source: string): { scope: string; methods: string; index: string } {
  let base = '__skiff';
  while (source.includes(base)) base += '_';
  return { scope: `${base}Scope`, methods: `${base}ScopeMethods`, index: `${base}I` };
}

function helperSource(h: { scope: string; methods: string }): string {
  // One line: plain objects (a variable named __proto__ is defined, not assigned, so it stays a
  // key), each read guarded on its own so one binding in its TDZ does not hide the others. The
  // accessor runs on every cached call's guard check, so it stays cheap (plain stores).
  // A bundler or Vite's SSR transform may rename a binding after this transform ran (esbuild's
  // `scale2` when two modules declare `scale`, `__vite_ssr_import_0__` for a namespace import, or
  // `ns.x` replaced by x's own binding). The accessor's own runtime source shows the final name
  // of each entry: an entry is published under that name only, since the original name may now
  // denote another binding in the bundled function's text. A `ns.x` entry that was not replaced
  // is dropped (the function still reads `ns`, which has its own entry). An entry that became a
  // member read (Vite: named import `a` -> `__vite_ssr_import_0__.a`) is also published as a
  // view object under the base name, holding the members this function reads; the view keeps its
  // identity across calls (guards compare objects by identity) and its values are current.
  return `/*${MARKER}*/ function ${h.scope}(f, n, g, nm) {` +
    ` if (nm !== undefined) try { Object.defineProperty(f, 'name', { value: nm, configurable: true }); } catch {}` +
    ` let keys; const views = {}; const plan = () => { if (!keys) { const s = String(g); keys = n.map((x, j) => {` +
    ` const m = new RegExp('case\\\\s*' + j + '\\\\s*:\\\\s*return\\\\s+([^;}]+?)\\\\s*[;}]').exec(s), t = m ? m[1] : x;` +
    ` if (/^[\\w$]+$/.test(t)) return [t]; const mm = /^([\\w$]+)\\.([\\w$]+)$/.exec(t);` +
    ` return x.includes('.') ? null : mm ? [x, mm[1], mm[2]] : [x]; });` +
    ` keys.forEach((k) => { if (k && k.length === 3 && keys.some((e) => e && e.length === 1 && e[0] === k[1])) k.length = 1; }); } return keys; };` +
    ` const def = (o, k, v) => Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });` +
    ` const U = Symbol.for('${UNRESOLVED_SYMBOL}'), put = (o, k, v) => { if (k === '__proto__') def(o, k, v); else o[k] = v; };` +
    ` try { Object.defineProperty(f, Symbol.for('${SCOPE_SYMBOL}'), { configurable: true, value: function skiffScope() {` +
    ` const o = {}, u = [], ks = plan(); for (let i = 0; i < n.length; i++) { const k = ks[i]; if (!k) continue;` +
    ` try { const v = g(i); put(o, k[0], v); if (k.length === 3) { const b = views[k[1]] ??= {}; b[k[2]] = v; put(o, k[1], b); } }` +
    ` catch (e) { if (!(e instanceof ReferenceError)) throw e; u.push(k[0]); } }` +
    ` Object.defineProperty(o, U, { value: u }); return o; } }); } catch {}` +
    ` return f; }` +
    ` function ${h.methods}(o, ms) { for (const [k, kind, n, g] of ms) { const d = Object.getOwnPropertyDescriptor(o, k);` +
    ` const f = d && (kind === 'get' ? d.get : kind === 'set' ? d.set : d.value); if (typeof f === 'function') ${h.scope}(f, n, g); } return o; }`;
}

/**
 * Adds scope accessors to every function and class in `source` (JavaScript, ES module syntax).
 * Throws the parser's error (with line and column) when the source is not valid JavaScript.
 */
export function transformScopes(source: string, opts: { filename?: string } = {}): TransformResult {
  if (source.includes(`/*${MARKER}*/`)) return { code: source, annotated: 0, skipped: [] };
  let program: AstNode;
  try {
    program = parse(source, { ecmaVersion: 'latest', sourceType: 'module', allowHashBang: true, allowAwaitOutsideFunction: true }) as unknown as AstNode;
  } catch (e) {
    throw new Error(`skiff scope plugin: cannot parse ${opts.filename ?? 'module'}: ${(e as Error).message}`);
  }
  const { owners } = analyze(program);
  const h = helperNames(source);
  const edits: Edit[] = [];
  const skipped: string[] = [];
  let annotated = 0;

  const args = (free: Set<string>): string => {
    const names = [...free];
    if (!names.length) return '[], null';
    const cases = names.map((n, i) => `case ${i}: return ${n};`).join(' ');
    return `${JSON.stringify(names)}, (${h.index}) => { switch (${h.index}) { ${cases} } }`;
  };
  const statement = (name: string, free: Set<string>) => `;${h.scope}(${name}, ${args(free)});`;
  const wrap = (owner: Owner, parens: boolean, tail: string) => {
    const { node } = owner;
    const nm = inferredName(owner);
    // Ends of nested wraps coincide (`a => b => c`): the inner one closes first.
    edits.push({ pos: node.start, order: -node.end, text: `${parens ? '(' : ''}${h.scope}(` });
    edits.push({ pos: node.end, order: -node.start, text: `, ${args(owner.free)}${nm === undefined ? '' : `, ${JSON.stringify(nm)}`})${parens ? ')' : ''}${tail}` });
    annotated++;
  };

  // Every insertion inside a function or class shows in that function's runtime text, so each
  // enclosing owner lists the helper it calls: the interpreter resolves the callee to the helper,
  // whose `Symbol.for('skiff.scope.helper')` mark says "this call is its first argument".
  const parents = parentMap(program);
  const ownerOf = new Map(owners.map((o) => [o.node, o]));
  const uses = (anchor: AstNode, helper: string) => {
    for (let p = parents.get(anchor); p; p = parents.get(p)) ownerOf.get(p)?.free.add(helper);
  };

  // Object literals whose methods, getters or setters need accessors: method syntax cannot be wrapped.
  const objectMethods = new Map<AstNode, { key: string; kind: string; free: Set<string> }[]>();
  const containers = new Map<Owner, AstNode>(); // declaration -> the statement holding it
  const wraps: { owner: Owner; parens: boolean; tail: string }[] = [];
  for (const owner of owners) {
    const { node, parent } = owner;
    if (!parent) continue;
    if (node.type === 'FunctionDeclaration' || node.type === 'ClassDeclaration') {
      const decl = parent.type === 'ExportNamedDeclaration' || parent.type === 'ExportDefaultDeclaration' ? parent : node;
      if (!node.id) {
        // `export default class {}` becomes an expression export; an anonymous default
        // function declaration cannot (it would lose its hoisting).
        if (node.type === 'ClassDeclaration') { wraps.push({ owner, parens: false, tail: ';' }); uses(node, h.scope); }
        else skipped.push(`line ${lineOf(source, node.start)}: anonymous 'export default function' has no binding to attach a scope accessor to`);
        continue;
      }
      containers.set(owner, decl);
      uses(decl, h.scope);
      continue;
    }
    if (parent.type === 'MethodDefinition') continue; // covered by its class's accessor
    if (parent.type === 'Property' && (parent.method || parent.kind !== 'init') && owner.key === 'value') {
      const k = parent.key;
      const key = parent.computed ? undefined : k.type === 'Identifier' ? k.name : k.type === 'Literal' ? String(k.value) : undefined;
      if (key === undefined) { skipped.push(`line ${lineOf(source, node.start)}: method with a computed key`); continue; }
      const obj = parents.get(parent)!;
      if (!objectMethods.has(obj)) { objectMethods.set(obj, []); uses(obj, h.methods); }
      objectMethods.get(obj)!.push({ key, kind: parent.kind === 'init' ? 'method' : parent.kind, free: owner.free });
      continue;
    }
    // Function and class expressions get parentheses so `new (class {})` keeps its meaning; an
    // arrow needs none (it is already parenthesized wherever precedence matters), and adding one
    // could join it to the previous line when it starts a statement.
    wraps.push({ owner, parens: node.type !== 'ArrowFunctionExpression', tail: '' });
    uses(node, h.scope);
  }

  if (!wraps.length && !containers.size && !objectMethods.size) return { code: source, annotated: 0, skipped };
  // The helpers' marks, first thing in the module (functions may be translated during its evaluation).
  const mark = (fn: string, kind: string) => `Object.defineProperty(${fn}, Symbol.for('${HELPER_SYMBOL}'), { value: '${kind}' });`;
  edits.push({ pos: statementListStart(source, program), order: -Infinity, text: `;${mark(h.scope, 'scope')}${mark(h.methods, 'methods')}` });
  for (const w of wraps) wrap(w.owner, w.parens, w.tail);
  // Declarations: a function declaration is hoisted, so its accessor goes at the top of the
  // statement list that declares it (it may be called, or handed to to_static, before its line);
  // a class is not, so its accessor follows it.
  for (const [owner, decl] of containers) {
    const { node } = owner;
    const list = parents.get(decl);
    const text = statement(node.id.name, owner.free);
    if (node.type === 'FunctionDeclaration' && list && HOIST_LISTS.has(list.type)) edits.push({ pos: statementListStart(source, list), order: -Infinity, text });
    else edits.push({ pos: decl.end, order: Infinity, text });
    annotated++;
  }
  for (const [obj, methods] of objectMethods) {
    const list = methods.map((m) => `[${JSON.stringify(m.key)}, '${m.kind}', ${args(m.free)}]`).join(', ');
    edits.push({ pos: obj.start, order: -obj.end, text: `(${h.methods}(` });
    edits.push({ pos: obj.end, order: -obj.start, text: `, [${list}]))` });
    annotated += methods.length;
  }

  edits.sort((a, b) => a.pos - b.pos || a.order - b.order);
  let out = '';
  let at = 0;
  for (const e of edits) { out += source.slice(at, e.pos) + e.text; at = e.pos; }
  out += source.slice(at);
  // The helper goes on a new last line, before a trailing source-map comment (which must stay last).
  const sm = /\n\/\/# sourceMappingURL=[^\n]*\n?$/.exec(out);
  const helper = helperSource(h);
  out = sm ? `${out.slice(0, sm.index)}\n${helper}${out.slice(sm.index)}` : `${out}${out.endsWith('\n') ? '' : '\n'}${helper}\n`;
  return { code: out, annotated, skipped };
}

function lineOf(source: string, pos: number): number {
  let line = 1;
  for (let i = 0; i < pos; i++) if (source.charCodeAt(i) === 10) line++;
  return line;
}

/** The parent of every node (one pass; acorn nodes carry no parent links). */
function parentMap(program: AstNode): Map<AstNode, AstNode> {
  const map = new Map<AstNode, AstNode>();
  const visit = (n: AstNode) => {
    for (const k of Object.keys(n)) {
      const v = n[k];
      if (Array.isArray(v)) { for (const c of v) if (c && typeof c.type === 'string') { map.set(c, n); visit(c); } }
      else if (v && typeof v.type === 'string') { map.set(v, n); visit(v); }
    }
  };
  visit(program);
  return map;
}
