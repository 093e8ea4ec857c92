// The fixture project (test/js_plugin/fixture) bundled with esbuild through the scope plugin, run
// in plain Node (no vitest module runner in between): every exported function and class carries
// the accessor, values are current, bundler renames are covered, and results equal a build
// without the plugin.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skiffScopePlugin } from '../../frontend/js/plugin/esbuild.js';
import { fixture } from './bundle.js';

const out = mkdtempSync(join(tmpdir(), 'skiff-js-fixture-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

async function bundle(name: string, withPlugin: boolean): Promise<any> {
  const outfile = join(out, `${name}.mjs`);
  await build({
    entryPoints: [join(fixture, 'src/main.ts')], outfile, bundle: true, format: 'esm', platform: 'node', target: 'node20',
    plugins: withPlugin ? [skiffScopePlugin()] : [], logLevel: 'silent',
  });
  return JSON.parse(execFileSync(process.execPath, [join(fixture, 'check.mjs'), pathToFileURL(outfile).href], { encoding: 'utf8' }));
}

describe('js plugin: esbuild fixture', () => {
  let plain: any, built: any;
  beforeAll(async () => { [plain, built] = await Promise.all([bundle('plain', false), bundle('plugin', true)]); });

  it('every exported function and class carries the accessor', () => {
    for (const name of ['affine', 'makeAdder', 'addFive', 'Model', 'arrow', 'setOffset']) expect(built[name], name).toMatchObject({ accessor: true, unresolved: [] });
    expect(plain.affine).toEqual({ accessor: false });
  });

  it('free variables and their current values', () => {
    expect(built.addFive.values).toMatchObject({ k: 5, offset: 1 });
    expect(built.after.values).toMatchObject({ k: 5, offset: 10 }); // after setOffset(10)
    expect(built.makeAdder.keys).toContain('offset');
    expect(built.Model.keys).toEqual(expect.arrayContaining(['affine', 'offset', 'scale']));
    expect(built.setOffset.keys).toEqual(['offset']);
  });

  it('names the bundled code reads are keys (esbuild renamed the colliding `scale`)', () => {
    const renamed = /\bscale\d+\b/.exec(built.affine.source + built.arrow.source);
    expect(renamed, 'esbuild no longer renames the collision; the fixture needs another').not.toBeNull();
    for (const name of ['affine', 'arrow']) {
      const src: string = built[name].source;
      const scaleName = /\bscale\d*\b/.exec(src)![0];
      expect(built[name].keys, `${name} reads ${scaleName}`).toContain(scaleName);
      expect(built[name].values[scaleName]).toBe(3);
    }
  });

  it('a renamed binding is not published under its old name (it may now mean another binding)', () => {
    // Model reads util.scale, which esbuild inlines as util's `scale`; main's own `scale` is renamed.
    const src: string = built.Model.source;
    expect(src).toMatch(/\+ scale\b/);
    expect(built.Model.values.scale).toBe(2);
    expect(Object.values(built.Model.values)).toContain(3); // main's scale, under its bundled name
  });

  it('results equal the build without the plugin', () => {
    expect(built.results).toEqual(plain.results);
  });
});
