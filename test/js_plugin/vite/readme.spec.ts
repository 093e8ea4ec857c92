// The README example of issue 12 under vitest through the Vite plugin: no `scope` option, one graph.
import { expect, it } from 'vitest';
import { run } from '../fixture/src/readme.js';

it('README example captures to one graph, equal to eager', () => {
  const r = run();
  expect(r.breaks).toEqual([]);
  expect(r.graphs).toBe(1);
  expect(r.translateCount).toBe(1);
  expect(r.eagerCalls).toBe(0);
  r.captured.forEach((v, i) => expect(v).toBeCloseTo(r.eager[i], 5));
});
