// Canonicalization rules, all written as DRR rules: they remove ops that do nothing (x*1, x+0,
// scale 1/0, eval-mode dropout, a cast to the same dtype, identity transposes and slices, squeeze/unsqueeze
// pairs) and merge chains (transpose of transpose, reshape of reshape). The DRR driver only
// applies a rule when the replacement has exactly the root's type, which is what makes
// `x * 1 -> x` safe when the constant would broadcast x.
import type { AttrValue } from '../ops/types.js';
import type { Value } from '../pir/core.js';
import { cst, type DrrRule, drrPattern, type Match, attr, compute, op, t } from './drr.js';
import type { RewritePattern } from './rewriter.js';

const ints = (a: AttrValue | undefined): number[] | null =>
  Array.isArray(a) ? a as number[] : typeof a === 'number' ? [a] : null;
const rank = (v: Value): number => (v.type.kind === 'tensor' ? v.type.rank : -1);
const norm = (p: readonly number[], r: number): number[] => p.map((d) => (d < 0 ? d + r : d));
const isIdentityPerm = (p: readonly number[] | null, r: number): boolean => !!p && p.length === r && norm(p, r).every((d, i) => d === i);

/** transpose(transpose(x, p1), p2) is transpose(x, p): out[j] = x-dim p1[p2[j]]. */
function composedPerm(m: Match): number[] | null {
  const r = rank(m.v.x);
  const p1 = ints(m.a.p1), p2 = ints(m.a.p2);
  if (!p1 || !p2 || p1.length !== r || p2.length !== r) return null;
  const a = norm(p1, r), b = norm(p2, r);
  return b.map((j) => a[j]);
}

const transposeTwice = op('transpose', [op('transpose', [t('x')], { perm: attr('p1') })], { perm: attr('p2') });
const allZero = (k: string) => (m: Match): boolean => { const s = ints(m.a[k]); return !!s && s.every((v) => v === 0); };
const allOne = (k: string) => (m: Match): boolean => { const s = ints(m.a[k]); return !!s && s.every((v) => v === 1); };
const constIs = (name: string, v: number) => (m: Match): boolean => m.c[name] === v;

export const CANONICALIZE_RULES: readonly DrrRule[] = [
  {
    name: 'transpose_transpose_to_nothing', source: transposeTwice, allowSharedIntermediates: true, benefit: 2,
    constraints: [(m) => isIdentityPerm(composedPerm(m), rank(m.v.x))],
    result: t('x'),
  },
  {
    name: 'transpose_transpose_to_one', source: transposeTwice, allowSharedIntermediates: true,
    constraints: [(m) => composedPerm(m) !== null],
    result: op('transpose', [t('x')], { perm: compute((m) => composedPerm(m)!) }),
  },
  {
    name: 'transpose_identity', source: op('transpose', [t('x')], { perm: attr('p') }),
    constraints: [(m) => isIdentityPerm(ints(m.a.p), rank(m.v.x))],
    result: t('x'),
  },
  {
    // A 0 in the outer shape copies a dim of the inner reshape's result, so it cannot be moved.
    name: 'reshape_reshape', source: op('reshape', [op('reshape', [t('x')], { shape: attr('s1') })], { shape: attr('s2') }),
    allowSharedIntermediates: true,
    constraints: [(m) => { const s = ints(m.a.s2); return !!s && !s.includes(0); }],
    result: op('reshape', [t('x')], { shape: attr('s2') }),
  },
  // The type check makes these no-ops only when the result has x's exact type.
  {
    name: 'reshape_reshape_noop', source: op('reshape', [op('reshape', [t('x')])]), allowSharedIntermediates: true, benefit: 2,
    result: t('x'),
  },
  { name: 'reshape_noop', source: op('reshape', [t('x')]), result: t('x') },
  { name: 'multiply_one', source: op('multiply', [t('x'), cst('c')]), constraints: [constIs('c', 1)], result: t('x') },
  { name: 'one_multiply', source: op('multiply', [cst('c'), t('x')]), constraints: [constIs('c', 1)], result: t('x') },
  { name: 'add_zero', source: op('add', [t('x'), cst('c')]), constraints: [constIs('c', 0)], result: t('x') },
  { name: 'zero_add', source: op('add', [cst('c'), t('x')]), constraints: [constIs('c', 0)], result: t('x') },
  { name: 'subtract_zero', source: op('subtract', [t('x'), cst('c')]), constraints: [constIs('c', 0)], result: t('x') },
  { name: 'divide_one', source: op('divide', [t('x'), cst('c')]), constraints: [constIs('c', 1)], result: t('x') },
  { name: 'scale_identity', source: op('scale', [t('x')], { scale: 1, bias: 0 }), result: t('x') },
  // Eval-mode dropout in upscale_in_train mode is x (its kernel draws nothing then, so removing
  // it moves no random stream); an inference model saved in eval mode is full of them.
  { name: 'dropout_eval_identity', source: op('dropout', [t('x')], { training: false, mode: 'upscale_in_train' }), result: t('x') },
  {
    name: 'cast_same_dtype', source: op('cast', [t('x')], { dtype: attr('d') }),
    constraints: [(m) => m.v.x.type.kind === 'tensor' && m.a.d === m.v.x.type.dtype],
    result: t('x'),
  },
  {
    name: 'squeeze_unsqueeze', source: op('squeeze', [op('unsqueeze', [t('x')], { axis: attr('a') })], { axis: attr('a') }),
    allowSharedIntermediates: true, result: t('x'),
  },
  {
    // Only when the squeezed dims were 1 does this give x back; the type check decides.
    name: 'unsqueeze_squeeze', source: op('unsqueeze', [op('squeeze', [t('x')], { axis: attr('a') })], { axis: attr('a') }),
    allowSharedIntermediates: true, result: t('x'),
  },
  { name: 'slice_identity', source: op('slice', [t('x')], { starts: attr('s') }), constraints: [allZero('s')], result: t('x') },
  {
    name: 'strided_slice_identity', source: op('strided_slice', [t('x')], { starts: attr('s'), strides: attr('st') }),
    constraints: [allZero('s'), allOne('st')], result: t('x'),
  },
];

export const canonicalizePatterns = (): RewritePattern[] => CANONICALIZE_RULES.map(drrPattern);
