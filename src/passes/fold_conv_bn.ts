// Conv + batch_norm folding for inference (Paddle's conv2d_bn_fuse_pass), as DRR rules.
// batch_norm with running statistics (training=False, or use_global_stats) after conv2d is an
// affine map per output channel, so it folds into the convolution:
//   s  = gamma * rsqrt(var + eps)
//   w' = w * s[:, None, None, None]         b' = (b - mean) * s + beta   (b = 0 without a conv bias)
//   batch_norm(conv2d(x, w, b)) -> conv2d(x, w', b')
// The rule writes the weight transform as ops on the original operands; it never modifies the
// program's parameters. When they are constants, constant_fold evaluates the transform; when
// they are parameters, foldParametersPass(scope lookup) (fold_params.ts) evaluates it at compile
// time into new constants. The batch_norm's mean_out/variance_out equal the running statistics
// in this mode (the kernel copies them), so they are replaced by those operands.
import type { Value } from '../pir/core.js';
import { type DrrRule, drrPattern, type Match, attr, compute, op, t } from './drr.js';
import type { RewritePattern } from './rewriter.js';

const channels = (v: Value): number | null => (v.type.kind === 'tensor' && typeof v.type.shape[0] === 'number' ? v.type.shape[0] as number : null);
const floatTensor = (v: Value): boolean => v.type.kind === 'tensor' && (v.type.dtype === 'float32' || v.type.dtype === 'float64');

/** Running statistics (not batch ones), NCHW on both ops, a static channel count, float params. */
const foldable = (m: Match): boolean => {
  const global = m.a.ugs === null ? !m.a.training : Boolean(m.a.ugs);
  return global && channels(m.v.w) !== null && ['w', 'mean', 'var', 'gamma', 'beta'].every((n) => floatTensor(m.v[n]));
};

const convAttrs = { stride: attr('stride'), padding: attr('padding'), dilation: attr('dilation'), groups: attr('groups'), data_format: 'NCHW' };
const bnAttrs = { training: attr('training'), momentum: attr('momentum'), epsilon: attr('eps'), data_format: 'NCHW', use_global_stats: attr('ugs') };
const bn = (conv: ReturnType<typeof op>) => op('batch_norm', [conv, t('mean'), t('var'), t('gamma'), t('beta')], bnAttrs);

// s = gamma * rsqrt(var + eps); scale(var, 1, eps) is var + eps.
const s = op('multiply', [t('gamma'), op('rsqrt', [op('scale', [t('var')], { scale: 1, bias: compute((m) => m.a.eps as number), bias_after_scale: true })])]);
const wFolded = op('multiply', [t('w'), op('reshape', [s], { shape: compute((m) => [channels(m.v.w)!, 1, 1, 1]) })]);
const folded = (bias: ReturnType<typeof op>) => [op('conv2d', [t('x'), wFolded, bias], convAttrs), t('mean'), t('var')];

export const FOLD_CONV_BN_RULES: readonly DrrRule[] = [
  {
    name: 'conv_bn_fold',
    source: bn(op('conv2d', [t('x'), t('w'), null], convAttrs)),
    constraints: [foldable],
    result: folded(op('subtract', [t('beta'), op('multiply', [t('mean'), s])])),
  },
  {
    name: 'conv_bias_bn_fold',
    source: bn(op('conv2d', [t('x'), t('w'), t('cb')], convAttrs)),
    constraints: [foldable, (m) => floatTensor(m.v.cb)],
    result: folded(op('add', [op('multiply', [op('subtract', [t('cb'), t('mean')]), s]), t('beta')])),
  },
];

export const foldConvBnPatterns = (): RewritePattern[] => FOLD_CONV_BN_RULES.map(drrPattern);
