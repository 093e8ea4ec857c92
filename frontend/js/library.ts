// What counts as Skiff's own library (run symbolically on graph values) and which JS builtins
// are pure (computed on constants at translation time). The library is everything reachable
// from the `paddle` namespace: its functions, and the classes whose methods are library code
// (built-in layers).
import { paddle } from '../../src/paddle.js';
import { Layer } from '../../src/nn/layer.js';

let libFns: Set<unknown> | null = null;
let builtinClasses: Set<unknown> | null = null;
const inplaceOf = new Map<unknown, (...a: unknown[]) => unknown>();

// Namespaces and functions with effects or hidden state: a call cannot be recorded once and
// replayed, so they are not library functions here (a call of one is an unknown call, SOT005).
const STATEFUL_NAMESPACES = new Set(['static', 'profiler', 'autograd', 'optimizer', 'regularizer', 'amp', 'jit', 'inference', 'onnx', 'io', 'vision', 'incubate']);
const STATEFUL_NAMES = new Set(['set_printoptions', 'seed', 'get_rng_state', 'set_rng_state', 'set_num_threads', 'get_num_threads', 'in_dynamic_mode',
  'enable_static', 'disable_static', 'grad', 'no_grad', 'enable_grad', 'set_grad_enabled', 'is_grad_enabled', 'get_device', 'set_device', 'summary',
  'save', 'load', 'set_default_dtype', 'get_default_dtype', 'set_flags', 'get_flags', 'flops', 'to_static']);

const isClass = (f: Function): boolean => /^class[\s{]/.test(Function.prototype.toString.call(f));

function collect(): void {
  libFns = new Set();
  builtinClasses = new Set([Layer]);
  const seen = new Set<object>();
  const walk = (o: Record<string, unknown>, depth: number): void => {
    if (seen.has(o) || depth > 6) return;
    seen.add(o);
    for (const k of Object.keys(o)) {
      const v = o[k];
      if (depth === 0 && STATEFUL_NAMESPACES.has(k)) {
        // Classes there (optimizers, datasets) are still Skiff's own, never user code.
        if (v !== null && typeof v === 'object') for (const c of Object.values(v)) if (typeof c === 'function' && isClass(c)) builtinClasses!.add(c);
        continue;
      }
      if (STATEFUL_NAMES.has(k)) continue;
      if (typeof v === 'function') {
        if (isClass(v)) builtinClasses!.add(v);
        else {
          libFns!.add(v);
          const base = k.endsWith('_') ? o[k.slice(0, -1)] : undefined;
          if (typeof base === 'function') inplaceOf.set(v, base as (...a: unknown[]) => unknown);
        }
      } else if (v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) walk(v as Record<string, unknown>, depth + 1);
    }
  };
  walk(paddle as unknown as Record<string, unknown>, 0);
  // Unexported bases of exported classes (RNNBase under LSTM) are library code too.
  for (const c of [...builtinClasses]) {
    for (let p = Object.getPrototypeOf((c as Function).prototype); p && p !== Object.prototype; p = Object.getPrototypeOf(p)) builtinClasses.add(p.constructor);
  }
}

export function isLibraryFunction(f: unknown): boolean {
  if (!libFns) collect();
  return libFns!.has(f);
}

/** The functional form of a library inplace function (paddle.add_ -> paddle.add), or null. */
export function inplaceBase(f: unknown): ((...a: unknown[]) => unknown) | null {
  if (!libFns) collect();
  return inplaceOf.get(f) ?? null;
}

/** A class exported by Skiff (built-in layers and their bases): its methods are library code. */
export function isBuiltinClass(c: unknown): boolean {
  if (!builtinClasses) collect();
  return builtinClasses!.has(c);
}

const pure = new Set<unknown>([
  ...Object.getOwnPropertyNames(Math).map((k) => (Math as unknown as Record<string, unknown>)[k]).filter((v) => typeof v === 'function' && v !== Math.random),
  Number, String, Boolean, parseInt, parseFloat, isNaN, isFinite,
  Number.isInteger, Number.isFinite, Number.isNaN, Number.isSafeInteger, Number.parseFloat, Number.parseInt,
  String.fromCharCode, JSON.stringify, BigInt,
]);

/** Pure JS builtins: the same constants in, the same value out, no side effects. */
export const isPureBuiltin = (f: unknown): boolean => pure.has(f);

/**
 * Pure builtins that convert each argument with ToNumber/ToString (a tensor through its
 * toString): a tensor argument is that conversion (calls.ts convertTensor). Not JSON.stringify
 * (it enumerates properties), Boolean or Number.isFinite & co. (no conversion), BigInt (raises).
 */
const converting = new Set<unknown>([
  ...Object.getOwnPropertyNames(Math).map((k) => (Math as unknown as Record<string, unknown>)[k]).filter((v) => typeof v === 'function' && v !== Math.random),
  Number, String, parseInt, parseFloat, isNaN, isFinite, String.fromCharCode,
]);
export const convertsArgs = (f: unknown): boolean => converting.has(f);
