// Causal-mask softmax onto fused_softmax_mask_upper_triangle, as DRR rules (Paddle's
// fused_softmax_mask_upper_triangle pass). Matches the forms causal attention code produces:
//   softmax(x + M)              M an additive mask: 0 on and below the diagonal, -inf above
//                               (a constant, a bound parameter, or triu(full(-inf), 1) itself)
//   softmax(masked_fill(x, B, -inf))   B true strictly above the diagonal
//   softmax(where(B, x, -inf))         B true on and below the diagonal
// over the last axis, where M/B have x's last two dims and 1s before (x keeps its shape).
// A finite fill <= -1e9 counts as -inf: exp(v - max) is then 0 in float32 and float64 unless
// |x| approaches 1e9 itself, the same assumption every fused attention kernel makes.
import type { Value } from '../pir/core.js';
import { type DrrRule, drrPattern, type Match, attr, cst, op, t } from './drr.js';
import { type ParamLookup, staticShape, valueData } from './param_values.js';
import type { RewritePattern } from './rewriter.js';

export interface SoftmaxMaskOptions {
  /** Parameter values, so masks captured as parameters (eager tensors in a recorded program) are recognized. */
  params?: ParamLookup;
}

const MASKED = -1e9;
const isMaskedValue = (v: number): boolean => v === -Infinity || v <= MASKED;

/** The mask's last two dims equal x's, with only 1s before them. */
function maskShapeFits(mask: Value, x: Value): [number, number] | null {
  const ms = staticShape(mask), xs = x.type.kind === 'tensor' ? x.type.shape : null;  // x's batch dims may be symbols
  if (!ms || !xs || ms.length < 2 || xs.length < 2 || ms.length > xs.length) return null;
  const sq = ms[ms.length - 2], sk = ms[ms.length - 1];
  if (sq !== xs[xs.length - 2] || sk !== xs[xs.length - 1] || ms.slice(0, -2).some((d) => d !== 1)) return null;
  return [sq, sk];
}

/** Whether every (i, j) of the trailing [sq, sk] data satisfies keep(j <= i, value). */
function causalData(data: number[] | null, dims: [number, number] | null, ok: (lower: boolean, v: number) => boolean): boolean {
  if (!data || !dims) return false;
  const [sq, sk] = dims;
  if (data.length !== sq * sk) return false;
  for (let i = 0; i < sq; i++) for (let j = 0; j < sk; j++) if (!ok(j <= i, data[i * sk + j])) return false;
  return true;
}

const lastAxis = (m: Match): boolean => {
  const xs = m.v.x.type.kind === 'tensor' ? m.v.x.type.rank : -1;
  const a = m.a.axis as number;
  return xs >= 2 && (a === -1 || a === xs - 1);
};

const softmax = (inner: ReturnType<typeof op>) => op('softmax', [inner], { axis: attr('axis'), dtype: null });
const fused = op('fused_softmax_mask_upper_triangle', [t('x')]);

export function softmaxMaskRules(opts: SoftmaxMaskOptions = {}): DrrRule[] {
  const additive = (m: Match): boolean =>
    causalData(valueData(m.v.mask, opts.params), maskShapeFits(m.v.mask, m.v.x), (lower, v) => (lower ? v === 0 : isMaskedValue(v)));
  const bool = (keepIsTrue: boolean) => (m: Match): boolean =>
    isMaskedValue(m.c.v) && causalData(valueData(m.v.mask, opts.params), maskShapeFits(m.v.mask, m.v.x), (lower, v) => (v !== 0) === (lower === keepIsTrue));
  const triuMask = op('triu', [op('full', [], { shape: attr('mshape'), fill_value: attr('fill') })], { diagonal: 1 }, { as: 'triu' });
  const triuFits = (m: Match): boolean => isMaskedValue(m.a.fill as number) && maskShapeFits(m.ops.triu.results[0], m.v.x) !== null;
  return [
    { name: 'softmax_add_causal_mask', source: softmax(op('add', [t('x'), t('mask')])), constraints: [lastAxis, additive], result: fused },
    { name: 'softmax_add_causal_mask_r', source: softmax(op('add', [t('mask'), t('x')])), constraints: [lastAxis, additive], result: fused },
    { name: 'softmax_add_triu_mask', source: softmax(op('add', [t('x'), triuMask])), constraints: [lastAxis, triuFits], result: fused, allowSharedIntermediates: true },
    { name: 'softmax_add_triu_mask_r', source: softmax(op('add', [triuMask, t('x')])), constraints: [lastAxis, triuFits], result: fused, allowSharedIntermediates: true },
    { name: 'softmax_masked_fill_causal', source: softmax(op('masked_fill', [t('x'), t('mask'), cst('v')])), constraints: [lastAxis, bool(false)], result: fused },
    { name: 'softmax_where_causal', source: softmax(op('where', [t('mask'), t('x'), cst('v')])), constraints: [lastAxis, bool(true)], result: fused },
  ];
}

export const fuseSoftmaxMaskPatterns = (opts: SoftmaxMaskOptions = {}): RewritePattern[] => softmaxMaskRules(opts).map(drrPattern);
