// Fusion of a linear layer's ops into fused_gemm_epilogue, as DRR rules (Paddle's
// fused_gemm_epilogue_pass): matmul + bias add becomes one op, and a following relu/gelu is
// folded into its epilogue. The rules compose: add(matmul) first, then act(fused) upgrades
// the activation, so a chain is fused whichever op the driver visits first.
// The fused op has no grad rule: this pass belongs in inference pipelines only.
import type { Value } from '../pir/core.js';
import { type DrrRule, drrPattern, type Match, attr, op, t } from './drr.js';
import type { RewritePattern } from './rewriter.js';

const floatTensor = (v: Value, rank?: number): boolean =>
  v.type.kind === 'tensor' && (v.type.dtype === 'float32' || v.type.dtype === 'float64') && (rank === undefined || v.type.rank === rank);
// The kernel takes a 2-D weight and a 1-D bias; the DRR type check then rejects a bias that
// would broadcast the product to a larger shape.
const linearOperands = (m: Match): boolean => floatTensor(m.v.x) && floatTensor(m.v.y, 2) && floatTensor(m.v.b, 1) && (m.v.x.type as { rank: number }).rank >= 2;

const matmul = op('matmul', [t('x'), t('y')], { transpose_x: attr('tx'), transpose_y: attr('ty') });
const fused = (activation: string) => op('fused_gemm_epilogue', [t('x'), t('y'), t('b')], { trans_x: attr('tx'), trans_y: attr('ty'), activation });
const fusedNone = op('fused_gemm_epilogue', [t('x'), t('y'), t('b')], { trans_x: attr('tx'), trans_y: attr('ty'), activation: 'none' });

export const FUSE_GEMM_RULES: readonly DrrRule[] = [
  { name: 'matmul_add_to_fused_gemm', source: op('add', [matmul, t('b')]), constraints: [linearOperands], result: fused('none') },
  { name: 'add_matmul_to_fused_gemm', source: op('add', [t('b'), matmul]), constraints: [linearOperands], result: fused('none') },
  { name: 'fused_gemm_relu', source: op('relu', [fusedNone]), result: fused('relu') },
  { name: 'fused_gemm_gelu', source: op('gelu', [fusedNone], { approximate: false }), result: fused('gelu') },
  { name: 'fused_gemm_gelu_tanh', source: op('gelu', [fusedNone], { approximate: true }), result: fused('gelu_tanh') },
];

export const fuseGemmPatterns = (): RewritePattern[] => FUSE_GEMM_RULES.map(drrPattern);
