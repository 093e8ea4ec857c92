// bench/results.md is shared by every benchmark: each owns one `## title` section and rewrites
// only that section, so benchmarks can run separately and in any order.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import os from 'node:os';

export const RESULTS_PATH = join(dirname(fileURLToPath(import.meta.url)), 'results.md');

const HEADER = `# Skiff benchmark results

Each section is written by one script in \`bench/\` (see its name). Machines are noisy: compare
ratios measured in the same run, and medians.
`;

/** Replaces (or appends) the section `## title` of bench/results.md with `body`. */
export function writeSection(title: string, body: string): void {
  let text = existsSync(RESULTS_PATH) ? readFileSync(RESULTS_PATH, 'utf8') : HEADER;
  const stamp = `_${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${os.cpus().length} cores, Node ${process.version}_`;
  const section = `## ${title}\n\n${stamp}\n\n${body.trim()}\n`;
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.trim() === `## ${title}`);
  if (start < 0) {
    text = `${text.trimEnd()}\n\n${section}`;
  } else {
    let end = lines.findIndex((l, i) => i > start && l.startsWith('## '));
    if (end < 0) end = lines.length;
    text = [...lines.slice(0, start), ...section.trimEnd().split('\n'), '', ...lines.slice(end)].join('\n');
  }
  writeFileSync(RESULTS_PATH, `${text.trimEnd()}\n`);
}

/** Median of samples. */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Markdown table from a header row and rows. */
export function table(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const fmt = (v: string | number) => (typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toPrecision(4)) : v);
  return [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.map(fmt).join(' | ')} |`)].join('\n');
}

/**
 * Median µs per call of a and b, and the median of per-pair ratios a/b. Each sample times a
 * then b (order swapped every sample) back to back, so a burst of load from other processes
 * hits one pair, not one side: the paired ratio is the robust figure on a shared machine.
 * Each side runs for at least `minMs` per sample, after a warm-up of 3 * minMs.
 */
export function timePair(a: () => void, b: () => void, samples: number, minMs: number): { a: number; b: number; ratio: number } {
  for (const fn of [a, b]) { const t0 = performance.now(); while (performance.now() - t0 < 3 * minMs) fn(); }
  const loop = (fn: () => void): number => {
    let reps = 0;
    const t0 = performance.now();
    let t = t0;
    while (t - t0 < minMs) { fn(); reps++; t = performance.now(); }
    return ((t - t0) * 1000) / reps;
  };
  const as: number[] = [], bs: number[] = [], ratios: number[] = [];
  for (let s = 0; s < samples; s++) {
    let ta: number, tb: number;
    if (s % 2) { tb = loop(b); ta = loop(a); } else { ta = loop(a); tb = loop(b); }
    as.push(ta); bs.push(tb); ratios.push(ta / tb);
  }
  return { a: median(as), b: median(bs), ratio: median(ratios) };
}

export interface CallTimes { med: number; best: number }
export interface CallTimeOptions {
  /** Keep calling for at least this long (ms) once minReps calls ran; default 500. */
  minMs?: number;
  minReps?: number;
  /** Stop after this many timed calls even before minMs; default 200. */
  maxReps?: number;
}

/** Median and best ms per call of fn, each call timed alone, after 2 warm-up calls. */
export function timeCalls(fn: () => void, o: CallTimeOptions = {}): CallTimes {
  for (let i = 0; i < 2; i++) fn();
  return collect(o, () => { const t0 = performance.now(); fn(); return performance.now() - t0; });
}

/** timeCalls for functions returning promises (each awaited before the next). */
export async function timeCallsAsync(fn: () => unknown, o: CallTimeOptions = {}): Promise<CallTimes> {
  for (let i = 0; i < 2; i++) await fn();
  const { minMs = 500, minReps = 5, maxReps = 200 } = o;
  const ts: number[] = [];
  const start = performance.now();
  while (ts.length < minReps || (performance.now() - start < minMs && ts.length < maxReps)) {
    const t0 = performance.now();
    await fn();
    ts.push(performance.now() - t0);
  }
  return { med: median(ts), best: Math.min(...ts) };
}

function collect(o: CallTimeOptions, once: () => number): CallTimes {
  const { minMs = 500, minReps = 5, maxReps = 200 } = o;
  const ts: number[] = [];
  const start = performance.now();
  while (ts.length < minReps || (performance.now() - start < minMs && ts.length < maxReps)) ts.push(once());
  return { med: median(ts), best: Math.min(...ts) };
}
