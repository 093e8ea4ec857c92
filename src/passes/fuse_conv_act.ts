// conv2d + activation fusion for inference, as DRR rules (Paddle's conv2d_add_act_fuse_pass):
// relu / relu6 / hardswish of a conv2d (with or without the bias input conv+bn folding leaves)
// becomes fused_conv2d_add_act, whose kernel applies bias and activation to each output block
// while it is in cache instead of in another pass over the whole tensor. Runs after
// fold_conv_bn so the batch_norm between conv and activation is gone. The kernel computes
// the same formulas in the same order as the eager ops, so the result is bit-identical.
import type { Value } from '../pir/core.js';
import { type DrrRule, drrPattern, type Match, attr, op, t } from './drr.js';
import type { RewritePattern } from './rewriter.js';

const floatTensor = (v: Value | undefined): boolean => v !== undefined && v.type.kind === 'tensor' && (v.type.dtype === 'float32' || v.type.dtype === 'float64');
const floatConv = (m: Match): boolean => floatTensor(m.v.x) && floatTensor(m.v.w);

const convAttrs = { stride: attr('stride'), padding: attr('padding'), dilation: attr('dilation'), groups: attr('groups'), data_format: attr('df') };

/** One rule per activation and bias form (a null bias input only matches an absent operand). */
function rules(act: string): DrrRule[] {
  return [true, false].map((bias): DrrRule => {
    const ins = [t('x'), t('w'), bias ? t('b') : null];
    return {
      name: `conv2d${bias ? '_bias' : ''}_${act}_to_fused`,
      source: op(act, [op('conv2d', ins, convAttrs)]),
      constraints: [floatConv],
      result: op('fused_conv2d_add_act', ins, { ...convAttrs, activation: act }),
    };
  });
}

export const FUSE_CONV_ACT_RULES: readonly DrrRule[] = ['relu', 'relu6', 'hardswish'].flatMap(rules);

export const fuseConvActPatterns = (): RewritePattern[] => FUSE_CONV_ACT_RULES.map(drrPattern);
