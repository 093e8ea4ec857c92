// paddle.profiler for TypeScript (Python's compat/paddle/profiler wraps the same collector):
// Profiler with Paddle 2.6's scheduler states, step(), summary(), export(); RecordEvent scopes;
// make_scheduler and export_chrome_tracing.
//
//   const prof = new paddle.profiler.Profiler({ scheduler: [1, 3] });
//   prof.start();
//   for (let i = 0; i < 4; i++) { train(); prof.step(); }
//   prof.stop();
//   console.log(prof.summary());
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { activeCollector, Collector, setActiveCollector } from './profiler.js';

export { Collector, activeCollector, profileGraph, profileSpan, setActiveCollector } from './profiler.js';

/** Paddle's ProfilerState: what the scheduler asks for at a step. */
export const ProfilerState = { CLOSED: 0, READY: 1, RECORD: 2, RECORD_AND_RETURN: 3 } as const;
export type ProfilerStateValue = (typeof ProfilerState)[keyof typeof ProfilerState];
export const ProfilerTarget = { CPU: 0, GPU: 1, CUSTOM_DEVICE: 3 } as const;
export const SortedKeys = { CPUTotal: 0, CPUAvg: 1, CPUMax: 2, CPUMin: 3, GPUTotal: 4, GPUAvg: 5, GPUMax: 6, GPUMin: 7 } as const;

export type Scheduler = (step: number) => ProfilerStateValue;

function checkCount(fn: string, name: string, v: number): number {
  if (!Number.isInteger(v) || v < 0) throw new RangeError(`${fn}: ${name} must be a non-negative integer, got ${v}`);
  return v;
}

/**
 * Paddle's make_scheduler: after skip_first steps, cycles of `closed` idle steps, `ready` warm-up
 * steps and `record` recorded steps (the last one returns the trace), `repeat` times (0: forever).
 */
export function make_scheduler(o: { closed: number; ready: number; record: number; repeat?: number; skip_first?: number }): Scheduler {
  const closed = checkCount('make_scheduler', 'closed', o.closed), ready = checkCount('make_scheduler', 'ready', o.ready);
  const record = checkCount('make_scheduler', 'record', o.record);
  const repeat = checkCount('make_scheduler', 'repeat', o.repeat ?? 0), skip = checkCount('make_scheduler', 'skip_first', o.skip_first ?? 0);
  if (record < 1) throw new RangeError(`make_scheduler: record must be at least 1, got ${record}`);
  const period = closed + ready + record;
  return (step) => {
    if (step < skip) return ProfilerState.CLOSED;
    const s = step - skip;
    if (repeat > 0 && Math.floor(s / period) >= repeat) return ProfilerState.CLOSED;
    const m = s % period;
    if (m < closed) return ProfilerState.CLOSED;
    if (m < closed + ready) return ProfilerState.READY;
    return m === period - 1 ? ProfilerState.RECORD_AND_RETURN : ProfilerState.RECORD;
  };
}

/** A [start, end) step range as a scheduler (Paddle accepts the tuple form). */
function rangeScheduler(start: number, end: number): Scheduler {
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end <= start)
    throw new RangeError(`Profiler: scheduler range must be [start, end) with 0 <= start < end, got [${start}, ${end}]`);
  return (step) => (step < start || step >= end ? ProfilerState.CLOSED : step === end - 1 ? ProfilerState.RECORD_AND_RETURN : ProfilerState.RECORD);
}

/** on_trace_ready handler writing `<dir>/<worker>_time_<stamp>.paddle_trace.json`. */
export function export_chrome_tracing(dir_name: string, worker_name?: string): (prof: Profiler) => void {
  return (prof) => {
    mkdirSync(dir_name, { recursive: true });
    const stamp = new Date().toISOString().replace(/[-:T.Z]/g, '').slice(0, 17);
    prof.export(join(dir_name, `${worker_name ?? `host_${process.pid}`}_time_${stamp}.paddle_trace.json`));
  };
}

export interface ProfilerOptions {
  targets?: readonly number[];
  scheduler?: Scheduler | readonly [number, number] | null;
  on_trace_ready?: ((prof: Profiler) => void) | null;
  /** Accepted for compatibility: Skiff records times only. */
  timer_only?: boolean;
  record_shapes?: boolean;
  profile_memory?: boolean;
}

const isRecording = (s: ProfilerStateValue): boolean => s === ProfilerState.RECORD || s === ProfilerState.RECORD_AND_RETURN;

export class Profiler {
  /** Events of the last finished (or current) recording. */
  collector = new Collector();
  step_num = 0;
  private state: ProfilerStateValue = ProfilerState.CLOSED;
  private running = false;
  private readonly scheduler: Scheduler;
  private readonly onReady: ((prof: Profiler) => void) | null;

  constructor(opts: ProfilerOptions = {}) {
    const s = opts.scheduler;
    if (s == null) this.scheduler = () => ProfilerState.RECORD;
    else if (typeof s === 'function') this.scheduler = s;
    else if (Array.isArray(s) && s.length === 2) this.scheduler = rangeScheduler(s[0], s[1]);
    else throw new TypeError(`Profiler: scheduler must be a function or a [start, end) pair, got ${JSON.stringify(s)}`);
    this.onReady = opts.on_trace_ready ?? null;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.enterState(this.stateAt(this.step_num));
  }

  /** Ends a step; the scheduler picks the next state (a finished recording goes to on_trace_ready). */
  step(_num_samples?: number): void {
    if (!this.running) return;
    if (isRecording(this.state)) this.collector.markStep();
    const prev = this.state;
    this.step_num++;
    const next = this.stateAt(this.step_num);
    if (prev === ProfilerState.RECORD_AND_RETURN) this.finishRecording();
    else if (isRecording(prev) && !isRecording(next)) this.finishRecording();
    this.enterState(next);
  }

  stop(): void {
    if (!this.running) return;
    if (isRecording(this.state)) this.finishRecording();
    this.state = ProfilerState.CLOSED;
    this.running = false;
  }

  /** Runs fn between start() and stop(). */
  scope<R>(fn: (prof: Profiler) => R): R {
    this.start();
    try {
      return fn(this);
    } finally {
      this.stop();
    }
  }

  /** The per-op table (eager ops, captured graphs, translation, user events). */
  summary(_opts: { sorted_by?: number; op_detail?: boolean; thread_sep?: boolean; time_unit?: string; views?: unknown } = {}): string {
    return this.collector.summary();
  }

  /** Writes the Chrome trace JSON (format 'json'; Perfetto opens it too). */
  export(path: string, format = 'json'): void {
    if (format !== 'json') throw new Error(`Profiler.export: format '${format}' is not supported (only 'json', the Chrome trace format)`);
    writeFileSync(path, JSON.stringify(this.collector.trace()));
  }

  private stateAt(step: number): ProfilerStateValue {
    const s = this.scheduler(step);
    if (s !== 0 && s !== 1 && s !== 2 && s !== 3) throw new TypeError(`Profiler: the scheduler returned ${String(s)} for step ${step}, not a ProfilerState`);
    return s;
  }

  private enterState(s: ProfilerStateValue): void {
    const was = isRecording(this.state) && this.collector.isOpen;
    this.state = s;
    if (isRecording(s) && !was) {
      this.collector = new Collector();
      setActiveCollector(this.collector);
    }
  }

  private finishRecording(): void {
    if (activeCollector() === this.collector) setActiveCollector(null);
    else this.collector.close();
    this.state = ProfilerState.CLOSED;
    this.onReady?.(this);
  }
}

/**
 * A named user scope shown in the summary and the trace. begin()/end(), or scope(fn).
 * Records only while a profiler is recording.
 */
export class RecordEvent {
  private t0 = -1;
  private target: Collector | null = null;
  constructor(readonly name: string, readonly event_type?: number) {
    if (typeof name !== 'string' || !name) throw new TypeError(`RecordEvent: name must be a non-empty string, got ${JSON.stringify(name)}`);
  }
  begin(): void {
    this.target = activeCollector();
    this.t0 = this.target ? performance.now() : -1;
  }
  end(): void {
    if (this.target && this.t0 >= 0) this.target.span('user', this.name, this.t0);
    this.target = null;
    this.t0 = -1;
  }
  scope<R>(fn: () => R): R {
    this.begin();
    try {
      return fn();
    } finally {
      this.end();
    }
  }
}

export const profilerNamespace = {
  Profiler, RecordEvent, ProfilerState, ProfilerTarget, SortedKeys, make_scheduler, export_chrome_tracing,
};
