// Hand-bound public names over registry ops whose Paddle signatures the generated binder cannot
// express (mounted by src/paddle.ts; Python: compat/paddle/_matrix_api.py, compat/paddle/amp):
// - Tensor.fill_diagonal_(value, offset=0, wrap=False): Paddle has only the inplace method, no
//   functional fill_diagonal, so the op is internal and the method is bound here;
// - paddle.atleast_1d/2d/3d(*inputs): any number of inputs, one result or a list (views);
// - paddle.amp.debugging.check_numerics / DebugMode: raises on NaN/Inf in the abort modes;
// - multigammaln_: the inplace variant of a composite that is no registry op (special_more.ts).
import { callOp } from '../api.js';
import { Tensor } from '../../tensor/tensor.js';
import { to_tensor } from '../../tensor/creation.js';
import type { TensorData } from '../../tensor/creation.js';
import { bindArgs } from './nn_util.js';
import { fill_diagonal } from './matrix_more.js';
import { check_numerics, DEBUG_MODES } from './debugging.js';
import { reshape } from './shape_view.js';
import { multigammaln } from './special_more.js';
import { assignInplace } from '../dispatch.js';

type Fn = (...args: unknown[]) => unknown;
const isOpts = (v: unknown) => v !== null && typeof v === 'object' && !(v instanceof Tensor) && Object.getPrototypeOf(v) === Object.prototype;

/** x.fill_diagonal_(value, offset=0, wrap=False): returns x. */
function fillDiagonal_(x: unknown, ...args: unknown[]): unknown {
  const a = bindArgs('fill_diagonal_', ['value', 'offset', 'wrap'], args);
  if (!(x instanceof Tensor)) throw new TypeError('fill_diagonal_(): x must be a Tensor');
  if (a.value === undefined) throw new TypeError("fill_diagonal_() missing required argument 'value'");
  if (typeof a.value !== 'number' && typeof a.value !== 'boolean') throw new TypeError(`fill_diagonal_(): value must be a bool, int or float, got ${JSON.stringify(a.value)}`);
  const value = typeof a.value === 'boolean' ? Number(a.value) : a.value;   // the op's value is a float attribute
  return callOp(fill_diagonal, [x, { value, offset: a.offset ?? 0, wrap: a.wrap ?? false }], true);
}

/** The shape atleast_<n>d gives a tensor of `shape` (Paddle 2.6: 0-D -> [1..]; 1-D [N] -> [1, N] / [1, N, 1]; 2-D -> [.., .., 1]). */
function atleastShape(n: 1 | 2 | 3, shape: readonly number[]): number[] | null {
  if (shape.length >= n) return null;
  if (shape.length === 0) return new Array<number>(n).fill(1);
  if (n === 2) return [1, shape[0]];
  return shape.length === 1 ? [1, shape[0], 1] : [shape[0], shape[1], 1];
}

function atleast(n: 1 | 2 | 3): Fn {
  const pub = `atleast_${n}d`;
  const f = (...args: unknown[]): unknown => {
    const inputs = args.length > 0 && isOpts(args[args.length - 1]) ? args.slice(0, -1) : args;
    if (args.length > inputs.length) {
      const extra = Object.keys(args[args.length - 1] as object).filter((k) => k !== 'name');
      if (extra.length) throw new TypeError(`${pub}() got an unexpected keyword argument '${extra[0]}'`);
    }
    const out = inputs.map((v) => {
      const x = v instanceof Tensor ? v : to_tensor(v as TensorData);
      const s = atleastShape(n, x.shape as number[]);
      return s ? callOp(reshape, [x, s]) : x;   // a view of x (reshape of an unchanged layout)
    });
    return out.length === 1 ? out[0] : out;
  };
  Object.defineProperty(f, 'name', { value: pub });
  return f;
}

/**
 * paddle.amp.debugging.check_numerics(tensor, op_type, var_name, debug_mode=CHECK_NAN_INF_AND_ABORT):
 * [stats, values]; in CHECK_NAN_INF_AND_ABORT and CHECK_ALL_AND_ABORT a NaN or Inf raises,
 * naming the op and tensor with the counts.
 */
function checkNumerics(...args: unknown[]): unknown {
  const a = bindArgs('check_numerics', ['tensor', 'op_type', 'var_name', 'debug_mode'], args);
  if (!(a.tensor instanceof Tensor)) throw new TypeError('check_numerics(): tensor must be a Tensor');
  const mode = a.debug_mode ?? DEBUG_MODES.CHECK_NAN_INF_AND_ABORT;
  const level = typeof mode === 'string' ? DEBUG_MODES[mode] : mode;
  const opType = String(a.op_type ?? ''), varName = String(a.var_name ?? '');
  const outs = callOp(check_numerics, [a.tensor, { op_type: opType, var_name: varName, check_nan_inf_level: level }]) as Tensor[];
  if (level === DEBUG_MODES.CHECK_NAN_INF_AND_ABORT || level === DEBUG_MODES.CHECK_ALL_AND_ABORT) {
    const [nan, inf, zero] = outs[0].tolist() as number[];
    if (nan > 0 || inf > 0) {
      const [mx, mn, mean] = outs[1].tolist() as number[];
      for (const o of outs) o.dispose();
      throw new Error(`check_numerics: There are NaN or Inf in [operator=${opType}, tensor=${varName}, dtype=${a.tensor.dtype}, numel=${a.tensor.size}]: ` +
        `num_nan=${nan}, num_inf=${inf}, num_zero=${zero}, max=${mx}, min=${mn}, mean=${mean}`);
    }
  }
  return outs;
}

/** paddle.multigammaln_(x, p) / x.multigammaln_(p). */
function multigammaln_(...args: unknown[]): unknown {
  const b = bindArgs('multigammaln_', ['x', 'p'], args);
  // A program being built: functional, the caller rebinds x.
  if (!(b.x instanceof Tensor)) return multigammaln(b.x, b.p);
  return assignInplace('multigammaln_', b.x, (src) => [multigammaln(src, b.p) as Tensor]);
}

export const matrixMorePublic: Readonly<Record<string, unknown>> = {
  atleast_1d: atleast(1),
  atleast_2d: atleast(2),
  atleast_3d: atleast(3),
  'amp.debugging.check_numerics': checkNumerics,
  'amp.debugging.DebugMode': DEBUG_MODES,
  multigammaln_,
};

if (!Object.prototype.hasOwnProperty.call(Tensor.prototype, 'fill_diagonal_')) {
  Object.defineProperty(Tensor.prototype, 'fill_diagonal_', {
    value: function (this: Tensor, ...args: unknown[]) { return fillDiagonal_(this, ...args); }, writable: true, configurable: true,
  });
}
if (!Object.prototype.hasOwnProperty.call(Tensor.prototype, 'multigammaln_')) {
  Object.defineProperty(Tensor.prototype, 'multigammaln_', {
    value: function (this: Tensor, ...args: unknown[]) { return multigammaln_(this, ...args); }, writable: true, configurable: true,
  });
}
