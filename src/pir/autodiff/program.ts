// Program-level autodiff: the joint forward+backward program (gradient ops appended to the
// forward block) and the separate backward program (its own feeds: the forward values the
// gradient ops read, and the targets' output gradients).
import { Builder } from '../builder.js';
import { type Operation, Program, type Value } from '../core.js';
import { type GradOptions, gradients } from './backward.js';

/**
 * Appends the gradient ops of `targets` w.r.t. `inputs` to the program's block and returns the
 * gradients (null: no dependence). The program then computes forward and backward in one run.
 */
export function appendBackward(program: Program, targets: readonly Value[], inputs: readonly Value[], opts: GradOptions = {}): (Value | null)[] {
  return gradients(program.block, targets, inputs, opts);
}

/** A forward value the backward program reads, fed as `pd_op.data` named `name`. */
export interface BackwardFeed { readonly name: string; readonly forward: Value }

export interface BackwardProgram {
  readonly program: Program;
  /** Forward values to feed (run the forward program and fetch these). */
  readonly forwardFeeds: readonly BackwardFeed[];
  /** The targets' gradients, fed as data `target_<i>@GRAD`, in target order. */
  readonly gradFeeds: readonly string[];
  /** Fetch names of the input gradients (`grad_<i>`), null where an input gets none. */
  readonly fetches: readonly (string | null)[];
}

/**
 * Builds the backward as a program of its own. Parameters and constants the gradient ops read
 * stay parameters and constants (same names, so the same scope serves both programs); every
 * other forward value becomes a feed `fwd_<k>`. The forward program is not changed.
 * @example
 *   const bw = backwardProgram(fwd, [loss], [w]);
 *   // run fwd fetching bw.forwardFeeds' values, then bw.program with them and ones for target_0@GRAD
 */
export function backwardProgram(forward: Program, targets: readonly Value[], inputs: readonly Value[], opts: Omit<GradOptions, 'builder' | 'targetGrads'> = {}): BackwardProgram {
  const mapping = new Map<Value, Value>();
  const joint = new Program(forward.module.clone(mapping));
  const inverse = new Map<Value, Value>();
  for (const [a, b] of mapping) inverse.set(b, a);
  const m = (v: Value): Value => {
    const r = mapping.get(v);
    if (!r) throw new Error('backwardProgram: targets and inputs must be values of the forward program');
    return r;
  };
  const b = new Builder(joint);
  const first = joint.block.ops.length;
  const gradFeeds = targets.map((_, i) => `target_${i}@GRAD`);
  const seeds = targets.map((t, i) => b.data(gradFeeds[i], t.shape, t.dtype));
  const noGrad = opts.noGrad ? new Set([...opts.noGrad].map(m)) : undefined;
  const grads = gradients(joint.block, targets.map(m), inputs.map(m), { ...opts, noGrad, builder: b, targetGrads: seeds });
  const bwOps = joint.block.ops.slice(first);

  // Move the backward ops into a program of their own; forward values they read become feeds.
  const out = new Program();
  const ob = new Builder(out);
  const local = new Map<Value, Value>();
  const forwardFeeds: BackwardFeed[] = [];
  const fwdSet = new Set<Operation>(joint.block.ops.slice(0, first));
  const bring = (v: Value): void => {
    if (local.has(v)) return;
    const def = v.definingOp;
    if (!def || !fwdSet.has(def)) return;
    if (def.name === 'builtin.parameter' || def.name === 'builtin.constant') {
      local.set(v, insertClone(out, def, local));
      return;
    }
    const name = `fwd_${forwardFeeds.length}`;
    forwardFeeds.push({ name, forward: inverse.get(v)! });
    local.set(v, ob.data(name, v.shape, v.dtype));
  };
  for (const op of bwOps) op.walk((o) => { for (const v of o.operandValues()) if (v) bring(v); });
  for (const op of bwOps) out.block.append(op.clone(local));
  const fetches = grads.map((g, i) => {
    if (!g) return null;
    ob.fetch(local.get(g) ?? g, `grad_${i}`);
    return `grad_${i}`;
  });
  return { program: out, forwardFeeds, gradFeeds, fetches };
}

/** Clones a result-producing leaf op (parameter, constant) to the start of `out`; returns its value. */
function insertClone(out: Program, op: Operation, local: Map<Value, Value>): Value {
  const c = op.clone(new Map(local));
  out.block.insertBefore(c, out.block.ops[0] ?? null);
  return c.result(0);
}
