import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as skiff from '../../frontend/index.js';
import { EXPORTS_FILE, renderExports } from '../../scripts/gen_exports.js';

describe('package entry', () => {
  it('the generated export list is current (npm run gen:exports)', () => {
    expect(readFileSync(EXPORTS_FILE, 'utf8')).toBe(renderExports());
  });

  it('import * as paddle gives the registry surface', () => {
    const p = skiff as unknown as Record<string, any>;
    const x = p.to_tensor([[1, 2, 3], [4, 5, 6]], 'float32');
    expect(p.add(x, x).tolist()).toEqual([[2, 4, 6], [8, 10, 12]]);
    expect(p.sum(x, { axis: 1, keepdim: true }).tolist()).toEqual([[6], [15]]);
    expect(p.nn.functional.relu(p.to_tensor([-1, 2])).tolist()).toEqual([0, 2]);
    p.seed(7);
    const a = p.rand([3]).tolist();
    p.seed(7);
    expect(p.rand([3]).tolist()).toEqual(a);
    expect(typeof p.nn.functional.layer_norm).toBe('function');
    expect(p.paddle.add).toBe(p.add);
  });
});
