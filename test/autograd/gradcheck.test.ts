// Every grad rule against central finite differences (records.ts), and a registry sweep: an op
// with a grad rule but no record fails here.
import { describe, expect, it } from 'vitest';
import { allOps } from '../../src/ops/index.js';
import { checkRecord, checkSecondOrder, checkStrided, checkZeroDim } from './gradcheck.js';
import { RECORDS as BASE } from './records.js';
import { MORE_RECORDS, MORE_SECOND_ORDER } from './records_more.js';
import { NN_RECORDS, NN_SECOND_ORDER } from './records_nn.js';
import { LOSS_RECORDS } from './records_loss.js';
import { INDEX_SHAPE_RECORDS, INDEX_SHAPE_SECOND_ORDER } from './records_index_shape.js';
import { COMPOSITE_RECORDS, PRODUCT_RECORDS, PRODUCT_SECOND_ORDER } from './records_products.js';
import { TRANSFORMER_RECORDS, TRANSFORMER_SECOND_ORDER } from './records_transformer.js';

const RECORDS = [...BASE, ...MORE_RECORDS, ...NN_RECORDS, ...LOSS_RECORDS, ...PRODUCT_RECORDS, ...COMPOSITE_RECORDS, ...INDEX_SHAPE_RECORDS, ...TRANSFORMER_RECORDS];

/**
 * Ops with no gradient, declared explicitly: comparisons and predicates (bool out), bitwise and
 * integer-only ops, index outputs, creation and random ops. Every other op is differentiable and
 * must have a rule and a record.
 */
const NON_DIFFERENTIABLE = new Set([
  'equal', 'not_equal', 'less_than', 'less_equal', 'greater_than', 'greater_equal', 'logical_and', 'logical_or', 'logical_xor',
  'logical_not', 'isnan', 'isinf', 'isfinite', 'isclose', 'allclose', 'any', 'all', 'argmax', 'argmin', 'count_nonzero',
  'gcd', 'lcm', 'bitwise_and', 'bitwise_or', 'bitwise_xor', 'bitwise_not', 'bitwise_left_shift', 'bitwise_right_shift',
  // Piecewise constant in x with jumps, no gradient in Paddle 2.6 either.
  'floor_divide', 'remainder',
  'full', 'zeros', 'ones', 'full_like', 'zeros_like', 'ones_like', 'arange', 'eye', 'one_hot',
  'uniform', 'rand', 'randn', 'normal', 'randint',
  // Random draws (random_more.ts): no gradient in Paddle either.
  'bernoulli', 'poisson', 'standard_gamma', 'multinomial', 'randperm', 'truncated_gaussian_random',
  'uniform_inplace', 'gaussian_inplace', 'bernoulli_inplace', 'exponential',
  // Sorting family: integer outputs (positions, counts).
  'searchsorted', 'bucketize', 'histogram', 'unique', 'unique_consecutive', 'bincount',
  // Integer coordinates (advanced indexing).
  'nonzero',
  // An integer count of singular values (linalg_decomp.ts).
  'matrix_rank',
  // Counts and summary values for debugging (paddle.amp.debugging.check_numerics), no gradient in Paddle.
  'check_numerics',
]);

/**
 * Differentiable ops still without a rule, each with the reason. Shrink this list; never grow it
 * without saying why.
 */
const KNOWN_GAPS: Record<string, string> = {};

describe('gradient rules vs finite differences (float64)', () => {
  for (const rec of RECORDS) {
    it(rec.label ? `${rec.op} (${rec.label})` : rec.op, () => {
      const r = checkRecord(rec);
      expect(r.ok, r.message).toBe(true);
    });
  }

  it('every op with a grad rule has a record', () => {
    const covered = new Set(RECORDS.map((r) => r.op));
    const missing = allOps().filter((d) => d.grad && !covered.has(d.name)).map((d) => d.name);
    expect(missing).toEqual([]);
  });

  it('every differentiable op has a grad rule (or is a declared gap)', () => {
    const missing = allOps().filter((d) => !d.grad && !NON_DIFFERENTIABLE.has(d.name) && !(d.name in KNOWN_GAPS)).map((d) => d.name);
    expect(missing).toEqual([]);
    // The lists stay honest: a listed op that gained a rule must leave them.
    const stale = allOps().filter((d) => d.grad && (NON_DIFFERENTIABLE.has(d.name) || d.name in KNOWN_GAPS)).map((d) => d.name);
    expect(stale).toEqual([]);
  });
});

// Rules are written with public ops, so the tape differentiates them again (create_graph).
const SECOND_ORDER = ['multiply', 'divide', 'elementwise_pow', 'exp', 'log', 'rsqrt', 'tanh', 'sigmoid', 'gelu', 'silu', 'erf',
  'matmul', 'sum', 'mean', 'logsumexp', 'softmax', 'log_softmax', 'layer_norm', 'cross_entropy', 'conv2d', 'max_pool2d', 'avg_pool2d',
  'gather', 'slice', 'concat', 'expand', 'transpose', 'var', 'batch_norm', ...MORE_SECOND_ORDER, ...NN_SECOND_ORDER, ...INDEX_SHAPE_SECOND_ORDER, ...PRODUCT_SECOND_ORDER, ...TRANSFORMER_SECOND_ORDER];

// Every record again with strided inputs (gradients equal the contiguous run's) and, where the
// record's function accepts them, with 0-dim inputs (against finite differences).
describe('gradient rules on strided and 0-dim inputs (float64)', () => {
  let strided = 0, zeroDim = 0;
  // Records whose 0-dim form sits on a point where the op is not differentiable.
  const ZERO_DIM_SINGULAR: Record<string, string> = {
    std: 'one element has spread 0, where std = sqrt(var) has no derivative (NaN, as in Paddle)',
  };
  for (const rec of RECORDS) {
    const name = rec.label ? `${rec.op} (${rec.label})` : rec.op;
    it(`${name}: strided inputs`, () => {
      const r = checkStrided(rec);
      if (!r.skipped) strided++;
      expect(r.ok, r.message).toBe(true);
    });
    if (!(rec.op in ZERO_DIM_SINGULAR)) it(`${name}: 0-dim inputs`, () => {
      const r = checkZeroDim(rec);
      if (!r.skipped) zeroDim++;
      expect(r.ok, r.message).toBe(true);
    });
  }
  it('the variants cover most records', () => {
    expect(strided).toBeGreaterThan(RECORDS.length * 0.8);
    expect(zeroDim).toBeGreaterThan(RECORDS.length * 0.2);
  });
});

describe('second derivatives through create_graph (float64)', () => {
  for (const op of SECOND_ORDER) {
    const rec = RECORDS.find((r) => r.op === op && !r.label) ?? RECORDS.find((r) => r.op === op)!;
    it(op, () => {
      const r = checkSecondOrder(rec);
      expect(r.ok, r.message).toBe(true);
    });
  }
});
