// What gradient rules (OpDef.grad) are written with. A rule never touches tensors directly: it
// calls public registry ops through GradOps, so the same rule runs eagerly (src/autograd, where
// the ops are recorded again under create_graph and so are differentiable themselves) and, later,
// emits PIR for program autodiff. GradKit adds the few shorthands every rule needs, among them
// the one broadcast-aware reduction of gradients (sumTo).
import type { DType } from '../tensor/dtype.js';
import type { TensorMeta } from './types.js';

export interface GradOps<T> {
  /** Runs registered op `name` (attributes by name, defaults filled) and returns its outputs. */
  run(name: string, inputs: readonly (T | null)[], attrs?: Readonly<Record<string, unknown>>): T[];
  meta(t: T): TensorMeta;
}

export class GradKit<T> {
  constructor(readonly o: GradOps<T>) {}

  op(name: string, ins: readonly (T | null)[], attrs: Readonly<Record<string, unknown>> = {}): T { return this.o.run(name, ins, attrs)[0]; }
  /** Eager shapes are concrete; rules that need numbers (reshape targets) read them here. */
  shape(t: T): number[] { return this.o.meta(t).shape as number[]; }
  dtype(t: T): DType { return this.o.meta(t).dtype; }
  rank(t: T): number { return this.o.meta(t).shape.length; }

  add(a: T, b: T): T { return this.op('add', [a, b]); }
  sub(a: T, b: T): T { return this.op('subtract', [a, b]); }
  mul(a: T, b: T): T { return this.op('multiply', [a, b]); }
  div(a: T, b: T): T { return this.op('divide', [a, b]); }
  neg(a: T): T { return this.op('neg', [a]); }
  /** x * s + b. */
  scale(x: T, s: number, b = 0): T { return this.op('scale', [x], { scale: s, bias: b }); }
  square(x: T): T { return this.op('square', [x]); }
  exp(x: T): T { return this.op('exp', [x]); }

  /** A 0-dim constant of x's dtype (broadcasts against anything). */
  scalar(v: number, like: T): T { return this.op('full', [], { shape: [], fill_value: v, dtype: this.dtype(like) }); }
  full(shape: readonly number[], v: number, dtype: DType): T { return this.op('full', [], { shape: [...shape], fill_value: v, dtype }); }
  zerosLike(x: T): T { return this.op('zeros_like', [x]); }
  /** Zeros of x's shape and dtype, from its metadata alone (x may be a rule's shape-only view). */
  zerosOf(x: T): T { return this.full(this.shape(x), 0, this.dtype(x)); }
  cast(x: T, dt: DType): T { return this.dtype(x) === dt ? x : this.op('cast', [x], { dtype: dt }); }
  reshape(x: T, shape: readonly number[]): T {
    const s = this.shape(x);
    return s.length === shape.length && s.every((d, i) => d === shape[i]) ? x : this.op('reshape', [x], { shape: [...shape] });
  }
  transpose(x: T, perm: readonly number[]): T { return this.op('transpose', [x], { perm: [...perm] }); }
  /** Sum over axes (never the empty list, which the sum op reads as "all"). */
  sum(x: T, axes: readonly number[], keepdim = false): T { return axes.length ? this.op('sum', [x], { axis: [...axes], keepdim }) : x; }
  where(c: T, a: T, b: T): T { return this.op('where', [c, a, b]); }
  cmp(name: 'greater_than' | 'greater_equal' | 'less_than' | 'less_equal' | 'equal' | 'not_equal', a: T, b: T): T { return this.op(name, [a, b]); }
  /** g where mask, else 0. */
  mask(m: T, g: T): T { return this.where(m, g, this.scalar(0, g)); }

  /** Broadcasts x to shape (a full of zeros when the shape is empty; expand rejects 0 sizes). */
  expandTo(x: T, shape: readonly number[]): T {
    const s = this.shape(x);
    if (s.length === shape.length && s.every((d, i) => d === shape[i])) return x;
    if (shape.some((d) => d === 0)) return this.full(shape, 0, this.dtype(x));
    return this.op('expand', [x], { shape: [...shape] });
  }

  /**
   * The gradient of a broadcast: sums g over the dims broadcasting added or grew from 1, then
   * reshapes to `target`. Every rule of a broadcasting op goes through here.
   */
  sumTo(g: T, target: readonly number[]): T {
    const gs = this.shape(g);
    if (gs.length === target.length && gs.every((d, i) => d === target[i])) return g;
    const lead = gs.length - target.length;
    const axes: number[] = [];
    for (let i = 0; i < gs.length; i++) if (i < lead || (target[i - lead] === 1 && gs[i] !== 1)) axes.push(i);
    return this.reshape(this.sum(g, axes), target);
  }

  /** Undoes a reduction over `axes` of a tensor of `xShape`: g back to keepdim form, then broadcast. */
  unreduce(g: T, xShape: readonly number[], axes: readonly number[]): T {
    const keep = xShape.map((d, i) => (axes.includes(i) ? 1 : d));
    return this.expandTo(this.reshape(g, keep), xShape);
  }

  /**
   * Places g (the result of taking every `step`-th element from `first`, `count` times, along
   * `axis`) back into zeros of size `dim` along that axis: interleave step-1 zeros, then pad.
   */
  scatterStrided(g: T, axis: number, dim: number, first: number, step: number): T {
    const s = this.shape(g);
    const count = s[axis];
    if (count === 0) return this.full(s.map((d, i) => (i === axis ? dim : d)), 0, this.dtype(g));
    // A negative step visits first, first+step, ...: flipped, that is an ascending run from its last index.
    let t = step < 0 ? this.op('flip', [g], { axis: [axis] }) : g;
    const begin = step < 0 ? first + (count - 1) * step : first;
    const n = Math.abs(step);
    if (n > 1) {
      // [.., c, ..] -> [.., c, 1, ..] -> pad to [.., c, n, ..] -> [.., c*n, ..] -> keep (c-1)*n+1.
      const un = this.op('unsqueeze', [t], { axis: [axis + 1] });
      const pads = new Array<number>(2 * (s.length + 1)).fill(0);
      pads[2 * (axis + 1) + 1] = n - 1;
      const long = this.reshape(this.op('pad', [un], { pad: pads }), s.map((d, i) => (i === axis ? d * n : d)));
      t = this.op('slice', [long], { axes: [axis], starts: [0], ends: [(count - 1) * n + 1] });
    }
    const len = this.shape(t)[axis];
    const pads = new Array<number>(2 * s.length).fill(0);
    pads[2 * axis] = begin;
    pads[2 * axis + 1] = dim - begin - len;
    return pads.some((p) => p !== 0) ? this.op('pad', [t], { pad: pads }) : t;
  }
}

export const kit = <T>(ops: GradOps<T>): GradKit<T> => new GradKit(ops);
