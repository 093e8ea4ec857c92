// Per-instruction profile of the predictor on exported zoo models: where a run's time goes, per
// instruction (top ones, with shapes) and per op. Each model is saved with paddle.jit.save
// (symbolic batch, as bench/export_latency.ts does) and loaded back; the plan runs with the
// native runner timing each instruction (Executable.profile). Prints only (no results.md section):
// this is the tool for finding what to optimise next; export_latency.ts has the ORT comparison.
//   Run: npx tsx bench/predictor_profile.ts [--no-const] [--runs N] [--batch 1,8] [--top N] [--threads T] [model...]
//   (models: lenet resnet18 resnet50 mobilenet_v2 bert_tiny gpt_mini; --no-const compiles without
//   constantParams, i.e. GEMM/conv weights are packed on every run)
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatProfile } from '../src/executor/index.js';
import { native } from '../src/native.js';
import { chooseModels, randomInput, savedPlan, saveModel } from './export_zoo.js';

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => { const i = args.indexOf(name); if (i < 0) return undefined; const v = args[i + 1]; args.splice(i, 2); return v; };
const noConst = args.includes('--no-const');
if (noConst) args.splice(args.indexOf('--no-const'), 1);
const runs = Number(flag('--runs') ?? 10);
const top = Number(flag('--top') ?? 12);
const threads = Number(flag('--threads') ?? 2);
const batches = (flag('--batch') ?? '1,8').split(',').map(Number);
const chosen = chooseModels('predictor_profile', args);

native.numThreads(threads);
console.log(`load ${loadavg().map((l) => l.toFixed(2)).join(' / ')}; ${threads} threads; constantParams ${!noConst}; ${runs} runs`);
const dir = mkdtempSync(join(tmpdir(), 'skiff-profile-'));
try {
  for (const m of chosen) {
    const { exe, bound } = savedPlan(saveModel(m, dir), !noConst);
    for (const b of batches) {
      const x = randomInput(m, b);
      console.log(`\n== ${m.name} batch ${b}`);
      console.log(formatProfile(exe.profile([x], runs, bound), top));
      x.dispose();
    }
    exe.dispose();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
