// Per-instruction profile of a lowered program (Executable.profile): where a plan's run time goes.
// Two tables: the instructions that take the most time, each with its input and output shapes,
// and the totals per op. Times are per-run medians in µs; share is of the summed instruction time
// (the rest of run() — binding, output handles — is the difference to the run median, printed too).
import { DTYPE_SHORT } from '../pir/types.js';
import type { PlanProfile } from './executable.js';
import type { LoweredProgram } from './types.js';

export interface ProfileRow { instr: number; kind: string; op: string; shapes: string; us: number; share: number }

const shapeOf = (p: LoweredProgram, s: number): string => `${DTYPE_SHORT[p.slots[s].dtype]}[${p.slots[s].shape.join(',')}]`;
const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : 0;
};

/** One row per instruction, in program order. */
export function profileRows(prof: PlanProfile): ProfileRow[] {
  const p = prof.lowered;
  const total = prof.ns.reduce((a, b) => a + b, 0) || 1;
  return p.instrs.map((I, k) => ({
    instr: k, kind: I.kind, op: I.op,
    shapes: `${I.ins.map((s) => shapeOf(p, s)).join(' ')} -> ${I.outs.map((s) => shapeOf(p, s)).join(' ')}`,
    us: prof.ns[k] / 1e3, share: (100 * prof.ns[k]) / total,
  }));
}

/** Per-op totals: calls per run, µs per run, share. Sorted by time. */
export function profileByOp(prof: PlanProfile): { op: string; calls: number; us: number; share: number }[] {
  const by = new Map<string, { op: string; calls: number; us: number; share: number }>();
  for (const r of profileRows(prof)) {
    const key = r.kind === 'kernel' ? r.op : `${r.kind} ${r.op}`;
    const e = by.get(key) ?? { op: key, calls: 0, us: 0, share: 0 };
    e.calls++; e.us += r.us; e.share += r.share;
    by.set(key, e);
  }
  return [...by.values()].sort((a, b) => b.us - a.us);
}

/** Text report: run median vs summed instructions, the top `top` instructions, and per-op totals. */
export function formatProfile(prof: PlanProfile, top = 15): string {
  const rows = profileRows(prof);
  const sum = rows.reduce((a, r) => a + r.us, 0);
  const lines = [`${prof.runs} runs: run() median ${(median(prof.runMs) * 1e3).toFixed(1)} µs, instructions ${sum.toFixed(1)} µs per run (${rows.length} instructions)`];
  lines.push('top instructions          µs/run   share  shapes');
  for (const r of [...rows].sort((a, b) => b.us - a.us).slice(0, top))
    lines.push(`  #${String(r.instr).padEnd(4)} ${r.op.padEnd(20).slice(0, 20)} ${r.us.toFixed(1).padStart(8)} ${r.share.toFixed(1).padStart(6)}%  ${r.shapes}`);
  lines.push('per op                    calls   µs/run   share');
  for (const o of profileByOp(prof))
    lines.push(`  ${o.op.padEnd(24).slice(0, 24)} ${String(o.calls).padStart(5)} ${o.us.toFixed(1).padStart(8)} ${o.share.toFixed(1).padStart(6)}%`);
  return `${lines.join('\n')}\n`;
}
