// A/B of the residual fusion on a saved ResNet (the predictor's plan): the program as saved (each
// block ends in one fused_conv2d_add_act with residual_data) against the same program with those
// ops split back into conv (bias only) + add + activation. Both run with constant weights on
// `--threads` threads; CPU time per run (process.cpuUsage: the work done, usable while other
// processes load the machine) and wall time, medians over interleaved blocks. Prints only.
//   Run: npx tsx bench/resnet_residual_ab.ts [--threads 1] [--batch 1,8] [--model resnet50]
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { compile, fromPir } from '../src/executor/index.js';
import { readModel } from '../src/jit/load.js';
import { native } from '../src/native.js';
import { toAttrValue } from '../src/pir/attributes.js';
import { Builder, type Program } from '../src/pir/index.js';
import { chooseModels, randomInput, saveModel } from './export_zoo.js';
import { median } from './results.js';

const args = process.argv.slice(2);
const flag = (name: string, d: string): string => { const i = args.indexOf(name); return i < 0 ? d : args[i + 1]; };
const threads = Number(flag('--threads', '1'));
const batches = flag('--batch', '1,8').split(',').map(Number);
const [model] = chooseModels('resnet_residual_ab', [flag('--model', 'resnet50')]);
native.numThreads(threads);

/** Splits every fused conv with a residual into fused conv (no residual, identity) + add + act. */
function unfuse(p: Program): number {
  let n = 0;
  for (const op of p.allOps()) {
    if (op.name !== 'pd_op.fused_conv2d_add_act' || op.operand(3) === null) continue;
    const b = new Builder(p).setInsertionPointBefore(op);
    const attrs: Record<string, unknown> = {};
    for (const k of ['stride', 'padding', 'dilation', 'groups', 'data_format']) attrs[k] = toAttrValue(op.attr(k)!, op.name);
    const act = String(toAttrValue(op.attr('activation')!, op.name));
    const [y] = b.pd('fused_conv2d_add_act', [op.operand(0)!, op.operand(1)!, op.operand(2), null], { ...attrs, activation: 'identity' });
    const [s] = b.pd('add', [y, op.operand(3)!]);
    const [o] = act === 'identity' ? [s] : b.pd(act, [s]);
    op.results[0].replaceAllUsesWith(o);
    op.erase();
    n++;
  }
  return n;
}

const dir = mkdtempSync(join(tmpdir(), 'skiff-res-ab-'));
try {
  console.log(`load ${loadavg().map((l) => l.toFixed(2)).join(' / ')}; ${threads} threads`);
  const prefix = saveModel(model, dir);
  const m = readModel(prefix);
  const byName = new Map(m.header.params.map((p, i) => [p.name, m.params[i]]));
  const split = m.program.clone();
  console.log(`${unfuse(split)} fused residual ops split back`);
  const exes = [m.program, split].map((p) => {
    const g = fromPir(p);
    return { exe: compile(g.graph, { hostFns: g.hostFns, constantParams: true }), bound: [...g.params.map((n) => byName.get(n)!), ...g.constants] };
  });
  for (const batch of batches) {
    const x = randomInput(model, batch);
    const reps = batch === 1 ? 6 : 2;
    const block = (k: number): [number, number] => {
      const { exe, bound } = exes[k];
      for (const t of exe.run([x], bound)) t.dispose();
      const c0 = process.cpuUsage(), t0 = performance.now();
      for (let i = 0; i < reps; i++) for (const t of exe.run([x], bound)) t.dispose();
      const c = process.cpuUsage(c0);
      return [(c.user + c.system) / 1e3 / reps, (performance.now() - t0) / reps];
    };
    const cf: number[] = [], cu: number[] = [], wf: number[] = [], wu: number[] = [], rc: number[] = [];
    for (let i = 0; i < 9; i++) {
      const order = i % 2 ? [1, 0] : [0, 1];
      const r: [number, number][] = [];
      for (const k of order) r[k] = block(k);
      cf.push(r[0][0]); wf.push(r[0][1]); cu.push(r[1][0]); wu.push(r[1][1]); rc.push(r[0][0] / r[1][0]);
    }
    // Where the difference is: the block ends (fused with residual / conv + add + act) by output size.
    const byHw = (k: number): Map<string, number> => {
      const prof = exes[k].exe.profile([x], batch === 1 ? 15 : 5, exes[k].bound);
      const out = new Map<string, number>();
      prof.lowered.instrs.forEach((I, i) => {
        const res = I.op === 'fused_conv2d_add_act' && I.ins.length === 4;
        const follow = I.op === 'add' || I.op === 'relu' || (I.op === 'fused_conv2d_add_act' && prof.lowered.instrs[i + 1]?.op === 'add');
        if (!res && !follow) return;
        const sh = prof.lowered.slots[I.outs[0]].shape;
        const key = `${sh[1]}x${sh[2]}x${sh[3]}`;
        out.set(key, (out.get(key) ?? 0) + prof.ns[i] / 1e6);
      });
      return out;
    };
    const pf = byHw(0), pu = byHw(1);
    console.log(`  block ends by output (ms, profile medians): ${[...pf.keys()].map((k) => `${k} fused ${pf.get(k)!.toFixed(2)} / split ${pu.get(k)?.toFixed(2)}`).join('; ')}`);
    console.log(`batch ${batch}: fused CPU ${median(cf).toFixed(2)} ms (wall ${median(wf).toFixed(2)}), split CPU ${median(cu).toFixed(2)} ms (wall ${median(wu).toFixed(2)}), fused/split CPU ${median(rc).toFixed(3)}`);
    x.dispose();
  }
  for (const e of exes) e.exe.dispose();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
