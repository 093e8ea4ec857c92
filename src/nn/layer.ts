// paddle.nn.Layer for TypeScript. Parameters and sublayers are ordinary fields
// (`this.fc = new Linear(4, 2)`, `this.weight = this.create_parameter(...)`): they are found by
// walking the object's own fields in definition order, so names match Paddle's
// (`fc.weight`, `0.bias`) without a registration call. Buffers are registered explicitly, as in
// Paddle, because a plain tensor field is just state.
import { no_grad } from '../autograd/index.js';
import { set_item } from '../ops/setitem.js';
import { callOp } from '../ops/api.js';
import { getOp } from '../ops/registry.js';
import type { DType } from '../tensor/dtype.js';
import { persist, scope, Tensor } from '../tensor/tensor.js';
import { Constant, type Initializer, XavierUniform } from './initializer.js';

/** Tensors made by create_parameter (a WeakSet: the tensor class stays as it is). */
const parameters = new WeakSet<Tensor>();
export const isParameter = (v: unknown): v is Tensor => v instanceof Tensor && parameters.has(v);

/** paddle.ParamAttr: name, initializer, learning rate and trainability of one parameter. */
export class ParamAttr {
  readonly name: string | null;
  readonly initializer: Initializer | null;
  readonly learning_rate: number;
  readonly trainable: boolean;
  constructor(opts: { name?: string | null; initializer?: Initializer | null; learning_rate?: number; trainable?: boolean } = {}) {
    this.name = opts.name ?? null;
    this.initializer = opts.initializer ?? null;
    this.learning_rate = opts.learning_rate ?? 1;
    this.trainable = opts.trainable ?? true;
  }
  /** null/undefined → defaults; false → no parameter; a string → its name; an Initializer → it. */
  static from(attr: ParamAttrLike): ParamAttr | false {
    if (attr === false) return false;
    if (attr === null || attr === undefined) return new ParamAttr();
    if (attr instanceof ParamAttr) return attr;
    if (typeof attr === 'string') return new ParamAttr({ name: attr });
    if (attr instanceof Object && 'make' in attr) return new ParamAttr({ initializer: attr as Initializer });
    return new ParamAttr(attr as ConstructorParameters<typeof ParamAttr>[0]);
  }
}
export type ParamAttrLike = ParamAttr | Initializer | string | false | null | undefined | ConstructorParameters<typeof ParamAttr>[0];

const uniqueCounters = new Map<string, number>();
/** Paddle's unique_name.generate: 'linear_0', 'linear_1', ... */
export function uniqueName(key: string): string {
  const n = uniqueCounters.get(key) ?? 0;
  uniqueCounters.set(key, n + 1);
  return `${key}_${n}`;
}

const snake = (s: string): string => s.replace(/(?<=[a-z0-9])([A-Z])/g, '_$1').toLowerCase();

/** Makes `t` a parameter: persistable, trainable unless told otherwise, alive past any scope. */
export function makeParameter(t: Tensor, name: string, trainable = true): Tensor {
  persist(t);
  parameters.add(t);
  t.name = name;
  t.stop_gradient = !trainable;
  t.persistable = true;
  t.trainable = trainable;
  return t;
}

type Hook = (...args: any[]) => unknown;
export interface HookHandle { remove(): void }

export class Layer {
  training = true;
  protected _dtype: DType;
  private readonly _fullName: string;
  private readonly _buffers = new Map<string, { t: Tensor | null; persistable: boolean }>();
  private readonly _preHooks = new Map<number, Hook>();
  private readonly _postHooks = new Map<number, Hook>();
  private _hookId = 0;
  private readonly _paramCounters = { w: 0, b: 0 };

  constructor(name_scope: string | null = null, dtype: DType = 'float32') {
    this._dtype = dtype;
    this._fullName = uniqueName(name_scope ?? snake(new.target.name));
  }

  /** The layer's computation; subclasses implement it. */
  forward(..._inputs: any[]): any {
    throw new Error(`${this.constructor.name}.forward is not implemented`);
  }

  /** Runs forward with the pre/post hooks, as Python's `layer(x)`. */
  call(...inputs: any[]): any {
    for (const h of this._preHooks.values()) {
      const r = h(this, inputs);
      if (r !== undefined && r !== null) inputs = Array.isArray(r) ? r : [r];
    }
    let out = this.forward(...inputs);
    for (const h of this._postHooks.values()) {
      const r = h(this, inputs, out);
      if (r !== undefined && r !== null) out = r;
    }
    return out;
  }

  full_name(): string { return this._fullName; }

  // ---- parameters -------------------------------------------------------------------------
  /** A parameter of `shape`: attr's initializer, else default_initializer, else Paddle's defaults (Xavier-uniform weights, zero biases). */
  create_parameter(shape: readonly number[], attr: ParamAttrLike = null, dtype: DType | null = null, is_bias = false, default_initializer: Initializer | null = null): Tensor | null {
    const a = ParamAttr.from(attr);
    const key = is_bias ? 'b' : 'w';
    const n = this._paramCounters[key]++;
    if (a === false) return null;
    const init = a.initializer ?? default_initializer ?? (is_bias ? new Constant(0) : new XavierUniform());
    const dt = dtype ?? this._dtype;
    for (const d of shape) if (!Number.isInteger(d) || d < 0) throw new RangeError(`create_parameter: shape [${shape.join(', ')}] must hold non-negative integers`);
    const t = scope(() => {
      const v = init.make(shape, dt);
      return v.dtype === dt ? v : (callOp(getOp('cast'), [v, { dtype: dt }]) as Tensor);
    });
    return makeParameter(t, a.name ?? `${this._fullName}.${key}_${n}`, a.trainable);
  }

  /** Adds `p` under `name` (also as a field). */
  add_parameter(name: string, p: Tensor | null): Tensor | null {
    if (p !== null && !parameters.has(p)) makeParameter(p, p.name);
    (this as any)[name] = p;
    return p;
  }

  add_sublayer<L extends Layer>(name: string, layer: L): L {
    (this as any)[name] = layer;
    return layer;
  }

  /** A buffer: state saved in state_dict when persistable (batch-norm statistics). */
  register_buffer(name: string, t: Tensor | null, persistable = true): void {
    if (t !== null) persist(t);
    this._buffers.set(name, { t, persistable });
    (this as any)[name] = t;
  }

  /** Direct children as [name, layer]; containers override (LayerList names them 0, 1, ...). */
  named_children(): [string, Layer][] {
    const out: [string, Layer][] = [];
    for (const [k, v] of Object.entries(this)) if (v instanceof Layer) out.push([k, v]);
    return out;
  }

  /** Own parameters as [name, tensor] (not those of sublayers). */
  protected ownParameters(): [string, Tensor][] {
    const out: [string, Tensor][] = [];
    for (const [k, v] of Object.entries(this)) if (isParameter(v) && !v.isDisposed) out.push([k, v]);
    return out;
  }

  children(): Layer[] { return this.named_children().map(([, l]) => l); }

  named_sublayers(prefix = '', include_self = false): [string, Layer][] {
    const out: [string, Layer][] = include_self ? [[prefix, this]] : [];
    const seen = new Set<Layer>([this]);
    const walk = (l: Layer, p: string) => {
      for (const [k, c] of l.named_children()) {
        if (seen.has(c)) continue;
        seen.add(c);
        const name = p ? `${p}.${k}` : k;
        out.push([name, c]);
        walk(c, name);
      }
    };
    walk(this, prefix);
    return out;
  }

  sublayers(include_self = false): Layer[] { return this.named_sublayers('', include_self).map(([, l]) => l); }

  named_parameters(prefix = '', include_sublayers = true): [string, Tensor][] {
    const out: [string, Tensor][] = [];
    const seen = new Set<Tensor>();
    const layers: [string, Layer][] = include_sublayers ? this.named_sublayers(prefix, true) : [[prefix, this]];
    for (const [lp, l] of layers) {
      for (const [k, p] of l.ownParameters()) {
        if (seen.has(p)) continue;   // shared parameters are listed once, under their first name
        seen.add(p);
        out.push([lp ? `${lp}.${k}` : k, p]);
      }
    }
    return out;
  }

  parameters(include_sublayers = true): Tensor[] { return this.named_parameters('', include_sublayers).map(([, p]) => p); }

  named_buffers(prefix = '', include_sublayers = true): [string, Tensor][] {
    const out: [string, Tensor][] = [];
    const layers: [string, Layer][] = include_sublayers ? this.named_sublayers(prefix, true) : [[prefix, this]];
    for (const [lp, l] of layers) for (const [k, b] of l._buffers) if (b.t) out.push([lp ? `${lp}.${k}` : k, b.t]);
    return out;
  }

  buffers(include_sublayers = true): Tensor[] { return this.named_buffers('', include_sublayers).map(([, b]) => b); }

  /** Parameters and persistable buffers by structured name. */
  state_dict(): Record<string, Tensor> {
    const out: Record<string, Tensor> = {};
    for (const [n, p] of this.named_parameters()) out[n] = p;
    for (const [lp, l] of this.named_sublayers('', true)) {
      for (const [k, b] of l._buffers) if (b.t && b.persistable) out[lp ? `${lp}.${k}` : k] = b.t;
    }
    return out;
  }

  /**
   * Copies values into the existing parameters and buffers (they keep their identity, so
   * optimizers and captured graphs holding them see the new values). Returns the keys of this
   * layer's state that `state` lacks and the keys of `state` this layer does not have.
   */
  set_state_dict(state: Record<string, Tensor | unknown>, use_structured_name = true): { missing_keys: string[]; unexpected_keys: string[] } {
    if (!use_structured_name) throw new Error('set_state_dict: only structured names are supported');
    const mine = this.state_dict();
    const missing: string[] = [];
    for (const [k, t] of Object.entries(mine)) {
      if (!(k in state)) { missing.push(k); continue; }
      const v = state[k];
      const shape = v instanceof Tensor ? v.shape : null;
      if (shape && (shape.length !== t.shape.length || shape.some((d, i) => d !== t.shape[i])))
        throw new RangeError(`set_state_dict: '${k}' has shape [${shape.join(', ')}], the layer's is [${t.shape.join(', ')}]`);
      no_grad(() => set_item(t, '...', v as Tensor));   // a parameter update, not a recorded op
    }
    return { missing_keys: missing, unexpected_keys: Object.keys(state).filter((k) => !(k in mine)) };
  }

  set_dict(state: Record<string, Tensor>): ReturnType<Layer['set_state_dict']> { return this.set_state_dict(state); }
  load_dict(state: Record<string, Tensor>): ReturnType<Layer['set_state_dict']> { return this.set_state_dict(state); }

  // ---- modes, hooks, traversal ------------------------------------------------------------
  train(): this { for (const l of this.sublayers(true)) l.training = true; return this; }
  eval(): this { for (const l of this.sublayers(true)) l.training = false; return this; }

  apply(fn: (l: Layer) => void): this {
    for (const l of this.children()) l.apply(fn);
    fn(this);
    return this;
  }

  register_forward_pre_hook(hook: (layer: Layer, inputs: any[]) => unknown): HookHandle { return this.addHook(this._preHooks, hook); }
  register_forward_post_hook(hook: (layer: Layer, inputs: any[], output: any) => unknown): HookHandle { return this.addHook(this._postHooks, hook); }

  private addHook(m: Map<number, Hook>, hook: Hook): HookHandle {
    const id = this._hookId++;
    m.set(id, hook);
    return { remove: () => { m.delete(id); } };
  }

  /** Sets every gradient of this layer's parameters to null. */
  clear_gradients(): void { for (const p of this.parameters()) { p.grad?.dispose?.(); p.grad = null; } }

  extra_repr(): string { return ''; }

  /** Paddle's layer repr: `Linear(in_features=4, out_features=2, dtype=float32)`, children indented. */
  toString(): string {
    const kids = this.named_children();
    const extra = this.extra_repr();
    if (!kids.length) return `${this.constructor.name}(${extra})`;
    const lines = kids.map(([k, l]) => `  (${k}): ${String(l).split('\n').join('\n  ')}`);
    return `${this.constructor.name}(${extra ? `${extra}\n` : '\n'}${lines.join('\n')}\n)`;
  }
}
