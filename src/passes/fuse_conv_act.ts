// conv2d + activation fusion for inference, as DRR rules (Paddle's conv2d_add_act_fuse_pass):
// relu / relu6 / hardswish of a conv2d (with or without the bias input conv+bn folding leaves)
// becomes fused_conv2d_add_act, whose kernel applies bias and activation to each output block
// while it is in cache instead of in another pass over the whole tensor. Runs after
// fold_conv_bn so the batch_norm between conv and activation is gone. The kernel computes
// the same formulas in the same order as the eager ops, so the result is bit-identical.
//
// The residual form (Paddle's fused_conv2d_add_act with ResidualData): a ResNet block's
// relu(conv2d(x, w, b) + identity), either operand order, becomes one fused op whose kernel adds
// the identity and activates in one pass right after the conv: two instructions, one of the two
// elementwise passes and a buffer's worth of traffic go away. Only when the identity has exactly the conv output's type (no broadcast) and is
// not the conv output itself; the conv and the add must have no other users (DRR's rule).
import type { Value } from '../pir/core.js';
import { typeEq } from '../pir/types.js';
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
      result: op('fused_conv2d_add_act', [...ins, null], { ...convAttrs, activation: act }),
    };
  });
}

/** The identity has the conv output's dtype and shape, and is another value. */
const sameAsConv = (m: Match): boolean => {
  const y = m.ops.conv.results[0], r = m.v.r;
  return r !== y && r.definingOp !== m.ops.conv && typeEq(r.type, y.type);
};

/** act(add(conv2d, r)) and act(add(r, conv2d)), with and without bias. */
function residualRules(act: string): DrrRule[] {
  return [true, false].flatMap((bias) => [true, false].map((convFirst): DrrRule => {
    const ins = [t('x'), t('w'), bias ? t('b') : null];
    const conv = op('conv2d', ins, convAttrs, { as: 'conv' });
    return {
      name: `conv2d${bias ? '_bias' : ''}_add${convFirst ? '' : '_commuted'}_${act}_to_fused`,
      source: op(act, [op('add', convFirst ? [conv, t('r')] : [t('r'), conv])]),
      constraints: [floatConv, sameAsConv],
      result: op('fused_conv2d_add_act', [...ins, t('r')], { ...convAttrs, activation: act }),
    };
  }));
}

export const FUSE_CONV_ACT_RULES: readonly DrrRule[] = [
  ...['relu', 'relu6', 'hardswish'].flatMap(rules),
  ...['relu', 'relu6'].flatMap(residualRules),
];

export const fuseConvActPatterns = (): RewritePattern[] => FUSE_CONV_ACT_RULES.map(drrPattern);
