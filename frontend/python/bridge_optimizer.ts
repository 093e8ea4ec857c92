// The bridge's optimizer calls (compat/paddle/optimizer binds them once). A Python optimizer is
// a thin handle on a TS optimizer (src/optimizer): the update math exists once. Python owns the
// learning-rate schedule (users subclass LRScheduler in Python) and passes the rate to each step.
// Configuration crosses once as JSON; parameters as handles.
import { ClipGradByGlobalNorm, ClipGradByNorm, ClipGradByValue, L1Decay, L2Decay } from '../../src/optimizer/clip.js';
import type { Optimizer } from '../../src/optimizer/optimizer.js';
import { Adagrad, Adam, AdamW, Momentum, RMSProp, SGD } from '../../src/optimizer/optimizers.js';
import { Adadelta, Adamax, Lamb } from '../../src/optimizer/optimizers_more.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import type { HandleTable } from './handles.js';

type DecaySpec = number | { kind: 'l1' | 'l2'; coeff: number } | null;
type ClipSpec = { kind: 'global_norm' | 'norm'; clip_norm: number } | { kind: 'value'; max: number; min: number | null } | null;
/** extra: a group's own numeric settings (beta1, epsilon, lamb_weight_decay, ...), as Paddle's groups allow. */
interface GroupSpec { params: number[]; names?: string[]; learning_rate?: number; weight_decay?: DecaySpec; extra?: Record<string, number> }

const KINDS: Record<string, new (o: any) => Optimizer> = { SGD, Momentum, Adam, AdamW, Adagrad, RMSProp, Adadelta, Adamax, Lamb };

const decay = (d: DecaySpec | undefined) =>
  d === undefined ? undefined : d === null ? null : typeof d === 'number' ? d : d.kind === 'l1' ? new L1Decay(d.coeff) : new L2Decay(d.coeff);

function clip(c: ClipSpec) {
  if (!c) return null;
  if (c.kind === 'value') return new ClipGradByValue(c.max, c.min);
  return c.kind === 'global_norm' ? new ClipGradByGlobalNorm(c.clip_norm) : new ClipGradByNorm(c.clip_norm);
}

export function optimizerCalls(handles: HandleTable, fail: (e: unknown) => 0): Record<string, unknown> {
  const live = new Map<number, Optimizer>();
  let next = 1;
  const get = (id: number): Optimizer => {
    const o = live.get(id);
    if (!o) throw new Error(`skiff bridge: no optimizer ${id}`);
    return o;
  };
  return {
    /** kind, JSON {lr, weight_decay, grad_clip, ...kind options}, JSON [GroupSpec] → optimizer id. */
    opt_create: (kind: string, config: string, groups: string): number => {
      try {
        const C = KINDS[kind];
        if (!C) throw new Error(`paddle.optimizer.${kind} is not available`);
        const { weight_decay, grad_clip, exclude_handles, decay_names, ...rest } = JSON.parse(config) as Record<string, unknown>;
        // Python evaluates its callables once per parameter (Lamb's exclude_from_weight_decay_fn on
        // the parameter, AdamW's apply_decay_param_fun on its name) and sends the answers
        if (Array.isArray(exclude_handles)) {
          const excluded = new Set((exclude_handles as number[]).map((h) => handles.get(h)));
          rest.exclude_from_weight_decay_fn = (p: Tensor) => excluded.has(p);
        }
        if (Array.isArray(decay_names)) {
          const decayed = new Set(decay_names as string[]);
          rest.apply_decay_param_fun = (name: string) => decayed.has(name);
        }
        const gs = JSON.parse(groups) as GroupSpec[];
        // accumulators are named after the parameters' Python names (Paddle's state-dict keys)
        for (const g of gs) g.names?.forEach((n, i) => { if (n) handles.get(g.params[i]).name = n; });
        const parameters = gs.length === 1 && gs[0].learning_rate === undefined && gs[0].weight_decay === undefined && !gs[0].extra
          ? gs[0].params.map((h) => handles.get(h))
          : gs.map((g) => ({ ...(g.extra ?? {}), params: g.params.map((h) => handles.get(h)), learning_rate: g.learning_rate, weight_decay: decay(g.weight_decay) }));
        const o = new C({ ...rest, parameters, weight_decay: decay(weight_decay as DecaySpec), grad_clip: clip(grad_clip as ClipSpec) });
        live.set(next, o);
        return next++;
      } catch (e) { return fail(e); }
    },
    /** One update at learning rate `lr` (computed by Python's schedule). */
    opt_step: (id: number, lr: number): number => {
      try { const o = get(id); o.set_lr(lr); o.step(); return 1; } catch (e) { return fail(e); }
    },
    opt_clear_grad: (id: number, toZero: boolean): number => {
      try { get(id).clear_grad(Boolean(toZero)); return 1; } catch (e) { return fail(e); }
    },
    /** The accumulators as 'name\u0001handle' lines (each handle a new Python reference) plus the step count. */
    opt_state: (id: number): string | 0 => {
      try {
        const s = get(id).state_dict();
        const lines: string[] = [];
        for (const [k, v] of Object.entries(s)) {
          if (k === '@step') lines.push(`@step\u0001${v as number}`);
          // A tensor of its own on the accumulator's storage: Python dropping the dict must not
          // dispose the optimizer's live state (the handle table disposes a tensor at refcount 0).
          else if (k !== 'LR_Scheduler') lines.push(`${k}\u0001${handles.add(shareStorage(v as Tensor))}`);
        }
        return lines.join('\n');
      } catch (e) { return fail(e); }
    },
    /** Inverse of opt_state: 'name\u0001handle' lines. */
    opt_set_state: (id: number, text: string): number => {
      try {
        const state: Record<string, unknown> = {};
        for (const line of text ? text.split('\n') : []) {
          const [k, v] = line.split('\u0001');
          state[k] = k === '@step' ? Number(v) : handles.get(Number(v));
        }
        get(id).set_state_dict(state);
        return 1;
      } catch (e) { return fail(e); }
    },
    opt_free: (id: number): boolean => live.delete(id),
  };
}

function shareStorage(t: Tensor): Tensor {
  const v = t._alias('state_dict');
  v._base = t._base ?? t;
  return v;
}
