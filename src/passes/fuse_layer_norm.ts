// The layer normalization users write by hand, onto the layer_norm op (Paddle's
// layer_norm_fuse_pass), as DRR rules generated over the spellings of each step:
//   mu   = mean(x, -1, keepdim)               xc = x - mu
//   var  = mean(xc^2) | mean(xc * xc) | mean(xc ** 2) | var(x, unbiased=False)   (last axis, keepdim)
//   e    = var + eps | scale(var, 1, eps)
//   xhat = xc / sqrt(e) | xc * rsqrt(e)                 -> layer_norm(x, eps)
// then xhat * g + b (g, b 1-D over the last axis, either multiply order) -> layer_norm(x, g, b,
// eps), a second rule so the two compose whichever op the driver visits first.
// layer_norm's rule differentiates, so this runs in both pipelines.
// residualLayerNormPattern (below; pass fuse_residual_layer_norm, inference) then folds a
// residual add into the norm: fused_bias_residual_layernorm.
import type { Value } from '../pir/core.js';
import { type DrrRule, drrPattern, type Match, type OpNode, attr, compute, cst, op, t } from './drr.js';
import { typeEq } from '../pir/types.js';
import type { RewritePattern } from './rewriter.js';

const rankOf = (v: Value): number => (v.type.kind === 'tensor' ? v.type.rank : -1);
const lastDim = (v: Value) => (v.type.kind === 'tensor' ? v.type.shape[v.type.rank - 1] : undefined);
const isFloat = (v: Value): boolean => v.type.kind === 'tensor' && ['float32', 'float64', 'float16', 'bfloat16'].includes(v.type.dtype);

/** A reduction axis attribute naming only x's last axis: -1, [-1], r-1 or [r-1]. */
function lastAxisOnly(a: unknown, rank: number): boolean {
  const l = Array.isArray(a) ? a : [a];
  return l.length === 1 && (l[0] === -1 || l[0] === rank - 1);
}

const mu = op('mean', [t('x')], { axis: attr('ax1'), keepdim: true });
const xc = op('subtract', [t('x'), mu]);
const VARIANCES: OpNode[] = [
  op('mean', [op('square', [xc])], { axis: attr('ax2'), keepdim: true }),
  op('mean', [op('multiply', [xc, xc])], { axis: attr('ax2'), keepdim: true }),
  op('mean', [op('elementwise_pow', [xc, cst('two')])], { axis: attr('ax2'), keepdim: true }),
  op('var', [t('x')], { axis: attr('ax2'), unbiased: false, keepdim: true }),
];
const PLUS_EPS: ((v: OpNode) => OpNode)[] = [
  (v) => op('add', [v, cst('eps')]),
  (v) => op('scale', [v], { scale: 1, bias: attr('eps'), bias_after_scale: true }),
];
const NORMALIZE: ((e: OpNode) => OpNode)[] = [
  (e) => op('divide', [xc, op('sqrt', [e])]),
  (e) => op('multiply', [xc, op('rsqrt', [e])]),
];

const epsilonOf = (m: Match): number => (m.c.eps !== undefined ? m.c.eps : m.a.eps as number);
const normalizable = (m: Match): boolean => {
  const r = rankOf(m.v.x);
  return r >= 1 && isFloat(m.v.x) && lastAxisOnly(m.a.ax1, r) && lastAxisOnly(m.a.ax2, r)
    && (m.c.two === undefined || m.c.two === 2) && Number.isFinite(epsilonOf(m)) && epsilonOf(m) >= 0;
};

const plainLayerNorm = op('layer_norm', [t('x'), null, null], {
  epsilon: compute(epsilonOf), begin_norm_axis: compute((m) => rankOf(m.v.x) - 1),
}, { result: 0 });

function decomposedRules(): DrrRule[] {
  const rules: DrrRule[] = [];
  VARIANCES.forEach((v, i) => PLUS_EPS.forEach((e, j) => NORMALIZE.forEach((n, k) => {
    rules.push({ name: `decomposed_layer_norm_${i}${j}${k}`, source: n(e(v)), constraints: [normalizable], result: plainLayerNorm });
  })));
  return rules;
}

const lnNoAffine = op('layer_norm', [t('x'), null, null], { epsilon: attr('eps'), begin_norm_axis: attr('axis') }, { result: 0 });
const affineFits = (m: Match): boolean => {
  const n = lastDim(m.v.x);
  return (m.a.axis as number) === rankOf(m.v.x) - 1 && typeof n === 'number'
    && [m.v.g, m.v.b].every((p) => rankOf(p) === 1 && lastDim(p) === n && p.type.kind === 'tensor' && m.v.x.type.kind === 'tensor' && p.type.dtype === m.v.x.type.dtype);
};
const affineLayerNorm = op('layer_norm', [t('x'), t('g'), t('b')], { epsilon: attr('eps'), begin_norm_axis: attr('axis') }, { result: 0 });

export const FUSE_LAYER_NORM_RULES: readonly DrrRule[] = [
  ...decomposedRules(),
  { name: 'layer_norm_affine', source: op('add', [op('multiply', [lnNoAffine, t('g')]), t('b')]), constraints: [affineFits], result: affineLayerNorm },
  { name: 'layer_norm_affine_r', source: op('add', [op('multiply', [t('g'), lnNoAffine]), t('b')]), constraints: [affineFits], result: affineLayerNorm },
];

export const fuseLayerNormPatterns = (): RewritePattern[] => FUSE_LAYER_NORM_RULES.map(drrPattern);

/**
 * layer_norm(add(x, residual)) -> fused_bias_residual_layernorm(x, residual), whose
 * residual_out also replaces the add for its other users (a transformer's residual stream
 * reads the sum again: DRR cannot express that second replacement, so this is a pattern).
 * Both add operands must have the sum's type (no broadcasting), and the add's other users must
 * come after the layer_norm (the fused op is created there).
 */
export const residualLayerNormPattern: RewritePattern = {
  name: 'residual_layer_norm',
  rootNames: ['pd_op.layer_norm'],
  matchAndRewrite(ln, rw) {
    const sum = ln.operand(0);
    const add = sum?.definingOp;
    if (!sum || !add || add.name !== 'pd_op.add' || add.parent !== ln.parent) return false;
    const [x, r] = [add.operand(0)!, add.operand(1)!];
    if (!typeEq(x.type, sum.type) || !typeEq(r.type, sum.type) || !isFloat(sum)) return false;
    const ops = ln.parent!.ops;
    const at = ops.indexOf(ln);
    if (sum.users.some((u) => u !== ln && (u.parent !== ln.parent || ops.indexOf(u) < at))) return false;
    const eps = ln.attr('epsilon'), axis = ln.attr('begin_norm_axis');
    if (eps?.kind !== 'float' && eps?.kind !== 'int') return false;
    if (axis?.kind !== 'int') return false;
    let fused;
    try {
      fused = rw.pdOp('pd_op.fused_bias_residual_layernorm', [x, null, r, ln.operand(1), ln.operand(2)],
        { epsilon: eps.value, residual_alpha: 1, begin_norm_axis: axis.value });
    } catch {
      return false;
    }
    const outs = [fused.results[0], fused.results[2], fused.results[3]];
    if (!outs.every((v, i) => typeEq(v.type, ln.results[i].type)) || !typeEq(fused.results[1].type, sum.type)) {
      rw.eraseOp(fused);
      return false;
    }
    rw.replaceAllUsesWith(sum, fused.results[1]);
    rw.replaceOp(ln, outs);
    if (!add.results[0].hasUses) rw.eraseOp(add);
    return true;
  },
};
