// The profiler: collects timed events from eager dispatch (one per top-level op call), captured
// graph runs (one per run, named by the translated function), SOT translations and user scopes
// (RecordEvent), then prints a per-op table and writes a Chrome trace (Perfetto's JSON format).
//
// Dispatch reaches the collector through setOpProfiler (src/ops/dispatch.ts): with no profiler
// running the hook is a single null check. Nesting is tracked with one depth counter so work
// inside an op or a graph (a composite op's inner ops, a small graph interpreted op by op, the
// executor run of a captured graph) is not counted twice.
import { setOpProfiler, type OpProfiler } from '../ops/dispatch.js';

export type EventKind = 'op' | 'graph' | 'translate' | 'user';

export interface ProfileEvent {
  readonly kind: EventKind;
  readonly name: string;
  /** Milliseconds since the profiler's time origin. */
  readonly start: number;
  readonly dur: number;
  readonly args?: Readonly<Record<string, string | number>>;
}

export interface SummaryRow { readonly name: string; readonly calls: number; readonly totalMs: number; readonly meanUs: number; readonly share: number; readonly ops?: number }

/** Summary sections, in print order, with their headings. */
const SECTIONS: readonly [EventKind, string][] = [
  ['op', 'Eager ops'], ['graph', 'Captured graphs'], ['translate', 'Translation'], ['user', 'User events'],
];

const now = (): number => performance.now();

export class Collector implements OpProfiler {
  readonly events: ProfileEvent[] = [];
  /** performance.now() at start(): event times are relative to it. */
  readonly origin = now();
  /** Wall time recorded (sum of start..stop intervals), for the share column. */
  wallMs = 0;
  private depth = 0;
  private openedAt = -1;

  /** Steps marked by Profiler.step(): times (relative ms) at which each step ended. */
  readonly steps: number[] = [];

  /** Starts receiving events (installs the dispatch hook). */
  open(): void {
    if (this.openedAt >= 0) return;
    this.openedAt = now();
    this.depth = 0;
    setOpProfiler(this);
  }

  /** Stops receiving events. */
  close(): void {
    if (this.openedAt < 0) return;
    this.wallMs += now() - this.openedAt;
    this.openedAt = -1;
    setOpProfiler(null);
  }

  get isOpen(): boolean { return this.openedAt >= 0; }

  // ---- dispatch hook (OpProfiler) -------------------------------------------------------------

  /** Start of an op or graph: a time for the outermost one, -1 for nested work. */
  enter(): number { return this.depth++ === 0 ? now() : -1; }

  exit(kind: 'op' | 'graph', name: string, t0: number, ops = 0): void {
    this.depth--;
    if (t0 < 0) return;
    const t1 = now();
    this.events.push({ kind, name, start: t0 - this.origin, dur: t1 - t0, args: kind === 'graph' ? { ops } : undefined });
  }

  /** Records a span that does not take part in op nesting (translation, user scopes). */
  span(kind: 'translate' | 'user', name: string, t0: number, args?: Record<string, string | number>): void {
    this.events.push({ kind, name, start: t0 - this.origin, dur: now() - t0, args });
  }

  markStep(): void { this.steps.push(now() - this.origin); }

  // ---- reports --------------------------------------------------------------------------------

  /** Rows per section: calls, total, mean and share of recorded wall time; sorted by total. */
  rows(kind: EventKind): SummaryRow[] {
    const by = new Map<string, { calls: number; total: number; ops: number }>();
    for (const e of this.events) {
      if (e.kind !== kind) continue;
      let r = by.get(e.name);
      if (!r) by.set(e.name, (r = { calls: 0, total: 0, ops: 0 }));
      r.calls++;
      r.total += e.dur;
      if (typeof e.args?.ops === 'number') r.ops = e.args.ops;
    }
    const wall = this.wallMs + (this.openedAt >= 0 ? now() - this.openedAt : 0);
    return [...by].map(([name, r]) => ({
      name, calls: r.calls, totalMs: r.total, meanUs: (r.total * 1000) / r.calls, share: wall > 0 ? (100 * r.total) / wall : 0,
      ...(kind === 'graph' ? { ops: r.ops } : {}),
    })).sort((a, b) => b.totalMs - a.totalMs || a.name.localeCompare(b.name));
  }

  /** The printed table: one section per event kind that has events. */
  summary(): string {
    const wall = this.wallMs + (this.openedAt >= 0 ? now() - this.openedAt : 0);
    const out: string[] = [`Profiler summary: ${wall.toFixed(2)} ms recorded${this.steps.length ? `, ${this.steps.length} steps` : ''}`];
    for (const [kind, title] of SECTIONS) {
      const rows = this.rows(kind);
      if (!rows.length) continue;
      const head = kind === 'graph' ? ['graph', 'ops', 'calls', 'total ms', 'mean µs', 'share %'] : [kind === 'op' ? 'op' : 'name', 'calls', 'total ms', 'mean µs', 'share %'];
      const body = rows.map((r) => [
        r.name, ...(kind === 'graph' ? [String(r.ops ?? 0)] : []), String(r.calls), r.totalMs.toFixed(3), r.meanUs.toFixed(1), r.share.toFixed(1),
      ]);
      const total = rows.reduce((a, r) => a + r.totalMs, 0), calls = rows.reduce((a, r) => a + r.calls, 0);
      body.push(['total', ...(kind === 'graph' ? [''] : []), String(calls), total.toFixed(3), ((total * 1000) / calls).toFixed(1), (wall > 0 ? (100 * total) / wall : 0).toFixed(1)]);
      out.push('', `${title}:`, ...table(head, body));
    }
    if (out.length === 1) out.push('(no events)');
    return out.join('\n');
  }

  /**
   * Chrome trace event format (also read by Perfetto): complete events ('X') with microsecond
   * times, one thread row per event kind so nesting stays readable, plus name metadata.
   */
  trace(): { traceEvents: object[]; displayTimeUnit: 'ms'; otherData: object } {
    const tid: Record<EventKind, number> = { op: 1, graph: 1, translate: 2, user: 3 };
    const meta = [
      { ph: 'M', name: 'process_name', pid: 1, tid: 0, args: { name: 'skiff' } },
      { ph: 'M', name: 'thread_name', pid: 1, tid: 1, args: { name: 'ops and graphs' } },
      { ph: 'M', name: 'thread_name', pid: 1, tid: 2, args: { name: 'translation' } },
      { ph: 'M', name: 'thread_name', pid: 1, tid: 3, args: { name: 'user events' } },
    ];
    const evs = this.events.map((e) => ({
      name: e.name, cat: e.kind, ph: 'X', pid: 1, tid: tid[e.kind],
      ts: Math.round(e.start * 1000 * 1000) / 1000, dur: Math.round(e.dur * 1000 * 1000) / 1000, ...(e.args ? { args: e.args } : {}),
    }));
    const steps = this.steps.map((t, i) => ({ name: `step ${i}`, cat: 'step', ph: 'i', s: 'g', pid: 1, tid: 1, ts: Math.round(t * 1000 * 1000) / 1000 }));
    return { traceEvents: [...meta, ...evs, ...steps], displayTimeUnit: 'ms', otherData: { producer: 'skiff profiler' } };
  }
}

function table(head: readonly string[], rows: readonly string[][]): string[] {
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  // Column 0 (names) is left-aligned, numbers right-aligned.
  const fmt = (r: readonly string[]) => r.map((c, i) => (i === 0 ? c.padEnd(w[i]) : c.padStart(w[i]))).join('  ');
  return [fmt(head), w.map((n) => '-'.repeat(n)).join('  '), ...rows.map(fmt)];
}

// ---- the process-wide collector seen by SOT and graph runs ----------------------------------------

let active: Collector | null = null;

/** The collector receiving events now (null when no profiler runs). */
export const activeCollector = (): Collector | null => active;

/** Makes c the collector (or none); returns the previous one. */
export function setActiveCollector(c: Collector | null): Collector | null {
  const prev = active;
  if (prev && prev !== c) prev.close();
  active = c;
  if (c) c.open();
  return prev;
}

/** Times fn as a span of `kind` when a profiler runs (translation); otherwise just calls it. */
export function profileSpan<R>(kind: 'translate' | 'user', name: string, fn: () => R, args?: Record<string, string | number>): R {
  const c = active;
  if (c === null) return fn();
  const t0 = now();
  try {
    return fn();
  } finally {
    c.span(kind, name, t0, args);
  }
}

/** Runs a graph run under the collector's op nesting (one row per graph). */
export function profileGraph<R>(name: string, ops: number, fn: () => R): R {
  const c = active;
  if (c === null) return fn();
  const t0 = c.enter();
  try {
    return fn();
  } finally {
    c.exit('graph', name, t0, ops);
  }
}
