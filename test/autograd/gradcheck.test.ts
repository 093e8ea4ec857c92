// Every grad rule against central finite differences (records.ts), and a registry sweep: an op
// with a grad rule but no record fails here.
import { describe, expect, it } from 'vitest';
import { allOps } from '../../src/ops/index.js';
import { checkRecord, checkSecondOrder } from './gradcheck.js';
import { RECORDS } from './records.js';

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
});

// Rules are written with public ops, so the tape differentiates them again (create_graph).
const SECOND_ORDER = ['multiply', 'divide', 'elementwise_pow', 'exp', 'log', 'rsqrt', 'tanh', 'sigmoid', 'gelu', 'silu', 'erf',
  'matmul', 'sum', 'mean', 'logsumexp', 'softmax', 'log_softmax', 'layer_norm', 'cross_entropy', 'conv2d', 'max_pool2d', 'avg_pool2d',
  'gather', 'slice', 'concat', 'expand', 'transpose', 'var', 'batch_norm'];

describe('second derivatives through create_graph (float64)', () => {
  for (const op of SECOND_ORDER) {
    const rec = RECORDS.find((r) => r.op === op && !r.label) ?? RECORDS.find((r) => r.op === op)!;
    it(op, () => {
      const r = checkSecondOrder(rec);
      expect(r.ok, r.message).toBe(true);
    });
  }
});
