// Thread scaling of an exported model in the predictor, per instruction: the plan is profiled at
// 1 and 2 threads (twice each, alternating; the better of the two per instruction), and the
// instructions of at least 200 us are listed from the worst 1 -> 2 thread speed-up up. Shows
// which kernels keep the second core idle or fight over memory. Prints only.
//   Run: npx tsx bench/thread_scaling.ts [model=resnet50] [batch=1]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { profileRows } from '../src/executor/profile_format.js';
import { native } from '../src/native.js';
import { chooseModels, randomInput, savedPlan, saveModel } from './export_zoo.js';
const [model] = chooseModels('thread_scaling', [process.argv[2] ?? 'resnet50']);
const b = Number(process.argv[3] ?? 1);
const dir = mkdtempSync(join(tmpdir(), 'scale-'));
const prefix = saveModel(model, dir, false);
const { exe, bound } = savedPlan(prefix, true);
const x = randomInput(model, b);
const res: Map<number, { d: string; t: number[] }> = new Map();
for (const t of [1, 2, 1, 2]) {
  native.numThreads(t);
  const prof = exe.profile([x], 21, bound);
  const p = prof.lowered;
  for (const r of profileRows(prof)) {
    const I = p.instrs[r.instr];
    const shapes = [...I.ins, ...I.outs].map((s) => JSON.stringify(p.slots[s].shape));
    const e = res.get(r.instr) ?? { d: `${r.op} ${shapes.join(' ')}`, t: [] };
    e.t.push(r.us); res.set(r.instr, e);
  }
}
let s1 = 0, s2 = 0;
const rows = [...res.values()].map((e) => ({ d: e.d, t1: Math.min(e.t[0], e.t[2]), t2: Math.min(e.t[1], e.t[3]) }));
for (const r of rows) { s1 += r.t1; s2 += r.t2; }
rows.sort((a, c) => (c.t1 - c.t2) - (a.t1 - a.t2));
console.log(`total 1T ${(s1 / 1e3).toFixed(2)} ms 2T ${(s2 / 1e3).toFixed(2)} ms scale ${(s1 / s2).toFixed(2)}`);
const byScale = [...rows].filter((r) => r.t1 > 200).sort((a, c) => a.t1 / a.t2 - c.t1 / c.t2);
for (const r of byScale.slice(0, 25)) console.log(`${(r.t1 / r.t2).toFixed(2)}  1T ${r.t1.toFixed(0)}us 2T ${r.t2.toFixed(0)}us  ${r.d}`);
rmSync(dir, { recursive: true, force: true });
