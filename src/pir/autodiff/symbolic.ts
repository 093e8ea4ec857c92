// Gradient rules compute shape attributes (reshape, expand and full targets) from their inputs'
// shapes, which in a program may hold symbols (a batch dim from paddle.static.data(None)). Such
// an attribute cannot be written down, so the emitter rewrites the call into one whose attributes
// are concrete: reshape keeps a symbolic dim with 0 (copy the input's dim at that position) or
// -1 (infer the one unknown dim); full and expand take their shape from a value that already has
// it (full_like of it; expand as x + zeros of it). Exact: x + 0 = x, and full_like fills the same.
import { shapeStr } from '../../tensor/shape.js';
import type { Block, Operation, Value } from '../core.js';

export interface SymbolicEmitter {
  readonly insertionBlock: Block;
  run(name: string, ins: readonly (Value | null)[], attrs?: Readonly<Record<string, unknown>>): Value[];
}

const symbolic = (shape: unknown): shape is readonly unknown[] => Array.isArray(shape) && shape.some((d) => typeof d !== 'number');

/** Values visible at the end of `block` (its arguments and ops, then enclosing blocks before their op), by printed shape. */
export class ShapeRefs {
  private map: Map<string, Value> | null = null;
  constructor(private readonly block: Block) {}
  private build(): Map<string, Value> {
    const m = new Map<string, Value>();
    const add = (v: Value) => { if (v.type.kind === 'tensor' && !m.has(shapeStr(v.type.shape))) m.set(shapeStr(v.type.shape), v); };
    let b: Block | null = this.block;
    let stop: unknown = null;
    while (b) {
      for (const a of b.args) add(a);
      for (const op of b.ops) { if (op === stop) break; op.results.forEach(add); }
      const parent: Operation | null = b.parentOp;
      stop = parent;
      b = parent?.parent ?? null;
    }
    return m;
  }
  find(shape: readonly unknown[]): Value | undefined { return (this.map ??= this.build()).get(shapeStr(shape as never)); }
  note(v: Value): void { if (this.map && v.type.kind === 'tensor' && !this.map.has(shapeStr(v.type.shape))) this.map.set(shapeStr(v.type.shape), v); }
}

/** The rewritten call's results, or null when the call has no symbolic shape attribute. */
export function rewriteSymbolic(em: SymbolicEmitter, refs: ShapeRefs, name: string, ins: readonly (Value | null)[],
  attrs: Readonly<Record<string, unknown>>): Value[] | null {
  const shape = attrs.shape;
  if (!symbolic(shape)) return null;
  const fail = (why: string): never => { throw new TypeError(`${name}: shape ${JSON.stringify(shape.map(String))} has symbolic dims and ${why}`); };
  if (name === 'reshape') {
    const x = ins[0]!;
    const target = shape.map((d, i) => (typeof d === 'number' ? d : x.shape[i] === d ? 0 : d));
    const left = target.filter((d) => typeof d !== 'number').length;
    if (left > 1) fail('more than one cannot be kept in place');
    return em.run('reshape', [x], { shape: target.map((d) => (typeof d === 'number' ? d : -1)) });
  }
  if (name === 'full' || name === 'expand') {
    const ref = refs.find(shape);
    if (!ref) fail('no value of that shape is available to take it from');
    if (name === 'full') return em.run('full_like', [ref!], { fill_value: attrs.fill_value, dtype: attrs.dtype ?? null });
    const x = ins[0]!;
    return em.run('add', [x, em.run('full_like', [ref!], { fill_value: 0, dtype: x.dtype })[0]]);
  }
  return null;
}
