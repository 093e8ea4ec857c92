// Scope analysis for the build plugin: which names each function and class reads from an
// enclosing scope. JavaScript gives no runtime handle on a closure's environment, so the plugin
// computes the free variables statically and emits an accessor for them (transform.ts).
//
// Module code is strict: function declarations in blocks are block-scoped, `var` hoists to the
// nearest function body (or module, or class static block). Parameters get their own scope, so a
// default expression never sees a `var` of the body (the spec's separate parameter environment).
import { walk } from 'estree-walker';

/** An ESTree node as acorn produces it (positions are UTF-16 offsets into the source). */
export interface AstNode {
  type: string;
  start: number;
  end: number;
  // ESTree nodes are heterogeneous; the walker reads fields by node type.
  [field: string]: any;
}

export type DeclKind = 'var' | 'let' | 'const' | 'using' | 'function' | 'class' | 'param' | 'catch' | 'import' | 'namespace' | 'self' | 'arguments';

type ScopeKind = 'module' | 'params' | 'body' | 'block' | 'class' | 'catch' | 'static';

export class Scope {
  readonly names = new Map<string, DeclKind>();
  readonly depth: number;
  constructor(readonly parent: Scope | null, readonly kind: ScopeKind) {
    this.depth = parent ? parent.depth + 1 : 0;
  }
  declare(name: string, kind: DeclKind): void {
    // `var x` after a parameter `x` (or a second `var x`) is the same binding: keep the first kind.
    if (!this.names.has(name)) this.names.set(name, kind);
  }
  /** The scope that binds `name`, or null for a global. */
  resolve(name: string): Scope | null {
    for (let s: Scope | null = this; s; s = s.parent) if (s.names.has(name)) return s;
    return null;
  }
}

/** A function or class and the names it reads from enclosing scopes, in order of first use. */
export interface Owner {
  node: AstNode;
  parent: AstNode | null;
  key: string | null;
  /** Depth of the owner's outermost own scope: a binding shallower than this is free. */
  depth: number;
  free: Set<string>;
}

export interface Analysis {
  owners: Owner[];
  /** Every identifier name in the module (references and bindings), for collision checks. */
  names: Set<string>;
}

const FUNCTION_TYPES = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);
const CLASS_TYPES = new Set(['ClassDeclaration', 'ClassExpression']);

/** Binding identifiers of a declaration pattern (`{a, b: [c = d], ...e}` binds a, c, e). */
export function patternIds(p: AstNode | null, out: AstNode[] = []): AstNode[] {
  if (!p) return out;
  switch (p.type) {
    case 'Identifier': out.push(p); break;
    case 'ObjectPattern': for (const prop of p.properties) patternIds(prop.type === 'RestElement' ? prop.argument : prop.value, out); break;
    case 'ArrayPattern': for (const el of p.elements) patternIds(el, out); break;
    case 'RestElement': patternIds(p.argument, out); break;
    case 'AssignmentPattern': patternIds(p.left, out); break;
    default: break; // MemberExpression targets (only in assignments) bind nothing
  }
  return out;
}

/** Is this Identifier a read or write of a binding (not a property name, label or key)? */
function isReference(parent: AstNode | null, key: string | null | undefined): boolean {
  if (!parent) return true;
  switch (parent.type) {
    case 'MemberExpression': return key !== 'property' || parent.computed;
    case 'Property': case 'MethodDefinition': case 'PropertyDefinition': case 'AccessorProperty':
      return key !== 'key' || parent.computed;
    case 'LabeledStatement': case 'BreakStatement': case 'ContinueStatement': case 'MetaProperty':
      return false;
    case 'ExportSpecifier': return key === 'local';
    default: return true;
  }
}

export function analyze(program: AstNode): Analysis {
  const bindingIds = new Set<AstNode>();
  const owners: Owner[] = [];
  const names = new Set<string>();
  const scopes: { node: AstNode; scope: Scope }[] = [];
  const ownerStack: Owner[] = [];
  let scope: Scope = new Scope(null, 'module');

  const push = (node: AstNode, kind: ScopeKind): Scope => {
    scope = new Scope(scope, kind);
    scopes.push({ node, scope });
    return scope;
  };
  const declareIds = (s: Scope, pattern: AstNode | null, kind: DeclKind) => {
    for (const id of patternIds(pattern)) { s.declare(id.name, kind); bindingIds.add(id); }
  };
  // Lexical declarations directly in a statement list (block, body, module, switch).
  const declareLexical = (s: Scope, stmts: AstNode[]) => {
    for (let st of stmts) {
      if ((st.type === 'ExportNamedDeclaration' || st.type === 'ExportDefaultDeclaration') && st.declaration) st = st.declaration;
      if (st.type === 'VariableDeclaration' && st.kind !== 'var') {
        const kind: DeclKind = st.kind === 'let' ? 'let' : st.kind === 'const' ? 'const' : 'using';
        for (const d of st.declarations) declareIds(s, d.id, kind);
      } else if ((st.type === 'FunctionDeclaration' || st.type === 'ClassDeclaration') && st.id) {
        s.declare(st.id.name, st.type === 'FunctionDeclaration' ? 'function' : 'class');
        bindingIds.add(st.id);
      } else if (st.type === 'ImportDeclaration') {
        for (const spec of st.specifiers) { s.declare(spec.local.name, spec.type === 'ImportNamespaceSpecifier' ? 'namespace' : 'import'); bindingIds.add(spec.local); }
      }
    }
  };
  // `var` anywhere in a body's statements (not inside nested functions or classes).
  const hoistVars = (s: Scope, st: AstNode | null | undefined): void => {
    if (!st) return;
    switch (st.type) {
      case 'VariableDeclaration': if (st.kind === 'var') for (const d of st.declarations) declareIds(s, d.id, 'var'); break;
      case 'BlockStatement': case 'StaticBlock': for (const x of st.body) hoistVars(s, x); break;
      case 'IfStatement': hoistVars(s, st.consequent); hoistVars(s, st.alternate); break;
      case 'ForStatement': hoistVars(s, st.init); hoistVars(s, st.body); break;
      case 'ForInStatement': case 'ForOfStatement': hoistVars(s, st.left); hoistVars(s, st.body); break;
      case 'WhileStatement': case 'DoWhileStatement': case 'LabeledStatement': case 'WithStatement': hoistVars(s, st.body); break;
      case 'TryStatement': hoistVars(s, st.block); hoistVars(s, st.handler?.body); hoistVars(s, st.finalizer); break;
      case 'SwitchStatement': for (const c of st.cases) for (const x of c.consequent) hoistVars(s, x); break;
      case 'ExportNamedDeclaration': hoistVars(s, st.declaration); break;
      default: break;
    }
  };

  walk(program as any, {
    enter(n, p, k) {
      const node = n as unknown as AstNode, parent = p as unknown as AstNode | null, key = k as string | null | undefined;
      switch (node.type) {
        case 'Program':
          scopes.push({ node, scope });
          declareLexical(scope, node.body);
          for (const st of node.body) hoistVars(scope, st);
          return;
        case 'ImportDeclaration': case 'ExportAllDeclaration':
          // Bindings were declared with the module; `from` strings and imported names are not references.
          this.skip();
          return;
        case 'ExportNamedDeclaration':
          if (node.source) this.skip(); // `export { a } from 'm'` reads no local `a`
          return;
        case 'FunctionDeclaration': case 'FunctionExpression': case 'ArrowFunctionExpression': {
          if (node.id) bindingIds.add(node.id);
          const s = push(node, 'params');
          // A named function expression's own name is visible only inside it: not free.
          if (node.type === 'FunctionExpression' && node.id) s.declare(node.id.name, 'self');
          if (node.type !== 'ArrowFunctionExpression') s.declare('arguments', 'arguments');
          for (const param of node.params) declareIds(s, param, 'param');
          const owner: Owner = { node, parent, key: key ?? null, depth: s.depth, free: new Set() };
          owners.push(owner);
          ownerStack.push(owner);
          return;
        }
        case 'ClassDeclaration': case 'ClassExpression': {
          if (node.id) bindingIds.add(node.id);
          const s = push(node, 'class');
          if (node.id) s.declare(node.id.name, 'self');
          const owner: Owner = { node, parent, key: key ?? null, depth: s.depth, free: new Set() };
          owners.push(owner);
          ownerStack.push(owner);
          return;
        }
        case 'BlockStatement': {
          const isBody = parent !== null && FUNCTION_TYPES.has(parent.type) && key === 'body';
          const s = push(node, isBody ? 'body' : 'block');
          if (isBody) hoistVars(s, node);
          declareLexical(s, node.body);
          return;
        }
        case 'StaticBlock': {
          const s = push(node, 'static');
          hoistVars(s, node);
          declareLexical(s, node.body);
          return;
        }
        case 'CatchClause': declareIds(push(node, 'catch'), node.param, 'catch'); return;
        case 'ForStatement': case 'ForInStatement': case 'ForOfStatement': {
          const s = push(node, 'block');
          const head = node.type === 'ForStatement' ? node.init : node.left;
          if (head?.type === 'VariableDeclaration' && head.kind !== 'var') declareLexical(s, [head]);
          return;
        }
        case 'SwitchCase':
          // The cases share one block scope; the discriminant is evaluated outside it.
          if (parent && parent.cases[0] === node) declareLexical(push(parent, 'block'), parent.cases.flatMap((c: AstNode) => c.consequent));
          return;
        case 'Identifier': {
          names.add(node.name);
          if (bindingIds.has(node) || !isReference(parent, key)) return;
          const at = scope.resolve(node.name);
          if (!at) return; // a global: resolved through globalThis, not the accessor
          // `ns.member` on a namespace import is listed as well: a bundler may replace it with the
          // member's own binding, whose name the accessor then reports (see transform.ts).
          const member = at.names.get(node.name) === 'namespace' && parent?.type === 'MemberExpression' && key === 'object' && !parent.computed && parent.property.type === 'Identifier'
            ? `${node.name}.${parent.property.name}` : undefined;
          for (let i = ownerStack.length - 1; i >= 0 && at.depth < ownerStack[i].depth; i--) {
            ownerStack[i].free.add(node.name);
            if (member) ownerStack[i].free.add(member);
          }
          return;
        }
        default:
          return;
      }
    },
    leave(n) {
      const node = n as unknown as AstNode;
      while (scopes.length && scopes[scopes.length - 1].node === node) {
        scopes.pop();
        scope = scopes.length ? scopes[scopes.length - 1].scope : scope;
      }
      if (ownerStack.length && ownerStack[ownerStack.length - 1].node === node) ownerStack.pop();
    },
  });
  return { owners, names };
}

export function isFunctionNode(n: AstNode): boolean { return FUNCTION_TYPES.has(n.type); }
export function isClassNode(n: AstNode): boolean { return CLASS_TYPES.has(n.type); }
