// The JavaScript frontend: paddle.jit.to_static for TS/JS functions and layers (docs/js_frontend.md).
import { Layer } from '../../src/nn/layer.js';
import { StaticFunction, type ToStaticOptions, type ToStaticStats } from './static_function.js';

export { StaticFunction, JsStrictModeError, type ToStaticOptions, type ToStaticStats } from './static_function.js';

/** A to_static'd function: call it like the original; `stats`/`explain()` describe its cache. */
export interface StaticCallable {
  (...args: any[]): any;   // eslint-disable-line @typescript-eslint/no-explicit-any
  readonly stats: ToStaticStats;
  readonly translateCount: number;
  explain(): ReturnType<StaticFunction['explain']>;
  readonly static_function: StaticFunction;
}

/** A to_static'd layer: the original layer (parameters, train(), eval(), state_dict) with call/forward translated. */
export type StaticLayer<L extends Layer> = L & { readonly stats: ToStaticStats; readonly translateCount: number; explain(): ReturnType<StaticFunction['explain']>; readonly static_function: StaticFunction };

export function to_static<L extends Layer>(layer: L, opts?: ToStaticOptions): StaticLayer<L>;
export function to_static(fn: Function, opts?: ToStaticOptions): StaticCallable;
export function to_static(target: Function | Layer, opts: ToStaticOptions = {}): unknown {
  if (opts === null || typeof opts !== 'object') throw new TypeError(`to_static: options must be an object, got ${String(opts)}`);
  if (target instanceof Layer) return wrapLayer(target, opts);
  if (typeof target !== 'function') throw new TypeError(`to_static: expected a function or a paddle.nn.Layer, got ${target === null ? 'null' : typeof target}`);
  const sf = new StaticFunction(target, null, opts);
  const callable = function (this: unknown, ...args: unknown[]): unknown { return sf.call(this, args); };
  Object.defineProperties(callable, {
    stats: { get: () => sf.stats },
    translateCount: { get: () => sf.stats.translateCount },
    explain: { value: () => sf.explain() },
    static_function: { value: sf },
    name: { value: target.name },
  });
  return callable;
}

function wrapLayer<L extends Layer>(layer: L, opts: ToStaticOptions): StaticLayer<L> {
  const sf = new StaticFunction(layer.forward, layer, opts);
  const own: Record<PropertyKey, unknown> = {
    call: (...args: unknown[]) => sf.call(layer, args, true),
    forward: (...args: unknown[]) => sf.call(layer, args, false),
    explain: () => sf.explain(),
    static_function: sf,
  };
  // Everything else is the original layer's (methods bound to it, so train()/eval() and
  // parameter updates act on the real layer).
  return new Proxy(layer, {
    get(t, k) {
      if (k === 'stats') return sf.stats;
      if (k === 'translateCount') return sf.stats.translateCount;
      if (Object.prototype.hasOwnProperty.call(own, k)) return own[k];
      const v = Reflect.get(t, k, t);
      return typeof v === 'function' ? v.bind(t) : v;
    },
  }) as StaticLayer<L>;
}
