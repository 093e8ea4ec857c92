// The bridge's autograd calls (compat/paddle/autograd.py binds them once): backward, .grad,
// paddle.grad, grad mode, hooks. Numbers and strings only; lists of handles travel as
// 'h1,h2' strings with 0 for None. Python hooks run through one dispatcher function Python
// registers at import (the only PyProxy kept, for the life of the process).
import { grad as paddleGrad, isGradEnabled, recordPyLayer, setGradEnabled } from '../../src/autograd/index.js';
import { runOp } from '../../src/ops/dispatch.js';
import { Tensor, untracked } from '../../src/tensor/tensor.js';
import type { HandleTable } from './handles.js';

/** Python's hook dispatcher: (hook id, grad handle) -> replacement handle (held once for JS), 0 for None, 0.5 if it raised. */
type Dispatcher = ((id: number, h: number) => number) & { destroy?: () => void };
/**
 * Python's PyLayer dispatcher: (0, id, 'g1,0,g3') runs layer id's backward and returns 'h1,0' (handles
 * held once for JS; '-' for no gradients, 'E' if it raised); (1, id, '') drops layer id's ctx.
 */
type PyLayerDispatcher = ((kind: number, id: number, payload: string) => string) & { destroy?: () => void };

const parseHandles = (s: string): number[] => (s === '' ? [] : s.split(',').map(Number));

/**
 * Backward of a PyLayer captured by to_static (layer `cid`, registered by the translator's
 * SKIFF_PYLAYER_CAPTURE step): Python builds its ctx from `saved` and the attributes forward set,
 * and calls the class's backward on `grads`; both are handed over (Python's wrappers own them:
 * pass tensors of their own). Results are copies the caller owns (null for None). Set once
 * Python installs its PyLayer dispatcher.
 */
export let capturedPyLayerBackward: ((cid: number, name: string, saved: readonly Tensor[], grads: readonly Tensor[]) => (Tensor | null)[]) | null = null;

export function autogradCalls(handles: HandleTable, fail: (e: unknown) => 0): Record<string, unknown> {
  let dispatcher: Dispatcher | null = null;
  let pyLayers: PyLayerDispatcher | null = null;
  const get = (h: number) => handles.get(h);
  /** A view on g's storage for Python: the engine may dispose g itself once the hook returns. */
  const share = (g: Tensor): number => handles.add(untracked(() => g._alias('hook')));

  return {
    /** Tensor.backward(grad_tensor, retain_graph): gh 0 means None. */
    ag_backward: (h: number, gh: number, retain: boolean): number => {
      try { get(h).backward(gh ? get(gh) : null, Boolean(retain)); return 1; } catch (e) { return fail(e); }
    },
    /**
     * .grad: a handle on a view of the gradient, or 'none'. A view, because Python freeing its
     * wrapper must not dispose the leaf's own .grad; it shares storage, so later in-place
     * accumulation shows through it as in Paddle.
     */
    ag_grad_of: (h: number): number | string => {
      try { const g = get(h).grad as Tensor | null; return g && !g.isDisposed ? share(g) : 'none'; } catch (e) { return fail(e); }
    },
    /** x.grad = None (or a tensor): Paddle allows assigning; gh 0 clears. */
    ag_set_grad: (h: number, gh: number): number => {
      try { get(h).grad = gh ? get(gh) : null; return 1; } catch (e) { return fail(e); }
    },
    ag_clear_grad: (h: number, toZero: boolean): number => {
      try { get(h).clear_grad(Boolean(toZero)); return 1; } catch (e) { return fail(e); }
    },
    ag_retain_grads: (h: number): number => {
      try { get(h).retain_grads(); return 1; } catch (e) { return fail(e); }
    },
    ag_is_leaf: (h: number): number => {
      try { return get(h).is_leaf ? 1 : 2; } catch (e) { return fail(e); }
    },
    /** paddle.grad: outs/ins/gouts as 'h1,h2' (0: None); retain -1 for None. Returns 'h1,h2' with 0 for None. */
    ag_grad: (outs: string, ins: string, gouts: string, retain: number, create: boolean, allowUnused: boolean): string | 0 => {
      try {
        const go = parseHandles(gouts).map((h) => (h ? get(h) : null));
        const res = untracked(() => paddleGrad(parseHandles(outs).map(get), parseHandles(ins).map(get), {
          grad_outputs: go.length ? go : null, retain_graph: retain < 0 ? null : Boolean(retain),
          create_graph: Boolean(create), allow_unused: Boolean(allowUnused),
        }));
        return res.map((g) => (g ? handles.add(g) : 0)).join(',');
      } catch (e) { return fail(e); }
    },
    /** Sets grad mode; returns the previous mode as 1/2 (0 is the error value). */
    ag_set_enabled: (on: boolean): number => (setGradEnabled(Boolean(on)) ? 1 : 2),
    ag_is_enabled: (): boolean => isGradEnabled(),
    ag_set_dispatcher: (fn: Dispatcher): number => { dispatcher?.destroy?.(); dispatcher = fn; return 1; },
    /** Registers Python hook `id` on h; the remove id is the same number. */
    ag_register_hook: (h: number, id: number): number | string => {
      try {
        const handle = get(h).register_hook((g: Tensor) => {
          if (!dispatcher) throw new Error('register_hook: the Python hook dispatcher is not installed');
          const r = dispatcher(id, share(g));
          if (r === 0 || r === undefined || r === null) return null;
          if (r === 0.5) throw new Error('register_hook: the Python hook raised (see the Python traceback)');
          // The dispatcher held one extra reference for us: read the tensor, then drop it.
          const t = get(r);
          // Made in the backward pass's scope, which disposes it when the pass ends.
          const mine = t._alias('hook');
          handles.release(r);
          return mine;
        });
        hooks.set(id, handle);
        return id;
      } catch (e) { return fail(e); }
    },
    ag_remove_hook: (id: number): boolean => { const hk = hooks.get(id); hooks.delete(id); return hk ? hk.remove() : false; },
    ag_set_pylayer_dispatcher: (fn: PyLayerDispatcher): number => {
      pyLayers?.destroy?.();
      pyLayers = fn;
      capturedPyLayerBackward = (cid, name, saved, grads) => {
        // (2, cid, 'nSaved;h1,h2,...'): saved tensors then gradients, handed over to Python
        const r = fn(2, cid, `${saved.length};${[...saved, ...grads].map((t) => handles.add(t)).join(',')}`);
        if (r === 'E') throw new Error(`${name}: backward raised (see the Python traceback)`);
        if (r === '-') return [];
        const hs = parseHandles(r);
        try {
          // copies: the executor takes over what a host call returns
          return hs.map((h) => (h ? untracked(() => runOp('scale', [get(h)], { scale: 1, bias: 0, bias_after_scale: true })[0] as Tensor) : null));
        } finally {
          for (const h of hs) if (h) handles.release(h);
        }
      };
      return 1;
    },
    /**
     * PyLayer.apply's node (src/autograd/pylayer.ts): ins/outs/nondiff as 'h1,h2'. Backward calls
     * Python layer `id` through the PyLayer dispatcher; gradients cross as views, results come
     * back held once and are released when the engine has taken them over.
     */
    ag_pylayer: (id: number, name: string, ins: string, outs: string, nondiff: string, materialize: boolean): number => {
      try {
        const held: number[] = [];
        recordPyLayer({
          name, inputs: parseHandles(ins).map(get), outputs: parseHandles(outs).map(get),
          nonDifferentiable: new Set(parseHandles(nondiff).map(get)), materialize: Boolean(materialize),
          backward: (grads) => {
            if (!pyLayers) throw new Error(`${name}: the Python PyLayer dispatcher is not installed`);
            const r = pyLayers(0, id, grads.map((g) => (g ? share(g) : 0)).join(','));
            if (r === 'E') throw new Error(`${name}: backward raised (see the Python traceback)`);
            if (r === '-') return [];
            const hs = parseHandles(r);
            held.push(...hs.filter((h) => h !== 0));
            return hs.map((h) => (h ? get(h) : null));
          },
          afterBackward: () => { for (const h of held.splice(0)) handles.release(h); },
          release: () => { pyLayers?.(1, id, ''); },
        });
        return 1;
      } catch (e) { return fail(e); }
    },
    /** One more Python-side reference on h (the hook dispatcher returns a tensor JS will read). */
    ag_hold: (h: number): number => { try { return handles.add(get(h)); } catch (e) { return fail(e); } },
  };
}

const hooks = new Map<number, { remove(): boolean }>();
