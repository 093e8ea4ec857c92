// Lists which names of issue 7's inplace list are missing from the TS surface, as paddle.<name>
// functions and as Tensor methods (Python: scripts/check_inplace_list.py through the CLI).
// Usage: npx tsx scripts/check_inplace_list.ts
import '../src/autograd/index.js';
import { paddle } from '../src/paddle.js';
import { Tensor } from '../src/tensor/tensor.js';

/** Issue 7, "Inplace (as in Paddle 2.6)": the inplace APIs, as functions and Tensor methods. */
export const ISSUE7_INPLACE = `abs_ acos_ acosh_ asin_ asinh_ atan_ atanh_ ceil_ cos_ cosh_ digamma_ erfinv_ exp_ expm1_ floor_ frac_ i0_
lgamma_ log_ log10_ log1p_ log2_ logit_ neg_ polygamma_ reciprocal_ round_ rsqrt_ sigmoid_ sin_ sinc_ sinh_ sqrt_ square_ tan_ tanh_
trunc_ add_ subtract_ multiply_ divide_ floor_divide_ remainder_ mod_ floor_mod_ pow_ hypot_ lerp_ ldexp_ gcd_ lcm_ copysign_ equal_
not_equal_ greater_than_ greater_equal_ less_than_ less_equal_ logical_and_ logical_or_ logical_xor_ logical_not_ bitwise_and_
bitwise_or_ bitwise_xor_ bitwise_not_ bitwise_left_shift_ bitwise_right_shift_ clip_ scale_ fill_ fill_diagonal_ zero_ uniform_
normal_ exponential_ bernoulli_ cumsum_ cumprod_ masked_fill_ masked_scatter_ index_fill_ index_put_ put_along_axis_ scatter_ where_
tril_ triu_ nan_to_num_ renorm_ addmm_ multigammaln_ reshape_ squeeze_ unsqueeze_ flatten_ transpose_ t_ relu_ elu_ leaky_relu_
hardtanh_ softmax_ thresholded_relu_`.split(/\s+/);

const P = paddle as Record<string, unknown>;
const F = (paddle.nn as { functional: Record<string, unknown> }).functional;
const proto = Tensor.prototype as unknown as Record<string, unknown>;
const noFn = ISSUE7_INPLACE.filter((n) => typeof P[n] !== 'function');
const noMethod = ISSUE7_INPLACE.filter((n) => typeof proto[n] !== 'function');
const fOnly = noFn.filter((n) => typeof F[n] === 'function');
console.log(`issue 7 inplace list: ${ISSUE7_INPLACE.length} names`);
console.log(`not paddle.<name> (${noFn.length}): ${noFn.join(' ') || '-'}`);
console.log(`  of which paddle.nn.functional.<name> (${fOnly.length}): ${fOnly.join(' ') || '-'}`);
console.log(`not Tensor.<name> (${noMethod.length}): ${noMethod.join(' ') || '-'}`);
console.log(`neither anywhere: ${noFn.filter((n) => !fOnly.includes(n) && noMethod.includes(n)).join(' ') || '-'}`);
