// paddle.jit.to_static on code built through the scope plugin, with no `scope` option: the
// README example of issue 12 and the TypeScript zoo. models/ and the fixture go through the
// plugin (Skiff's own sources are bundled as is); the bundle runs in plain Node. Each: one
// graph, no breaks, no eager fallback, outputs equal eager.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleAndRun, fixture } from './bundle.js';

const MODELS = ['resnet18', 'mobilenet_v2', 'vgg', 'vit', 'bert', 'gpt', 'lstm_lm'];
// Models that still fall back, with the reason; the test fails once one captures.
const KNOWN_GAPS: Record<string, string> = {};

let readme: any;
let results: Record<string, any> = {};
beforeAll(async () => {
  const r = await bundleAndRun(join(fixture, 'src/capture.ts'), join(fixture, 'check_capture.mjs'), /[\\/](models[\\/](vision|text)|fixture[\\/]src)[\\/][^\\/]+\.ts$/);
  readme = r.readme;
  results = Object.fromEntries((r.zoo as any[]).map((z) => [z.name, z]));
}, 180_000);

describe('js plugin: README example through esbuild', () => {
  it('captures to one graph with no scope option, equal to eager', () => {
    expect(readme.breaks).toEqual([]);
    expect(readme.graphs).toBe(1);
    expect(readme.translateCount).toBe(1);
    expect(readme.eagerCalls).toBe(0);
    expect(readme.captured.length).toBe(20);
    readme.captured.forEach((v: number, i: number) => expect(v).toBeCloseTo(readme.eager[i], 5));
  });
});

describe('js plugin: TS zoo captured with to_static', () => {
  for (const name of MODELS) {
    it(name, () => {
      const r = results[name];
      expect(r, `no result for ${name}`).toBeDefined();
      expect(r.error, r.error).toBeUndefined();
      expect(r.size).toBeGreaterThan(0);
      expect(r.maxDiff).toBeLessThan(1e-4); // captured or not, never a different answer
      if (KNOWN_GAPS[name]) {
        expect(r.breaks.length, `${name} now captures: remove it from KNOWN_GAPS`).toBeGreaterThan(0);
        return;
      }
      expect(r.breaks).toEqual([]);
      expect(r.graphs).toBe(1);
      expect(r.translateCount).toBe(1);
      expect(r.eagerCalls).toBe(0);
    });
  }
});
