// check_numerics (Paddle's op behind paddle.amp.debugging.check_numerics): counts of NaN, Inf
// and zeros, and the max, min and mean of a floating tensor. Native: native/kernels/debugging.cc.
// The op itself never raises on NaN/Inf: the abort of DebugMode.CHECK_NAN_INF_AND_ABORT needs
// op_type and var_name in its message, which are strings the kernel does not get, so the public
// function (matrix_more_api.ts, compat/paddle/amp/debugging.py) checks the counts and raises.
import { registerOp } from '../registry.js';
import { ShapeError } from '../../tensor/shape.js';
import type { Attrs } from '../types.js';

/** Paddle's paddle.amp.debugging.DebugMode values. */
export const DEBUG_MODES: Readonly<Record<string, number>> = {
  CHECK_NAN_INF_AND_ABORT: 0, CHECK_NAN_INF: 1, CHECK_ALL_FOR_OVERFLOW: 2, CHECK_ALL: 3, CHECK_ALL_AND_ABORT: 4, DUMP_ALL: 5,
};

function level(a: Attrs): number {
  const v = a.check_nan_inf_level;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 5)
    throw new RangeError(`check_numerics: check_nan_inf_level must be a DebugMode value 0..5 (${Object.keys(DEBUG_MODES).join(', ')}), got ${JSON.stringify(v)}`);
  return v;
}

/**
 * check_numerics(tensor, op_type='', var_name='', check_nan_inf_level=0, stack_height_limit=-1,
 * output_dir=''): stats int64 [3] = (num_nan, num_inf, num_zero), values float32 [3] = (max, min,
 * mean). As Paddle's CPU kernel, max/min skip NaN (std::max semantics) and mean is the plain
 * average (NaN or Inf in, NaN or Inf out); an empty tensor gives float32's lowest, max and 0.
 */
export const check_numerics = registerOp({
  name: 'check_numerics',
  inputs: [{ name: 'tensor' }],
  attrs: [
    { name: 'op_type', type: 'str', default: '' }, { name: 'var_name', type: 'str', default: '' },
    { name: 'check_nan_inf_level', type: 'int', default: 0 }, { name: 'stack_height_limit', type: 'int', default: -1 },
    { name: 'output_dir', type: 'str', default: '' },
  ],
  outputs: ['stats', 'values'],
  infer: ([x], a) => {
    if (!['float32', 'float64', 'float16', 'bfloat16'].includes(x.dtype)) throw new TypeError(`check_numerics: tensor must be a floating type, got ${x.dtype}`);
    for (const s of ['op_type', 'var_name', 'output_dir'] as const)
      if (typeof a[s] !== 'string') throw new TypeError(`check_numerics: ${s} must be a str, got ${JSON.stringify(a[s])}`);
    if (typeof a.stack_height_limit !== 'number' || !Number.isInteger(a.stack_height_limit))
      throw new TypeError(`check_numerics: stack_height_limit must be an int, got ${JSON.stringify(a.stack_height_limit)}`);
    level(a);
    if (x.shape.some((d) => typeof d !== 'number')) throw new ShapeError('check_numerics: the tensor must have a static shape');
    return [{ dtype: 'int64', shape: [3] }, { dtype: 'float32', shape: [3] }];
  },
  encode: (a) => [level(a)],
  api: { names: [], methods: [] },
});
