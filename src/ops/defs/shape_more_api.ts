// Hand-written bindings of shape_more.ts ops whose Paddle signatures the generic binder cannot
// express: paddle.meshgrid(*args) (tensors or one list) and paddle.repeat_interleave, whose
// repeats is an int or a tensor (two registry ops, as in Paddle). Mounted by src/paddle.ts; the
// Python side is compat/paddle/_shape_api.py.
import { callOp } from '../api.js';
import { Tensor } from '../../tensor/tensor.js';
import { bindArgs } from './nn_util.js';
import { meshgrid, repeat_interleave, repeat_interleave_with_tensor_index } from './shape_more.js';

const isOpts = (v: unknown) => v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype;

/** paddle.repeat_interleave(x, repeats, axis=None): an int (or one-element tensor) repeats every element alike. */
function repeatInterleaveApi(...args: unknown[]): unknown {
  const a = bindArgs('repeat_interleave', ['x', 'repeats', 'axis'], args);
  let reps = a.repeats;
  const axis = a.axis ?? null;
  // Paddle reads a one-element repeats tensor as an int in dynamic mode.
  if (reps instanceof Tensor && reps.shape.reduce((p, d) => p * d, 1) === 1 && reps.shape.length <= 1) reps = Number(reps.item());
  if (typeof reps === 'number') return callOp(repeat_interleave, [a.x, { repeats: reps, axis }]);
  if (reps === undefined || reps === null) throw new TypeError("repeat_interleave() missing required argument 'repeats'");
  return callOp(repeat_interleave_with_tensor_index, [a.x, reps, { axis }]);
}

/** paddle.meshgrid(*args): 0-D/1-D tensors, given one by one or as one list; returns a list. */
function meshgridApi(...args: unknown[]): unknown {
  const pos = args.length > 0 && isOpts(args[args.length - 1]) ? args.slice(0, -1) : args;
  const list = pos.length === 1 && Array.isArray(pos[0]) ? pos[0] : pos;
  return callOp(meshgrid, [list]);
}

Object.defineProperty(Tensor.prototype, 'repeat_interleave', {
  value: function (this: Tensor, ...args: unknown[]) { return repeatInterleaveApi(this, ...args); }, writable: true, configurable: true,
});

export const shapeMorePublic: Readonly<Record<string, (...args: unknown[]) => unknown>> = {
  repeat_interleave: repeatInterleaveApi,
  meshgrid: meshgridApi,
};
