// Runs under vitest with the Skiff scope plugin (see vitest.config.ts here).
import { expect, it } from 'vitest';
import { Net, closure, setBias } from './model.js';

const S = Symbol.for('skiff.scope');

it('classes and closures carry the accessor with current values', () => {
  expect(Object.prototype.hasOwnProperty.call(Net, S)).toBe(true);
  const net = (Net as any)[S]();
  expect(net.bias).toBe(1);
  // The namespace import is listed under the name the transformed method text reads.
  const nsKey = Object.keys(net).find((k) => typeof net[k] === 'object' && net[k]?.twice);
  expect(nsKey).toBeDefined();
  expect(String(Net.prototype.forward)).toContain(`${nsKey}.twice`);
  const c = (closure as any)[S]();
  expect(c).toMatchObject({ hidden: 42, bias: 1 });
  setBias(5);
  expect((closure as any)[S]().bias).toBe(5);
  expect(closure(0)).toBe(47);
  expect(new Net().forward(1)).toBe(2 * 3 + 5);
});

it('named imports: a view under the name the transformed text reads, stable identity', () => {
  // Vite rewrites `gain` to `__vite_ssr_import_N__.gain` in Net's field initialiser.
  const src = String(Net);
  const base = /(__vite_ssr_import_\d+__)\.gain/.exec(src)?.[1];
  expect(base, src).toBeDefined();
  const a = (Net as any)[S](), b = (Net as any)[S]();
  expect(a[base!].gain).toBe(3);
  expect(a[base!]).toBe(b[base!]);
  expect(a.gain).toBe(3);
});

it('the spec file itself is transformed too', () => {
  const local = 7;
  const f = () => local;
  expect((f as any)[S]()).toEqual({ local: 7 });
});
