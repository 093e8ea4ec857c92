// Helpers for the JS frontend suites: comparison of results and a stand-in for the build
// plugin's scope accessor on code compiled by vitest (whose module imports become
// `__vite_ssr_import_N__.name` free variables).
import { expect } from 'vitest';
import { Tensor } from '../../src/tensor/tensor.js';
import { paddle as P } from '../../frontend/index.js';

/** Flat numbers of a tensor (or nested results), for exact or tolerance comparisons. */
export function flat(v: unknown): number[] {
  if (v instanceof Tensor) return v.dataSync().map(Number);
  if (Array.isArray(v)) return v.flatMap(flat);
  if (v !== null && typeof v === 'object') return Object.values(v).flatMap(flat);
  if (typeof v === 'number' || typeof v === 'boolean') return [Number(v)];
  return [];
}

/** A split-suite case: a function, its calls (argument makers) and what the trace tree must show. */
export interface SplitCase {
  name: string;
  fn: Function;
  calls: (() => unknown[])[];
  /** translateCount after each call. */
  translations: number[];
  graphs: number;
  breaks: string[];
}

/** Structure (shapes, dtypes, primitives) of a result: must match exactly between eager and captured. */
export function structure(v: unknown): unknown {
  if (v instanceof Tensor) return `T${JSON.stringify(v.shape)}${v.dtype}`;
  if (Array.isArray(v)) return v.map(structure);
  if (v instanceof Map) return [...v].map(([k, x]) => [k, structure(x)]);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, structure(x)]));
  return v;
}

export function expectSame(captured: unknown, eager: unknown, tol = 0): void {
  expect(structure(captured)).toEqual(structure(eager));
  const a = flat(captured), b = flat(eager);
  expect(a.length).toBe(b.length);
  let worst = 0;
  for (let i = 0; i < a.length; i++) {
    if (Number.isNaN(a[i]) && Number.isNaN(b[i])) continue;
    worst = Math.max(worst, Math.abs(a[i] - b[i]) / Math.max(1, Math.abs(b[i])));
  }
  expect(worst).toBeLessThanOrEqual(tol);
}

/**
 * What the skiff build plugin gives a class or function: a `Symbol.for('skiff.scope')` accessor
 * returning its free variables. Under vitest a module import `paddle` appears as
 * `__vite_ssr_import_N__.paddle`; the record maps every such N found in the methods' source to an
 * object holding the `known` names, and holds the known names themselves (module-level consts).
 */
export function attachScope(target: Function, known: Record<string, unknown>): void {
  const texts: string[] = [Function.prototype.toString.call(target)];
  if (target.prototype) for (const k of Object.getOwnPropertyNames(target.prototype)) {
    const d = Object.getOwnPropertyDescriptor(target.prototype, k);
    if (d && typeof d.value === 'function') texts.push(Function.prototype.toString.call(d.value));
  }
  const record: Record<string, unknown> = { ...known };
  for (const t of texts) for (const m of t.matchAll(/__vite_ssr_import_(\d+)__/g)) record[m[0]] = known;
  Object.defineProperty(target, Symbol.for('skiff.scope'), { value: () => record, enumerable: false, configurable: true });
}

/* eslint-disable @typescript-eslint/no-explicit-any */
/** Copies of a layer's parameter gradients (null where a parameter got none). */
export const paramGrads = (l: any): any[] => l.parameters().map((p: any) => (p.grad ? (P as any).scale(p.grad, 1) : null));

/** Loss (mean square of the output) and the parameter gradients of one call of `run`. */
export function lossAndGrads(l: any, run: (x: any) => any, x: any): [any, any[]] {
  l.clear_gradients();
  const loss = run(x).square().mean();
  loss.backward();
  return [loss, paramGrads(l)];
}
/* eslint-enable @typescript-eslint/no-explicit-any */
