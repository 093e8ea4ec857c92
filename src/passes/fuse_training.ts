// Fusions for training programs, as DRR rules (Paddle's fused_dropout_add_pass and
// fused_linear_param_grad_add_pass). Both fused ops have grad rules, so a fused forward can
// still be differentiated; both run in the training pipeline.
//
// dropout + add:  add(dropout(x), y) (either operand order) -> fused_dropout_add(x, y), whose
//   kernel draws the mask from the same generator blocks dropout would. The draw moves from the
//   dropout to the add's position, so the rule refuses when a random op sits between the two
//   (it would then draw first and shift both streams). Only whole-tensor masks (axis=None).
// linear weight gradient + accumulation:  add(acc, matmul(x, dy, transpose_x)) (either order),
//   as program autodiff emits for a weight used twice or a gradient accumulated into an
//   existing one, -> fused_linear_param_grad_add(x, dy, acc).dweight_out; also with the
//   batch sum sumTo adds for a 3-D x (sum over axis 0 of the batched product).
import type { Operation, Value } from '../pir/core.js';
import { Random } from '../pir/opkind.js';
import { type DrrRule, drrPattern, type Match, attr, matchRule, op, t } from './drr.js';
import type { RewritePattern } from './rewriter.js';

const tensorOf = (v: Value) => (v.type.kind === 'tensor' ? v.type : null);
const floatRank = (v: Value, ...ranks: number[]): boolean => {
  const ty = tensorOf(v);
  return !!ty && (ty.dtype === 'float32' || ty.dtype === 'float64') && ranks.includes(ty.rank);
};

/** No random op between `from` and `to` (same block, from before to): moving a draw past one would reorder the streams. */
function noRandomBetween(from: Operation, to: Operation): boolean {
  const block = from.parent;
  if (!block || block !== to.parent) return false;
  const ops = block.ops;
  const i = ops.indexOf(from), j = ops.indexOf(to);
  if (i < 0 || j < i) return false;
  for (let k = i + 1; k < j; k++) if (ops[k].hasTrait(Random)) return false;
  return true;
}

const dropout = op('dropout', [t('x')], { p: attr('p'), axis: null, training: attr('training'), mode: attr('mode') }, { as: 'dropout' });
const fusedDropout = op('fused_dropout_add', [t('x'), t('y')], { p: attr('p'), training: attr('training'), mode: attr('mode') });
const dropoutInOrder = (m: Match): boolean => noRandomBetween(m.ops.dropout, m.root);

export const FUSE_DROPOUT_ADD_RULES: readonly DrrRule[] = [
  { name: 'dropout_add_to_fused', source: op('add', [dropout, t('y')]), constraints: [dropoutInOrder], result: fusedDropout },
  { name: 'add_dropout_to_fused', source: op('add', [t('y'), dropout]), constraints: [dropoutInOrder], result: fusedDropout },
];

const weightGrad = op('matmul', [t('x'), t('dy')], { transpose_x: true, transpose_y: false });
const batchedWeightGrad = op('sum', [weightGrad], { axis: [0], keepdim: false });
const fusedGrad = op('fused_linear_param_grad_add', [t('x'), t('dy'), t('acc'), null], { multi_precision: true, has_bias: false }, { result: 0 });
// The kernel folds x's and dy's leading dims into rows: x2^T dy2 = sum over the batch of x_b^T dy_b.
const operands2d = (m: Match): boolean => floatRank(m.v.x, 2) && floatRank(m.v.dy, 2) && floatRank(m.v.acc, 2);
const operands3d = (m: Match): boolean => floatRank(m.v.x, 3) && floatRank(m.v.dy, 3) && floatRank(m.v.acc, 2);

export const FUSE_LINEAR_GRAD_RULES: readonly DrrRule[] = [
  { name: 'linear_grad_add_to_fused', source: op('add', [t('acc'), weightGrad]), constraints: [operands2d], result: fusedGrad },
  { name: 'linear_grad_add_to_fused_r', source: op('add', [weightGrad, t('acc')]), constraints: [operands2d], result: fusedGrad },
  { name: 'batched_linear_grad_add_to_fused', source: op('add', [t('acc'), batchedWeightGrad]), constraints: [operands3d], result: fusedGrad },
  { name: 'batched_linear_grad_add_to_fused_r', source: op('add', [batchedWeightGrad, t('acc')]), constraints: [operands3d], result: fusedGrad },
];

/**
 * The DRR rewrite, then the matched dropout erased: it is dead, but the greedy driver and DCE
 * keep random ops (erasing one would shift the stream), and here it must go for the very reason
 * that it would draw a second time.
 */
function eraseDropoutAfter(rule: DrrRule): RewritePattern {
  const inner = drrPattern(rule);
  return {
    ...inner,
    matchAndRewrite(root, rw) {
      const m = matchRule(rule, root);
      if (!m || !inner.matchAndRewrite(root, rw)) return false;
      const d = m.ops.dropout;
      if (!rw.isErased(d) && d.results.every((r) => !r.hasUses)) rw.eraseOp(d);
      return true;
    },
  };
}

export const fuseDropoutAddPatterns = (): RewritePattern[] => FUSE_DROPOUT_ADD_RULES.map(eraseDropoutAfter);
export const fuseLinearGradPatterns = (): RewritePattern[] => FUSE_LINEAR_GRAD_RULES.map(drrPattern);
