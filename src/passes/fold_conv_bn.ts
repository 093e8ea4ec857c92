// Conv + batch_norm folding for inference (Paddle's conv2d_bn_fuse_pass), as DRR rules.
// batch_norm with running statistics (training=False, or use_global_stats) after conv2d is an
// affine map per output channel, so it folds into the convolution:
//   s  = gamma * rsqrt(var + eps)
//   w' = w * s[:, None, None, None]         b' = (b - mean) * s + beta   (b = 0 without a conv bias)
//   batch_norm(conv2d(x, w, b)) -> conv2d(x, w', b')
// The rule's result writes the weight transform as ops on the original operands; the pattern
// then evaluates exactly those ops at once (fold_params.ts, the registry's kernels), so w' and b'
// are new builtin.constants and nothing of the transform runs per execution. It therefore
// applies only when every operand's value is known at compile time: constants, or parameters
// bound through `params` (a scope lookup). The program's parameters are never modified. The
// batch_norm's mean_out/variance_out equal the running statistics in this mode (the kernel
// copies them), so they are replaced by those operands.
import type { Value } from '../pir/core.js';
import { type DrrRule, drrPattern, type Match, attr, compute, op, t } from './drr.js';
import type { RewritePattern } from './rewriter.js';
import { constantData } from './constant_fold.js';
import { foldParametersPattern } from './fold_params.js';
import { type ParamLookup, parameterName } from './param_values.js';
import type { Tensor } from '../tensor/tensor.js';

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

export interface FoldConvBnOptions {
  /** Parameter values by name; without it only constant weights and statistics fold. */
  params?: ParamLookup;
  /** Where folded weights go (fold_params.ts FoldParamsOptions.bind); without it they become constants. */
  bind?: (t: Tensor) => string;
}

/** The DRR rewrite, then the transform ops it created evaluated into constants. */
export function foldConvBnPatterns(opts: FoldConvBnOptions = {}): RewritePattern[] {
  const known = (v: Value | undefined): boolean => {
    if (!v) return true;
    if (constantData(v)) return true;
    const n = parameterName(v);
    return n !== null && opts.params?.(n) !== undefined;
  };
  const evaluate = foldParametersPattern(opts.params ?? (() => undefined), { bind: opts.bind });
  return FOLD_CONV_BN_RULES.map((rule) => {
    const inner = drrPattern({ ...rule, constraints: [...rule.constraints ?? [], (m) => ['w', 'cb', 'mean', 'var', 'gamma', 'beta'].every((n) => known(m.v[n]))] });
    return {
      ...inner,
      matchAndRewrite(root, rw) {
        const block = root.parent;
        if (!block) return false;
        const before = new Set(block.ops);
        if (!inner.matchAndRewrite(root, rw)) return false;
        // Created in dependency order: each step's operands are constants by the time it is folded.
        for (const o of block.ops.filter((x) => !before.has(x) && x.name !== 'pd_op.conv2d')) {
          if (rw.isErased(o)) continue;
          rw.setInsertionPointBefore(o);  // the driver's point was before the (now erased) root
          evaluate.matchAndRewrite(o, rw);
        }
        return true;
      },
    };
  });
}
