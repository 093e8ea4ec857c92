// Attention onto scaled_dot_product_attention (Paddle's fused attention passes), as DRR rules.
// On [B, H, S, D] operands (heads already moved forward, as attention code writes it):
//   matmul(softmax(QK^T * scale [+ mask]), V)            -> SDPA(q, k, v, mask)
//   matmul(fused_softmax_mask_upper_triangle(QK^T * scale), V) -> SDPA(..., is_causal)
// with the scale as scale(x, s) or x * s, and s = 1/sqrt(D) (the op's fixed scale). SDPA takes
// [B, S, H, D], so the result transposes in and out; canonicalize then cancels those transposes
// against the ones that made the heads (transpose of transpose). Run after fuse_softmax_mask so
// causal masks arrive as the fused softmax. The mask broadcasts to [B, H, Sq, Sk] in both forms.
// SDPA has a grad rule, but its kernel has no dropout: only dropout-free attention matches.
import type { Value } from '../pir/core.js';
import { type DrrRule, drrPattern, type Match, type OpNode, attr, cst, op, t } from './drr.js';
import type { RewritePattern } from './rewriter.js';

const PERM = [0, 2, 1, 3];
const shapeOf = (v: Value) => (v.type.kind === 'tensor' ? v.type.shape : null);

const operands = (m: Match): boolean => {
  const [q, k, v] = [m.v.q, m.v.k, m.v.v].map(shapeOf);
  if (!q || !k || !v || q.length !== 4 || k.length !== 4 || v.length !== 4) return false;
  if (m.v.q.type.kind !== 'tensor' || !['float32', 'float64'].includes(m.v.q.type.dtype)) return false;
  const d = q[3];
  const s = m.c.s ?? (m.a.s as number);
  if (typeof d !== 'number' || typeof s !== 'number' || m.a.sb !== undefined && m.a.sb !== 0) return false;
  return Math.abs(s * Math.sqrt(d) - 1) < 1e-6;
};
const maskFits = (m: Match): boolean => {
  const ms = shapeOf(m.v.mask);
  return !!ms && ms.length <= 4 && m.v.mask.type.kind === 'tensor' && m.v.q.type.kind === 'tensor' && m.v.mask.type.dtype === m.v.q.type.dtype;
};

const qk = op('matmul', [t('q'), t('k')], { transpose_x: false, transpose_y: true });
const SCALED: OpNode[] = [
  op('scale', [qk], { scale: attr('s'), bias: attr('sb') }),
  op('multiply', [qk, cst('s')]),
  op('multiply', [cst('s'), qk]),
];
const pv = (probs: OpNode) => op('matmul', [probs, t('v')], { transpose_x: false, transpose_y: false });
const bshd = (n: string) => op('transpose', [t(n)], { perm: PERM });
const sdpa = (mask: boolean, causal: boolean) =>
  op('transpose', [op('scaled_dot_product_attention', [bshd('q'), bshd('k'), bshd('v'), mask ? t('mask') : null], { dropout_p: 0, is_causal: causal, training: false })], { perm: PERM });

function attentionRules(): DrrRule[] {
  const rules: DrrRule[] = [];
  SCALED.forEach((sc, i) => {
    rules.push({ name: `attention_${i}`, source: pv(op('softmax', [sc], { axis: -1, dtype: null })), constraints: [operands], result: sdpa(false, false) });
    rules.push({ name: `attention_mask_${i}`, source: pv(op('softmax', [op('add', [sc, t('mask')])], { axis: -1, dtype: null })), constraints: [operands, maskFits], result: sdpa(true, false) });
    rules.push({ name: `attention_causal_${i}`, source: pv(op('fused_softmax_mask_upper_triangle', [sc])), constraints: [operands], result: sdpa(false, true) });
  });
  return rules;
}

export const FUSE_ATTENTION_RULES: readonly DrrRule[] = attentionRules();
export const fuseAttentionPatterns = (): RewritePattern[] => FUSE_ATTENTION_RULES.map(drrPattern);
