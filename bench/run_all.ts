// `npm run bench`: every benchmark in bench/, one process each, one after another (running them
// side by side would make each one's figures meaningless on a 2-core machine). Each rewrites its
// own section of bench/results.md. `npm run bench -- gemm sot` runs only those; the clean-clone
// install/test timing (ci_times) runs only when named, as it takes minutes.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const HELPERS = new Set(['results', 'run_all', 'onnx_matmul_model']);
const ON_REQUEST = new Set(['ci_times']);

const all = readdirSync(here).filter((f) => f.endsWith('.ts')).map((f) => f.slice(0, -3)).filter((n) => !HELPERS.has(n)).sort();
const asked = process.argv.slice(2);
for (const a of asked) if (!all.includes(a)) throw new Error(`bench: no benchmark '${a}' (have: ${all.join(', ')})`);
const chosen = asked.length ? asked : all.filter((n) => !ON_REQUEST.has(n));

let failed = 0;
for (const name of chosen) {
  console.log(`\n=== bench/${name}.ts`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(here, `${name}.ts`)], { stdio: 'inherit' });
  if (r.status !== 0) { failed++; console.error(`bench/${name}.ts failed (exit ${r.status})`); }
}
process.exit(failed ? 1 : 0);
