// Records ops called through the public API (src/ops dispatch) into a program: install it with
// setStaticRecorder and call paddle functions on PIR Values; each call becomes a pd op.
import type { StaticRecorder, TensorLike } from '../ops/dispatch.js';
import type { Attrs, OpDef, TensorMeta } from '../ops/types.js';
import { Builder } from './builder.js';
import { Value } from './core.js';
import { hasListOutput } from './dialects/pd_op.js';

/**
 * A StaticRecorder that appends pd ops through `builder`.
 * `lift` turns inputs that are not Values (eager Tensors captured by the program) into Values,
 * e.g. as builtin.parameter or builtin.constant; without it such inputs are an error.
 * @example
 *   const b = new Builder(program);
 *   const prev = setStaticRecorder(new ProgramRecorder(b));
 *   try { y = paddle.add(x, x); } finally { setStaticRecorder(prev); }
 */
export class ProgramRecorder implements StaticRecorder {
  constructor(readonly builder: Builder, private readonly lift?: (t: TensorLike) => Value) {}

  record(def: OpDef, inputs: readonly (TensorLike | null)[], attrs: Attrs, _outs: TensorMeta[]): TensorLike[] {
    const flat = inputs.map((x) => {
      if (x === null || x instanceof Value) return x;
      if (this.lift) return this.lift(x);
      throw new TypeError(`${def.name}: input is not a value of the program being built (give ProgramRecorder a lift function)`);
    });
    const op = this.builder.pdFromDef(def, flat, attrs);
    return hasListOutput(def) ? this.builder.split(op.result(0)) : [...op.results];
  }
}
