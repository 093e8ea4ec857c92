// The build plugin's transform: free-variable sets per function/class, current values through
// the accessor, TDZ, name inference and line numbers. Each case is a small module set, transformed,
// written to a temp dir as .mjs and imported (real module semantics, no eval; vitest's module
// runner rewrites imports and exports on the way in, the fixture test runs a bundle in plain Node).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'acorn';
import { afterAll, describe, expect, it } from 'vitest';
import { transformScopes } from '../../frontend/js/plugin/transform.js';

const S = Symbol.for('skiff.scope');
const U = Symbol.for('skiff.unresolved');
const dir = mkdtempSync(join(tmpdir(), 'skiff-js-plugin-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let seq = 0;
/** Transforms every file of a case into its own folder and imports main.mjs. */
async function load(files: Record<string, string>): Promise<Record<string, any>> {
  const sub = join(dir, `case${seq++}`);
  rmSync(sub, { recursive: true, force: true });
  const { mkdirSync } = await import('node:fs');
  mkdirSync(sub, { recursive: true });
  for (const [name, src] of Object.entries(files)) writeFileSync(join(sub, name), transformScopes(src, { filename: name }).code);
  return import(/* @vite-ignore */ pathToFileURL(join(sub, 'main.mjs')).href);
}
const scopeOf = (f: any): Record<string, unknown> => {
  expect(Object.getOwnPropertySymbols(f)).toContain(S);
  expect(Object.keys(f)).not.toContain(S.toString()); // non-enumerable
  return f[S]();
};
// vitest's module runner turns a named import `k` into `__vite_ssr_import_0__.k`; the accessor then
// also publishes a view under that name (tested through the Vite plugin in vite/plugin.spec.ts).
const sortedKeys = (o: object) => Object.keys(o).filter((k) => !k.startsWith('__vite_ssr_import_')).sort();

interface Case { name: string; files: Record<string, string>; target?: (m: any) => any; names: string[]; values?: Record<string, unknown> }

// `target` picks the function/class to inspect (default: the export `target`).
const CASES: Case[] = [
  { name: 'closure over let/const', files: { 'main.mjs': 'function make() { let a = 1; const b = 2; return () => a + b; }\nexport const target = make();' }, names: ['a', 'b'], values: { a: 1, b: 2 } },
  { name: 'module-level names and imports', files: { 'dep.mjs': 'export const k = 7;', 'main.mjs': "import { k } from './dep.mjs';\nconst m = 1;\nexport function target() { return k + m; }" }, names: ['k', 'm'], values: { k: 7, m: 1 } },
  { name: 'parameter shadows outer name', files: { 'main.mjs': 'const x = 1, y = 2;\nexport const target = (x) => x + y;' }, names: ['y'] },
  { name: 'block shadowing', files: { 'main.mjs': 'let v = 1;\nexport function target() { { let v = 2; return v; } }' }, names: [] },
  { name: 'nested function sees enclosing locals', files: { 'main.mjs': 'const z = 5;\nfunction outer() { const k = 3; return function inner() { return k + z; }; }\nexport const target = outer();' }, names: ['k', 'z'], values: { k: 3, z: 5 } },
  { name: 'outer function lists what its inner functions read', files: { 'main.mjs': 'const z = 5;\nexport function target() { return () => z; }' }, names: ['z', '__skiffScope'] },
  { name: 'hoisted function declaration and var', files: { 'main.mjs': 'export function target() { return later() + q; }\nfunction later() { return 1; }\nvar q = 4;' }, names: ['later', 'q'], values: { q: 4 } },
  { name: 'var hoists out of blocks, not out of the function', files: { 'main.mjs': 'var q = 0;\nexport function target() { if (q === 0) { var q = 1; } for (var j = 0; j < 1; j++) {} return q + j; }' }, names: [] },
  { name: 'destructured and rest params', files: { 'main.mjs': 'const d = 1, e = 2, a = 9;\nexport function target({ a, b: [c = d] }, ...rest) { return a + c + e + rest.length; }' }, names: ['d', 'e'] },
  { name: 'catch param shadows', files: { 'main.mjs': 'const err = 1, w = 2;\nexport function target() { try { throw 0; } catch (err) { return err + w; } }' }, names: ['w'] },
  { name: 'catch destructuring and block-scoped names in catch body', files: { 'main.mjs': 'const m = 1, n = 2;\nexport function target() { try { } catch ({ message: m }) { let n = m; return n; } }' }, names: [] },
  { name: 'class: fields, static fields, methods, heritage', files: { 'main.mjs': 'class Base {}\nconst size = 4, scale = 2, k = 3;\nexport class target extends Base { w = size; static s = scale; forward(x) { return x * k; } }' }, names: ['Base', 'k', 'scale', 'size'] },
  { name: 'class own name inside is not free', files: { 'main.mjs': 'const u = 1;\nexport class target { static make() { return new target() ?? u; } }' }, names: ['u'] },
  { name: 'default params read outer names', files: { 'main.mjs': 'const base = 10;\nexport function target(a = base, b = a + 1) { return a + b; }' }, names: ['base'], values: { base: 10 } },
  { name: 'default param never sees a body var', files: { 'main.mjs': 'const v = 1;\nexport function target(a = v) { var v = 2; return a + v; }' }, names: ['v'], values: { v: 1 } },
  { name: 'globals are not listed', files: { 'main.mjs': 'export const target = () => Math.max(console ? 1 : 0, undefined, globalThis.x ?? NaN);' }, names: [] },
  { name: 'named function expression: own name is not free', files: { 'main.mjs': 'const outer = 1;\nexport const target = function self(n) { return n ? self(n - 1) : outer; };' }, names: ['outer'] },
  { name: 'arguments in an arrow belongs to the enclosing function', files: { 'main.mjs': 'function outer() { return () => arguments[0]; }\nexport const target = outer(7);' }, names: ['arguments'] },
  { name: 'written names are listed too', files: { 'main.mjs': 'let c = 0;\nexport const target = () => { c = 5; };' }, names: ['c'] },
  { name: 'labels, member names and object keys are not references', files: { 'main.mjs': 'const p = 1, lbl = 2, key = 3;\nexport function target(o) { lbl: for (;;) break lbl; return o.p + { key: 1 }.key; }' }, names: [] },
  { name: 'computed keys and shorthand are references', files: { 'main.mjs': 'const p = "a", q = 2;\nexport function target(o) { return { [p]: o[p], q }; }' }, names: ['p', 'q'] },
  { name: 'for-let loop variable per iteration', files: { 'main.mjs': 'const fns = [];\nfor (let i = 0; i < 2; i++) fns.push(() => i);\nexport const target = fns[1];' }, names: ['i'], values: { i: 1 } },
  { name: 'switch scope: discriminant is outside the cases', files: { 'main.mjs': 'const x = 1;\nexport function target() { switch (x) { case 1: { let x = 2; return x; } } }' }, names: ['x'] },
  { name: 'variable named __proto__', files: { 'main.mjs': 'const __proto__ = 5;\nexport const target = () => __proto__;' }, names: ['__proto__'], values: { __proto__: 5 } },
  { name: 'source already using __skiff names', files: { 'main.mjs': 'const __skiffScope = 1, __skiffI = 2;\nexport const target = () => __skiffScope + __skiffI;' }, names: ['__skiffI', '__skiffScope'], values: { __skiffScope: 1, __skiffI: 2 } },
  { name: 'object literal method', files: { 'main.mjs': 'const a = 1;\nexport const obj = { m() { return a; } };' }, target: (m) => m.obj.m, names: ['a'] },
  { name: 'object literal getter', files: { 'main.mjs': 'const b = 2;\nexport const obj = { get g() { return b; } };' }, target: (m) => Object.getOwnPropertyDescriptor(m.obj, 'g')!.get, names: ['b'] },
  { name: 'static block', files: { 'main.mjs': 'const s = 1;\nexport class target { static { var t = s; function h() { return t; } this.h = h; } }' }, names: ['s', '__skiffScope'] },
  { name: 'function declared in a block', files: { 'main.mjs': 'const r = 3;\nexport let target;\n{ target = f; function f() { return r; } }' }, names: ['r'] },
];

describe('js plugin: free variables', () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const m = await load(c.files);
      const fn = c.target ? c.target(m) : m.target;
      const scope = scopeOf(fn);
      expect(sortedKeys(scope)).toEqual([...c.names].sort());
      if (c.values) for (const [k, v] of Object.entries(c.values)) expect(Object.getOwnPropertyDescriptor(scope, k)?.value).toBe(v);
      expect((scope as any)[U]).toEqual([]);
    });
  }
});

describe('js plugin: semantics', () => {
  it('reads current values: let reassignment and live import bindings', async () => {
    const m = await load({
      'dep.mjs': 'export let count = 1;\nexport function inc() { count++; }',
      'main.mjs': "import { count, inc } from './dep.mjs';\nlet local = 'a';\nexport const target = () => count + local;\nexport function bump() { inc(); local = 'b'; }",
    });
    expect(m.target[S]()).toMatchObject({ count: 1, local: 'a' });
    m.bump();
    expect(m.target[S]()).toMatchObject({ count: 2, local: 'b' });
    expect(m.target()).toBe('2b');
  });

  it('namespace imports: listed under the name the runtime text reads', async () => {
    const m = await load({ 'dep.mjs': 'export const k = 7;', 'main.mjs': "import * as ns from './dep.mjs';\nexport function target() { return ns.k; }" });
    const scope = m.target[S]();
    // Plain Node keeps `ns`; vitest's module runner renames it (__vite_ssr_import_0__), and the
    // function's own text then reads that name: the key must be the one in the text.
    const [key] = Object.keys(scope);
    expect(Object.keys(scope)).toHaveLength(1);
    expect(String(m.target)).toContain(`${key}.k`);
    expect(scope[key].k).toBe(7);
  });

  it('a function lists the marked helper that its own runtime text calls', async () => {
    const m = await load({ 'main.mjs': 'export function target(xs) { return xs.map((v) => v + 1); }\nexport function plain(x) { return x; }' });
    expect(String(m.target)).toContain('__skiffScope(');
    const helper = m.target[S]().__skiffScope;
    expect(helper[Symbol.for('skiff.scope.helper')]).toBe('scope');
    const f = () => 1;
    expect(helper(f, [], null)).toBe(f); // a call evaluates to its first argument
    expect(Object.keys(m.plain[S]())).toEqual([]); // nothing inserted in plain's text
    expect(m.target([1, 2])).toEqual([2, 3]);
  });

  it('TDZ: a binding not yet initialised is reported unresolved, not thrown', async () => {
    const m = await load({ 'main.mjs': 'export const target = () => late + other;\nconst other = 1;\nexport const early = target[Symbol.for("skiff.scope")]();\nlet late = 2;\nclass K {}\nexport const early2 = (() => K)[Symbol.for("skiff.scope")];\n' });
    expect(Object.keys(m.early)).toEqual(['other']);
    expect(m.early[U]).toEqual(['late']);
    expect(m.target[S]()).toMatchObject({ late: 2, other: 1 });
    expect(m.target[S]()[U]).toEqual([]);
  });

  it('function declarations carry the accessor before their line runs (hoisting)', async () => {
    const m = await load({ 'main.mjs': 'export const early = typeof f[Symbol.for("skiff.scope")];\nconst a = 1;\nexport function f() { return a; }' });
    expect(m.early).toBe('function');
  });

  it('keeps inferred names, new-expressions, statement-start arrows and results', async () => {
    const src = [
      'const q = 1;',
      'let t = 0',
      'x => x',
      'export const arrow = () => q;',
      'export const Klass = class { static make() { return q; } };',
      'export const obj = { fn: () => 1, async *gen() {} };',
      'export class Holder { fc = () => q; }',
      'export const inst = new class { v = q; }();',
      'export const inst2 = new function () { this.v = q + 1; }();',
      'export const bound = function () { return this.v; }.call({ v: 3 });',
      'export const nested = (a) => (b) => a + b + q;',
      'export default () => q;',
      'export const result = [arrow(), Klass.make(), obj.fn(), new Holder().fc(), inst.v, inst2.v, bound, nested(1)(2), t];',
    ].join('\n');
    const plain = join(dir, `plain${seq++}.mjs`);
    writeFileSync(plain, src);
    const orig = await import(/* @vite-ignore */ pathToFileURL(plain).href);
    const m = await load({ 'main.mjs': src });
    expect(m.result).toEqual(orig.result);
    expect([m.arrow.name, m.Klass.name, m.obj.fn.name, new m.Holder().fc.name, m.obj.gen.name])
      .toEqual([orig.arrow.name, orig.Klass.name, orig.obj.fn.name, new orig.Holder().fc.name, orig.obj.gen.name]);
    // (vitest's module runner renames the untransformed default export, so compare with Node's name.)
    expect(m.default.name).toBe('default');
    expect(m.nested(1)[S]()).toMatchObject({ a: 1, q: 1 });
    expect(m.default[S]()).toMatchObject({ q: 1 });
  });

  it('export default class gets an accessor and keeps its name', async () => {
    const m = await load({ 'main.mjs': 'const w = 2;\nexport default class { m() { return w; } }' });
    expect(m.default.name).toBe('default');
    expect(m.default[S]()).toEqual({ w: 2 });
  });

  it('anonymous export default function is reported as skipped', () => {
    const r = transformScopes('export default function () { return 1; }');
    expect(r.skipped.join()).toMatch(/anonymous 'export default function'/);
  });

  it('is idempotent: a second pass leaves the output alone', () => {
    const once = transformScopes('const a = 1; export const f = () => a;').code;
    expect(transformScopes(once).code).toBe(once);
  });

  it('bad input names the file and the position', () => {
    expect(() => transformScopes('const = 1;', { filename: 'broken.js' })).toThrow(/broken\.js.*\(1:6\)/);
  });
});

describe('js plugin: line numbers', () => {
  it('every function and class starts on the same line as in the source', () => {
    const src = [
      '#!/usr/bin/env node',
      '"use strict";',
      "import { a } from './dep.mjs';",
      'export function f(x) {',
      '  "use strict"',
      '  function g() { return x; }',
      '  return [1, 2].map((v) =>',
      '    v + g());',
      '}',
      'class C extends Object {',
      '  h = () => a;',
      '  m() { return { k() { return a; } }; }',
      '}',
      'export default class { }',
      'const o = { get p() { return C; } };',
      'switch (a) { case 1: function s() { return a; } }',
      '// trailing comment without newline',
    ].join('\n');
    const out = transformScopes(src).code;
    const fns = (code: string) => {
      const lines: number[] = [];
      const visit = (n: any) => {
        const generated = n.type === 'ArrowFunctionExpression' && n.params[0]?.name?.startsWith('__skiff'); // the accessors
        if (/Function|Class(Declaration|Expression)/.test(n.type) && !generated) lines.push(n.loc.start.line);
        for (const v of Object.values(n)) {
          if (Array.isArray(v)) v.forEach((c) => c && typeof c.type === 'string' && visit(c));
          else if (v && typeof (v as any).type === 'string') visit(v);
        }
      };
      visit(parse(code, { ecmaVersion: 'latest', sourceType: 'module', allowHashBang: true, locations: true }));
      return lines;
    };
    const before = fns(src);
    const after = fns(out);
    // The appended helper adds its own functions on the new last line; the user's are unchanged.
    const srcLines = src.split('\n').length;
    expect(after.filter((l) => l <= srcLines)).toEqual(before);
    expect(out.split('\n').slice(0, srcLines).map((l) => l.length >= 0)).toHaveLength(srcLines);
    expect(out.split('\n')[srcLines].startsWith('/*skiff-scope-transformed*/')).toBe(true);
    // Each source line's own text is still on that line (insertions only add to lines).
    const outLines = out.split('\n');
    src.split('\n').forEach((line, i) => {
      for (const word of line.match(/[A-Za-z_]\w{3,}/g) ?? []) expect(outLines[i]).toContain(word);
    });
  });
});
