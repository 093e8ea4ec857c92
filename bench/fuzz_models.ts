// The long model-file fuzz: seeded mutations of a saved .pir model, a Paddle .pdmodel and their
// .pdiparams (test/jit/model_fuzz.ts; `npm test` runs 300 of these). Every case must load and
// run, or fail with an Error naming one of its files; anything else is printed as a finding and
// makes the run exit 1. A crash or hang would stop the process itself.
//   Run: npx tsx bench/fuzz_models.ts [cases=20000] [seed=1] [--write]  (--write: results.md section)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fuzzModels, makeBaseModels } from '../test/jit/model_fuzz.js';
import { table, writeSection } from './results.js';

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const total = Number(args[0] ?? 20000);
const seed0 = Number(args[1] ?? 1);
const dir = mkdtempSync(join(tmpdir(), 'skiff-fuzz-models-'));
const CHUNK = 1000;  // one seed per chunk, so a finding is reproducible from (seed, case)

try {
  const base = makeBaseModels(dir);
  const t0 = performance.now();
  let cases = 0, ran = 0, rejected = 0;
  const findings: string[] = [];
  const kinds: Record<string, number> = {};
  for (let s = seed0; cases < total; s++) {
    const st = fuzzModels(dir, base, Math.min(CHUNK, total - cases), s);
    cases += st.cases; ran += st.ran; rejected += st.rejected;
    findings.push(...st.findings);
    for (const [k, n] of Object.entries(st.byKind)) {
      const key = k.split(' + ')[0];
      kinds[key] = (kinds[key] ?? 0) + n;
    }
    process.stdout.write(`\r${cases}/${total} cases, ${findings.length} findings`);
  }
  const secs = (performance.now() - t0) / 1000;
  console.log(`\n${cases} cases in ${secs.toFixed(1)} s: ${ran} loaded and ran, ${rejected} rejected with an error naming the file, ${findings.length} findings`);
  const rows = Object.entries(kinds).sort((a, b) => b[1] - a[1]).map(([k, n]) => [k, n]);
  console.log(table(['first mutation', 'cases'], rows));
  for (const f of findings.slice(0, 50)) console.log(f);
  if (process.argv.includes('--write')) {
    writeSection('Model file fuzz', `${cases} seeded mutations (seeds ${seed0}..) of a .pir model, a .pdmodel and their .pdiparams in ${secs.toFixed(1)} s: `
      + `${ran} loaded and ran, ${rejected} were rejected with an error naming the file, ${findings.length} findings (crashes, hangs or errors not naming the file).\n\n${table(['first mutation', 'cases'], rows)}`);
  }
  if (findings.length) process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
