// Turns a function's runtime source text (`fn.toString()`) into the ESTree node of that function.
// The text is only parsed, never run. Method text (`forward(x) { ... }`, `get x() {}`) is not a
// program on its own, so it is wrapped in a class body; arrow functions and function expressions
// are wrapped in parentheses. Results are cached per function object.
import { parse } from 'acorn';
import { walk } from 'estree-walker';
import type { ArrowFunctionExpression, FunctionDeclaration, FunctionExpression, Identifier, Node, Pattern, Program } from 'estree';
import { GraphBreak } from '../../sot/graph_breaks.js';

export type FnNode = FunctionDeclaration | FunctionExpression | ArrowFunctionExpression;

export interface ParsedFunction {
  readonly node: FnNode;
  /** Source text the node's offsets refer to (for lines in break reports). */
  readonly text: string;
  /** How many characters were prepended to the function text by the wrapper. */
  readonly shift: number;
  /** Names declared with `var` or as functions anywhere in the body (hoisted to the frame). */
  readonly hoisted: { readonly vars: readonly string[]; readonly functions: readonly FunctionDeclaration[] };
}

const cache = new WeakMap<Function, ParsedFunction | GraphBreak>();

const isNative = (text: string): boolean => /\{\s*\[native code\]\s*\}\s*$/.test(text);

function tryParse(src: string): Program | null {
  try {
    return parse(src, { ecmaVersion: 'latest', sourceType: 'module', allowReturnOutsideFunction: false }) as unknown as Program;
  } catch {
    return null;
  }
}

/** The function node found in a wrapped program (the first function-like node). */
function firstFunction(program: Program): FnNode | null {
  let found: FnNode | null = null;
  walk(program as Node, {
    enter(n) {
      if (found) { this.skip(); return; }
      if (n.type === 'FunctionDeclaration' || n.type === 'FunctionExpression' || n.type === 'ArrowFunctionExpression') { found = n; this.skip(); }
    },
  });
  return found;
}

/** Parses `fn`'s source; a GraphBreak (SOT101/SOT106/SOT005) when it cannot be simulated. */
export function parseFunction(fn: Function): ParsedFunction {
  const hit = cache.get(fn);
  if (hit instanceof GraphBreak) throw hit;
  if (hit) return hit;
  try {
    const p = parseUncached(fn);
    cache.set(fn, p);
    return p;
  } catch (e) {
    if (e instanceof GraphBreak) cache.set(fn, e);
    throw e;
  }
}

function parseUncached(fn: Function): ParsedFunction {
  const text = Function.prototype.toString.call(fn);
  if (isNative(text)) throw new GraphBreak('SOT005', `${fn.name || 'function'} is native or bound code (no source)`);
  if (/^class[\s{]/.test(text)) throw new GraphBreak('SOT005', `${fn.name || 'class'} is a class, not a function`);
  // Expression forms first (arrows, `function` expressions, async ones), then method forms.
  const wrappers: [string, string][] = [['(', '\n)'], ['(class { ', '\n})'], ['(class { static ', '\n})']];
  for (const [pre, post] of wrappers) {
    const program = tryParse(pre + text + post);
    if (!program) continue;
    const node = firstFunction(program);
    if (!node) continue;
    if (node.async || node.generator) throw new GraphBreak('SOT106', `${fn.name || 'function'} is ${node.async ? 'async' : 'a generator'}`);
    return { node, text: pre + text + post, shift: pre.length, hoisted: hoist(node) };
  }
  throw new GraphBreak('SOT101', `the source of ${fn.name || 'function'} could not be parsed`);
}

/** `var` names and function declarations of a body, not entering nested functions. */
export function hoist(fnNode: FnNode): ParsedFunction['hoisted'] {
  const vars: string[] = [];
  const functions: FunctionDeclaration[] = [];
  if (fnNode.body.type !== 'BlockStatement') return { vars, functions };
  walk(fnNode.body as Node, {
    enter(n) {
      if (n.type === 'FunctionDeclaration') { functions.push(n); this.skip(); return; }
      if (n.type === 'FunctionExpression' || n.type === 'ArrowFunctionExpression' || n.type === 'ClassDeclaration' || n.type === 'ClassExpression') { this.skip(); return; }
      if (n.type === 'VariableDeclaration' && n.kind === 'var') for (const d of n.declarations) vars.push(...patternNames(d.id));
    },
  });
  return { vars, functions };
}

export function patternNames(p: Pattern): string[] {
  switch (p.type) {
    case 'Identifier': return [p.name];
    case 'ArrayPattern': return p.elements.flatMap((e) => (e ? patternNames(e) : []));
    case 'ObjectPattern': return p.properties.flatMap((q) => (q.type === 'RestElement' ? patternNames(q.argument) : patternNames(q.value)));
    case 'AssignmentPattern': return patternNames(p.left);
    case 'RestElement': return patternNames(p.argument);
    default: return [];
  }
}

/** 1-based line of a node inside the function text. */
export function lineOf(p: ParsedFunction, n: Node): number {
  const start = (n as unknown as { start: number }).start ?? 0;
  let line = 1;
  for (let i = p.shift; i < start && i < p.text.length; i++) if (p.text.charCodeAt(i) === 10) line++;
  return line;
}

export type { Identifier };
