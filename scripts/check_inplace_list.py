"""Python half of scripts/check_inplace_list.ts: which names of issue 7's inplace list are not
paddle.<name> functions and not Tensor methods in Skiff's Python paddle.
Usage: node bin/skiff.js run scripts/check_inplace_list.py"""
import paddle

NAMES = '''abs_ acos_ acosh_ asin_ asinh_ atan_ atanh_ ceil_ cos_ cosh_ digamma_ erfinv_ exp_ expm1_ floor_ frac_ i0_
lgamma_ log_ log10_ log1p_ log2_ logit_ neg_ polygamma_ reciprocal_ round_ rsqrt_ sigmoid_ sin_ sinc_ sinh_ sqrt_ square_ tan_ tanh_
trunc_ add_ subtract_ multiply_ divide_ floor_divide_ remainder_ mod_ floor_mod_ pow_ hypot_ lerp_ ldexp_ gcd_ lcm_ copysign_ equal_
not_equal_ greater_than_ greater_equal_ less_than_ less_equal_ logical_and_ logical_or_ logical_xor_ logical_not_ bitwise_and_
bitwise_or_ bitwise_xor_ bitwise_not_ bitwise_left_shift_ bitwise_right_shift_ clip_ scale_ fill_ fill_diagonal_ zero_ uniform_
normal_ exponential_ bernoulli_ cumsum_ cumprod_ masked_fill_ masked_scatter_ index_fill_ index_put_ put_along_axis_ scatter_ where_
tril_ triu_ nan_to_num_ renorm_ addmm_ multigammaln_ reshape_ squeeze_ unsqueeze_ flatten_ transpose_ t_ relu_ elu_ leaky_relu_
hardtanh_ softmax_ thresholded_relu_'''.split()

no_fn = [n for n in NAMES if not callable(getattr(paddle, n, None))]
f_only = [n for n in no_fn if callable(getattr(paddle.nn.functional, n, None))]
no_method = [n for n in NAMES if not callable(getattr(paddle.Tensor, n, None))]
print('issue 7 inplace list: %d names' % len(NAMES))
print('not paddle.<name> (%d): %s' % (len(no_fn), ' '.join(no_fn) or '-'))
print('  of which paddle.nn.functional.<name> (%d): %s' % (len(f_only), ' '.join(f_only) or '-'))
print('not Tensor.<name> (%d): %s' % (len(no_method), ' '.join(no_method) or '-'))
print('neither anywhere: %s' % (' '.join(n for n in no_fn if n not in f_only and n in no_method) or '-'))
