// Tensor printing (src/tensor/format.ts), one record per case; the printed forms are a golden file
// (test/tensor/golden/format.txt; `npx vitest run test/tensor -u` rewrites it after a deliberate change).
// Python's repr uses the same formatter through the bridge (test/python/cases/test_tensor.py).
import { afterEach, describe, expect, it } from 'vitest';
import { paddle } from '../../src/paddle.js';
import { printOptions, set_printoptions } from '../../src/tensor/format.js';
import type { Tensor } from '../../src/tensor/tensor.js';

const p = paddle as unknown as Record<string, (...a: unknown[]) => Tensor>;
const defaults = { ...printOptions };
afterEach(() => set_printoptions(defaults));

interface Case { name: string; make: () => Tensor; options?: Parameters<typeof set_printoptions>[0] }

const cases: Case[] = [
  { name: 'float32 matrix, integral values', make: () => p.to_tensor([[1, 2, 3], [4, 5, 6]], 'float32') },
  { name: 'float64 with a negative (sign column)', make: () => p.to_tensor([[1.5, -2, 3], [4, 5, 6]], 'float64') },
  { name: '0-dim float', make: () => p.to_tensor(0.5, 'float32') },
  { name: '0-dim int64', make: () => p.to_tensor(7n as unknown as number) },
  { name: 'bool', make: () => p.to_tensor([true, false, true]) },
  { name: 'int64 beyond 2^53 prints exactly', make: () => p.to_tensor([9007199254740993n, -3n] as unknown as number[]) },
  { name: 'empty [2, 0]', make: () => p.zeros([2, 0]) },
  { name: 'empty [0]', make: () => p.zeros([0]) },
  { name: 'nan and inf', make: () => p.to_tensor([NaN, Infinity, -Infinity, 1.25], 'float32') },
  { name: '3-D blocks separated by blank lines', make: () => p.reshape(p.arange(0, 24, 1, 'float32'), [2, 3, 4]) },
  { name: 'summarized 2-D (2000 elements)', make: () => p.reshape(p.arange(0, 2000, 1, 'int64'), [40, 50]) },
  { name: 'summarized 1-D wraps at linewidth', make: () => p.arange(0, 1500, 1, 'float32') },
  { name: 'long row wraps at linewidth', make: () => p.scale(p.arange(0, 30, 1, 'float64'), 0.5) },
  { name: 'float16', make: () => p.cast(p.to_tensor([0.1, 2, -3.5], 'float32'), 'float16') },
  { name: 'sci_mode and precision', make: () => p.to_tensor([1, 2e-5, -300], 'float32'), options: { precision: 3, sci_mode: true } },
  { name: 'threshold and edgeitems', make: () => p.arange(0, 10, 1, 'int32'), options: { threshold: 5, edgeitems: 2 } },
  { name: 'strided view prints its own elements', make: () => p.transpose(p.reshape(p.arange(0, 6, 1, 'float32'), [2, 3]), [1, 0]) },
];

describe('tensor printing', () => {
  it('matches the golden file', async () => {
    const out: string[] = [];
    for (const c of cases) {
      if (c.options) set_printoptions(c.options);
      out.push(`== ${c.name}\n${String(c.make())}\n`);
      set_printoptions(defaults);
    }
    await expect(out.join('\n')).toMatchFileSnapshot('./golden/format.txt');
  });

  it('a large tensor prints summarized: 3 edge rows each side', () => {
    const s = String(p.zeros([1000, 1000]));
    expect(s.split('\n')).toHaveLength(8);
    expect(s).toContain('...');
  });

  it.each([
    [{ precision: -1 }, /precision must be a non-negative integer/],
    [{ threshold: 1.5 }, /threshold must be a non-negative integer/],
    [{ colour: true } as never, /unknown option 'colour'/],
  ])('set_printoptions(%o) is rejected without changing anything', (opts, err) => {
    expect(() => set_printoptions(opts)).toThrow(err);
    expect(printOptions).toEqual(defaults);
  });
});
