// The public autograd surface: Tensor.backward / register_hook / retain_grads / detach /
// clear_grad, and paddle.grad. Tensor members are attached to the prototype here so
// src/tensor stays free of autograd (the tape lives on Tensor only as _gradNode/_accNode).
import { native } from '../native.js';
import { Tensor } from '../tensor/tensor.js';
import { runBackward } from './engine.js';
import { AccumulateNode, edgeOf, GradNode, type Hook } from './node.js';

const list = <T>(v: T | readonly T[] | null | undefined): T[] => (v === null || v === undefined ? [] : Array.isArray(v) ? [...v] : [v as T]);

/**
 * Tensor.backward(grad_tensor=None, retain_graph=False): accumulates d(this)/d(leaf) into the
 * .grad of every leaf with stop_gradient=False. grad_tensor defaults to ones (any shape).
 */
export function backward(t: Tensor, grad_tensor: Tensor | null = null, retain_graph = false): void {
  runBackward([t], [grad_tensor], { retainGraph: Boolean(retain_graph), createGraph: false });
}

/**
 * paddle.autograd.backward(tensors, grad_tensors=None, retain_graph=False): one backward pass
 * from several roots (gradients summed into the leaves' .grad).
 */
export function backwardAll(tensors: Tensor | Tensor[], grad_tensors: Tensor | (Tensor | null)[] | null = null, retain_graph = false): void {
  const ts = list(tensors), gs = list(grad_tensors);
  if (gs.length && gs.length !== ts.length) throw new Error(`paddle.autograd.backward: grad_tensors has ${gs.length} entries for ${ts.length} tensors`);
  runBackward(ts, ts.map((_, i) => gs[i] ?? null), { retainGraph: Boolean(retain_graph), createGraph: false });
}

export interface GradOptions {
  grad_outputs?: Tensor | (Tensor | null)[] | null;
  retain_graph?: boolean | null;
  create_graph?: boolean;
  only_inputs?: boolean;
  allow_unused?: boolean;
  no_grad_vars?: unknown;
}

/**
 * paddle.grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
 * only_inputs=True, allow_unused=False): gradients of outputs w.r.t. inputs, without touching .grad.
 * retain_graph defaults to create_graph. With create_graph the result is differentiable again.
 * @example const [dx] = paddle.grad(y, x, { create_graph: true }); const [ddx] = paddle.grad(dx, x);
 */
export function grad(outputs: Tensor | Tensor[], inputs: Tensor | Tensor[], ...rest: unknown[]): (Tensor | null)[] {
  const opts = parseGradArgs(rest);
  const outs = list(outputs), ins = list(inputs);
  const gos = list(opts.grad_outputs ?? null);
  if (gos.length && gos.length !== outs.length) throw new Error(`paddle.grad: grad_outputs has ${gos.length} entries for ${outs.length} outputs`);
  if (opts.only_inputs === false) throw new Error('paddle.grad: only_inputs=False is not supported (Paddle 2.6 ignores it too)');
  const create = Boolean(opts.create_graph);
  const retain = opts.retain_graph === null || opts.retain_graph === undefined ? create : Boolean(opts.retain_graph);
  const res = runBackward(outs, outs.map((_, i) => gos[i] ?? null), { retainGraph: retain, createGraph: create }, ins);
  res.forEach((g, i) => {
    if (!g && !opts.allow_unused) throw new Error(`paddle.grad: The ${i}-th input does not appear in the backward graph. Please check the input tensor or set allow_unused=True to get None result.`);
  });
  return res;
}

const GRAD_PARAMS = ['grad_outputs', 'retain_graph', 'create_graph', 'only_inputs', 'allow_unused', 'no_grad_vars'] as const;
function parseGradArgs(rest: unknown[]): GradOptions {
  const out: Record<string, unknown> = {};
  let pos = rest;
  const last = rest[rest.length - 1];
  if (last && typeof last === 'object' && !(last instanceof Tensor) && !Array.isArray(last)) { pos = rest.slice(0, -1); Object.assign(out, last); }
  pos.forEach((v, i) => { out[GRAD_PARAMS[i]] = v; });
  return out as GradOptions;
}

/**
 * A handle whose remove() unregisters the hook (Paddle's TensorHookRemoveHelper).
 * Hooks run inside backward's scope: the gradient they see, and tensors they make, are disposed
 * when backward ends (a returned replacement is used first); clone what must outlive it.
 */
export interface HookHandle { remove(): boolean }

function registerHook(t: Tensor, hook: Hook): HookHandle {
  if (t.stop_gradient) throw new Error(`register_hook: cannot register a hook on a tensor that does not require gradient (${t.name} has stop_gradient=True)`);
  const e = edgeOf(t)!;
  let remove: () => void;
  if (e.node instanceof AccumulateNode) {
    const hooks = e.node.hooks;
    hooks.push(hook);
    remove = () => { const k = hooks.indexOf(hook); if (k >= 0) hooks.splice(k, 1); };
  } else remove = e.node.addHook(e.index, hook);
  let live = true;
  return { remove: () => { if (!live) return false; live = false; remove(); return true; } };
}

/** Non-leaf tensors keep their gradient in .grad after backward (leaves always do). */
function retainGrads(t: Tensor): void {
  const e = t._gradNode as { node: GradNode; index: number } | null;
  if (!e || t.stop_gradient) return;
  const n = e.node;
  n.retained ??= new Array<WeakRef<Tensor> | null>(n.nOut).fill(null);
  n.retained[e.index] = new WeakRef(t);
}

/** Installs the members on Tensor.prototype (hand-written members beat generated op methods). */
export function installTensorAutograd(): void {
  const P = Tensor.prototype as unknown as Record<string, unknown>;
  const def = (name: string, value: unknown) => Object.defineProperty(Tensor.prototype, name, { value, writable: true, configurable: true });
  def('backward', function (this: Tensor, grad_tensor: Tensor | null = null, retain_graph = false) { backward(this, grad_tensor, retain_graph); });
  def('register_hook', function (this: Tensor, hook: Hook) { return registerHook(this, hook); });
  def('retain_grads', function (this: Tensor) { retainGrads(this); });
  /** A tensor sharing this one's storage, cut from the graph (stop_gradient=True). */
  def('detach', function (this: Tensor) {
    const t = this._alias('detach');
    t._base = this._base ?? this;
    return t;
  });
  /** Paddle 2.6: clear_grad(set_to_zero=True) zeroes .grad in place; set_to_zero=False drops it. */
  const clear = function (this: Tensor, set_to_zero = true) {
    const g = this.grad;
    if (!g) return;
    if (set_to_zero && !g.isDisposed && g.is_contiguous) {
      native.run(native.kernelId('full'), [], [g.h('clear_grad')], [0]);
      g._version++;
    } else this.grad = null;
  };
  def('clear_grad', clear);
  def('clear_gradient', clear);
  if (!('is_leaf' in P)) Object.defineProperty(Tensor.prototype, 'is_leaf', { get(this: Tensor) { return this.stop_gradient || !this._gradNode; }, configurable: true });
}
