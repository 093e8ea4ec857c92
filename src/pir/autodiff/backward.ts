// Reverse-mode differentiation of a PIR block. The same gradient rules the eager tape runs
// (OpDef.grad) are called with program Values in place of Tensors; their public-op calls go
// through the op dispatcher with a ProgramRecorder installed, so each becomes a pd op appended at
// the builder's insertion point. Because the emitted ops are ordinary pd ops with rules of their
// own, a program that already holds backward ops can be differentiated again (higher order).
//
// Which ops get gradient ops: a value needs a gradient when it is forward-reachable from an input
// (through floating results of ops that are not shape-only) and not cut by `noGrad`, and an op is
// differentiated only if one of its results received a gradient from the targets. Gradients of a
// value used several times are summed with `add` when its producer consumes them.
import { runOp, setStaticRecorder, type TensorLike } from '../../ops/dispatch.js';
import type { GradOps } from '../../ops/grad_kit.js';
import type { GradContext } from '../../ops/types.js';
import { isFloating } from '../../tensor/dtype.js';
import { shapeStr } from '../../tensor/shape.js';
import { Builder } from '../builder.js';
import type { Block, Operation, Value } from '../core.js';
import { capturedValues } from '../dialects/control_flow.js';
import { flatInputs, hasListOutput, pdAttrs } from '../dialects/pd_op.js';
import { ProgramRecorder } from '../recorder.js';
import { rewriteSymbolic, ShapeRefs } from './symbolic.js';

/** Ops that read only their input's shape/dtype: their outputs never carry gradients (as eager). */
export const SHAPE_ONLY = new Set(['zeros_like', 'ones_like', 'full_like', 'empty_like', 'shape', 'numel', 'rand_like', 'randn_like', 'randint_like']);

/**
 * A custom reverse rule for an op that is not a plain pd op (control flow). It gets the op, the
 * summed gradient of each result (null: none reached it), which operands want gradients, and the
 * emitter; it returns one gradient per operand (null for none).
 */
export type VjpRule = (op: Operation, outGrads: readonly (Value | null)[], needsGrad: readonly boolean[], em: GradEmitter) => (Value | null)[];
const customRules = new Map<string, VjpRule>();
/** Registers the reverse rule of a non-registry op (pd_op.if, pd_op.while). */
export function registerVjp(name: string, rule: VjpRule): void { customRules.set(name, rule); }
export const hasCustomVjp = (name: string): boolean => customRules.has(name);

export interface GradOptions {
  /** The gradient each target starts from; null or absent: ones of the target's shape. */
  readonly targetGrads?: readonly (Value | null)[];
  /** Values that get no gradient and pass none on (Paddle's no_grad_set). */
  readonly noGrad?: ReadonlySet<Value>;
  /** Where the gradient ops go; default: the end of the targets' block. */
  readonly builder?: Builder;
  /** Called for every summed gradient made for a forward value (naming, tests). */
  readonly onGrad?: (forward: Value, grad: Value) => void;
  /**
   * Treat the inputs as independent leaves: ops that define an input are not differentiated, so
   * no gradient flows from an input back into what computed it (partial derivatives; the while
   * loop's reverse body needs them). Default false: total derivatives, as paddle.grad.
   */
  readonly inputsAreLeaves?: boolean;
}

/** Emits ops at one insertion point through the op dispatcher (public-op calls become pd ops). */
export class GradEmitter {
  readonly recorder: ProgramRecorder;
  constructor(readonly builder: Builder) {
    this.recorder = new ProgramRecorder(builder, (t: TensorLike) => {
      throw new TypeError(`program autodiff: a gradient rule used an eager tensor of shape ${shapeStr(t.shape)}; rules must build values with ops`);
    });
  }
  /** Runs fn with this emitter's recorder installed: every op call records here. */
  record<R>(fn: () => R): R {
    const prev = setStaticRecorder(this.recorder);
    try {
      return fn();
    } finally {
      setStaticRecorder(prev);
    }
  }
  private refs: ShapeRefs | null = null;
  get insertionBlock(): Block { return this.builder.insertionBlock; }
  /** Set while a rule of an op with symbolic shapes runs: sizes it computes from symbols are NaN. */
  symbolicOp: string | null = null;
  run(name: string, ins: readonly (Value | null)[], attrs: Readonly<Record<string, unknown>> = {}): Value[] {
    if (this.symbolicOp) {
      // Arithmetic on a symbolic dim gives NaN in JavaScript: refuse rather than emit a wrong constant.
      for (const [k, v] of Object.entries(attrs)) {
        if ((typeof v === 'number' && Number.isNaN(v)) || (Array.isArray(v) && v.some((d) => typeof d === 'number' && Number.isNaN(d))))
          throw new TypeError(`${name}: attribute '${k}' was computed from symbolic dims (NaN); this rule needs static shapes`);
      }
    }
    // Shape attributes with symbols (a None batch dim) are rewritten into concrete ones.
    const refs = (this.refs ??= new ShapeRefs(this.builder.insertionBlock));
    const sym = rewriteSymbolic(this, refs, name, ins, attrs);
    if (sym) return sym;
    const out = this.record(() => runOp(name, ins, attrs) as Value[]);
    for (const v of out) refs.note(v);
    return out;
  }
  /** The GradOps a rule is called with. */
  readonly ops: GradOps<Value> = {
    run: (name, ins, attrs) => this.run(name, ins, attrs ?? {}),
    meta: (v) => v,
  };
}

/** The results a pd op's rule sees: its tensor results, or the elements of a list output (from its builtin.split users). */
function ruleOutputs(op: Operation): { outs: (Value | null)[]; groups: Value[][] } {
  const def = op.def;
  if (def && hasListOutput(def)) {
    const vt = op.result(0).type;
    const n = vt.kind === 'vector' ? vt.elements.length : 0;
    const groups: Value[][] = Array.from({ length: n }, () => []);
    for (const u of op.result(0).users) if (u.name === 'builtin.split') u.results.forEach((r, i) => groups[i]?.push(r));
    return { outs: groups.map((g) => g[0] ?? null), groups };
  }
  return { outs: [...op.results], groups: op.results.map((r) => [r]) };
}

/**
 * What an op consumes, as its rule numbers inputs: flattened pd inputs; for ops with regions
 * (control flow) the operands and then the outer values the regions capture.
 */
const ruleInputs = (op: Operation): (Value | null)[] =>
  op.def ? flatInputs(op) : op.regions.length ? [...op.operandValues(), ...capturedValues(op)] : op.operandValues();

const isLeafOp = (op: Operation): boolean =>
  ['pd_op.data', 'builtin.parameter', 'builtin.constant', 'pd_op.fetch', 'builtin.set_parameter', 'builtin.combine', 'builtin.split', 'builtin.yield'].includes(op.name);

const isStaticOp = (op: Operation): boolean =>
  [...op.operandValues(), ...op.results].every((v) => !v || v.type.kind !== 'tensor' || v.type.isStatic);

const differentiable = (v: Value): boolean => v.type.kind === 'tensor' && isFloating(v.type.dtype);

/**
 * Gradients of `targets` with respect to `inputs`, emitted as ops (see the file comment). Returns
 * one value per input, or null when no target depends on it differentiably.
 * @example
 *   const [gw] = gradients(program.block, [loss], [w]);   // ops appended to the block
 */
export function gradients(block: Block, targets: readonly Value[], inputs: readonly Value[], opts: GradOptions = {}): (Value | null)[] {
  const ops = [...block.ops];
  const noGrad = opts.noGrad ?? new Set<Value>();
  const em = new GradEmitter(opts.builder ?? new Builder(block));
  targets.forEach((t, i) => { if (!differentiable(t)) throw new TypeError(`gradients: target ${i} has type ${String(t.type)}; only floating tensors can be differentiated`); });

  // Forward: values that depend differentiably on an input.
  const needs = new Set<Value>();
  for (const x of inputs) if (differentiable(x) && !noGrad.has(x)) needs.add(x);
  for (const op of ops) {
    if (isLeafOp(op) || (op.def && SHAPE_ONLY.has(op.def.name))) continue;
    if (!ruleInputs(op).some((v) => v && needs.has(v))) continue;
    for (const group of ruleOutputs(op).groups) for (const r of group) if (differentiable(r) && !noGrad.has(r)) needs.add(r);
  }

  // Backward: gradients flow from the targets; contributions per value, summed when consumed.
  const contrib = new Map<Value, Value[]>();
  const give = (v: Value, g: Value): void => { const l = contrib.get(v); if (l) l.push(g); else contrib.set(v, [g]); };
  const summed = new Map<Value, Value>();
  const take = (v: Value): Value | null => {
    const hit = summed.get(v);
    if (hit) return hit;
    const l = contrib.get(v);
    if (!l?.length) return null;
    let g = l[0];
    for (let i = 1; i < l.length; i++) g = em.run('add', [g, l[i]])[0];
    summed.set(v, g);
    opts.onGrad?.(v, g);
    return g;
  };
  targets.forEach((t, i) => {
    const seed = opts.targetGrads?.[i] ?? null;
    if (seed && (seed.dtype !== t.dtype || shapeStr(seed.shape) !== shapeStr(t.shape)))
      throw new TypeError(`gradients: target_gradients[${i}] is ${String(seed.type)} but target ${i} is ${String(t.type)}`);
    if (needs.has(t)) give(t, seed ?? em.run('ones_like', [t])[0]);
  });

  const inputSet = new Set(inputs);
  for (let k = ops.length - 1; k >= 0; k--) {
    const op = ops[k];
    if (isLeafOp(op)) continue;
    if (opts.inputsAreLeaves && op.results.some((r) => inputSet.has(r))) continue;
    const { outs, groups } = ruleOutputs(op);
    if (!groups.some((g) => g.some((r) => contrib.has(r)))) continue;
    const ins = ruleInputs(op);
    const needsGrad = ins.map((v) => !!v && needs.has(v));
    if (!needsGrad.some(Boolean)) continue;
    // A list output's element may be used through several builtin.split ops: their gradients add up.
    const outGrads = groups.map((g) => {
      const parts = g.map(take).filter((x): x is Value => x !== null);
      return parts.length === 0 ? null : parts.reduce((a, b) => em.run('add', [a, b])[0]);
    });
    const custom = customRules.get(op.name);
    let gs: (Value | null)[];
    if (custom) gs = custom(op, outGrads, needsGrad, em);
    else if (op.def?.grad) {
      const ctx: GradContext<Value> = { inputs: ins, outputs: outs as Value[], outGrads, attrs: pdAttrs(op), needsGrad };
      const rule = op.def.grad.bind(op.def);
      em.symbolicOp = isStaticOp(op) ? null : op.name;
      try {
        gs = em.record(() => rule(ctx, em.ops));
      } catch (e) {
        // Rules read concrete shapes (reshape/expand targets): symbolic dims cannot be emitted yet.
        if (e instanceof Error && !isStaticOp(op)) e.message = `gradient of ${op.name} with symbolic shapes: ${e.message}`;
        throw e;
      } finally {
        em.symbolicOp = null;
      }
    } else {
      throw new Error(`${op.name}: no gradient rule is defined for this op, so the program cannot be differentiated through it ` +
        '(put its inputs in no_grad_set or mark them stop_gradient)');
    }
    ins.forEach((x, i) => {
      let g = gs[i];
      if (!x || !g || !needsGrad[i]) return;
      if (shapeStr(g.shape) !== shapeStr(x.shape))
        throw new Error(`${op.name}: gradient rule returned shape ${shapeStr(g.shape)} for input ${i} of shape ${shapeStr(x.shape)}`);
      if (g.dtype !== x.dtype) g = em.run('cast', [g], { dtype: x.dtype })[0];
      give(x, g);
    });
  }
  return inputs.map((x) => (needs.has(x) ? take(x) : null));
}

