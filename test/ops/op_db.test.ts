// Generic suite: every op record's samples against its TypeScript reference, in each dtype and
// with strided inputs; bad inputs raise errors naming the op; every registry op has a record.
import { describe, expect, it } from 'vitest';
import { allOps, getOp, runOp } from '../../src/ops/index.js';
import { scope, Tensor } from '../../src/tensor/tensor.js';
import { opRecords, type OpRecord, type Sample } from './op_db.js';
import { arrayOf, asDType, expectClose, tensorOf } from './harness.js';
import type { NDArray } from './ref.js';
import type { DType } from '../../src/tensor/dtype.js';

type In = NDArray | NDArray[] | null;

function runSample(rec: OpRecord, inputs: In[], attrs: Record<string, unknown>, strided: boolean): NDArray[] {
  return scope(() => {
    const flat: (Tensor | null)[] = [];
    inputs.forEach((x, i) => {
      if (x === null) flat.push(null);
      else if (Array.isArray(x)) for (const t of x) flat.push(tensorOf(t));
      else flat.push(tensorOf(x, strided && i === 0));
    });
    const outs = runOp(rec.op, flat, attrs) as Tensor[];
    return outs.map(arrayOf);
  });
}

function convert(inputs: In[], dt: DType): In[] {
  return inputs.map((x) => (x === null ? null : Array.isArray(x) ? x.map((t) => asDType(t, dt)) : asDType(x, dt)));
}

function check(rec: OpRecord, s: Sample, inputs: In[], label: string, strided: boolean): void {
  const attrs = s.attrs ?? {};
  const got = runSample(rec, inputs, attrs, strided);
  if (rec.check === 'custom') { rec.ref([...inputs, ...got.map((g) => g)] as In[], attrs); return; }
  const want = rec.ref(inputs, attrs);
  const wants = Array.isArray(want) ? want : [want];
  expect(got.length, `${label}: number of outputs`).toBe(wants.length);
  wants.forEach((w, k) => expectClose(got[k], w, `${label} out${k}`, rec.atol, rec.rtol));
}

describe('op table', () => {
  for (const rec of opRecords()) {
    describe(rec.op, () => {
      rec.samples.forEach((s, i) => {
        const label = `${rec.op} sample ${i}${s.note ? ` (${s.note})` : ''}`;
        it(`sample ${i}${s.note ? ` ${s.note}` : ''}`, () => {
          check(rec, s, s.inputs, label, false);
          if (s.strided) check(rec, s, s.inputs, `${label} strided`, true);
          for (const dt of rec.dtypes ?? []) check(rec, s, convert(s.inputs, dt), `${label} as ${dt}`, false);
        });
      });
      (rec.bad ?? []).forEach((b, i) => {
        it(`bad input ${i} raises a clear error`, () => {
          expect(() => runSample(rec, b.inputs, b.attrs ?? {}, false)).toThrow(b.error);
          try { runSample(rec, b.inputs, b.attrs ?? {}, false); } catch (e) { expect(String((e as Error).message)).toContain(rec.op.split('_')[0]); }
        });
      });
    });
  }

  it('every registry op has a record', () => {
    const covered = new Set(opRecords().map((r) => r.op));
    const missing = allOps().map((d) => d.name).filter((n) => !covered.has(n));
    expect(missing).toEqual([]);
  });

  it('records name real ops', () => {
    for (const r of opRecords()) expect(() => getOp(r.op)).not.toThrow();
  });
});
