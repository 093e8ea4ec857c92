// The `_skiff_profiler` module behind compat/paddle/profiler: Python's Profiler keeps its own
// scheduler state machine (its scheduler and on_trace_ready are Python callables) and drives
// TypeScript collectors (src/profiler) by id; RecordEvent scopes land in the active collector.
import { writeFileSync } from 'node:fs';
import { activeCollector, Collector, setActiveCollector } from '../../src/profiler/profiler.js';

export function profilerModule(): Record<string, unknown> {
  const collectors = new Map<number, Collector>();
  let next = 1;
  const get = (id: number): Collector => {
    const c = collectors.get(id);
    if (!c) throw new Error(`profiler: no recording with id ${id} (it was released)`);
    return c;
  };
  return {
    /** Starts a new recording (the active collector); returns its id. */
    open: (): number => {
      const c = new Collector();
      collectors.set(next, c);
      setActiveCollector(c);
      return next++;
    },
    close: (id: number): void => {
      const c = get(id);
      if (activeCollector() === c) setActiveCollector(null);
      else c.close();
    },
    release: (id: number): void => { collectors.delete(id); },
    mark_step: (id: number): void => get(id).markStep(),
    summary: (id: number): string => get(id).summary(),
    trace_json: (id: number): string => JSON.stringify(get(id).trace()),
    /** Writes the trace from the host side (a path of the host file system, as the CLI sees it). */
    export_trace: (id: number, path: string): void => writeFileSync(path, JSON.stringify(get(id).trace())),
    rows: (id: number, kind: string): string => JSON.stringify(get(id).rows(kind as 'op')),
    now: (): number => performance.now(),
    /** A RecordEvent scope that began at t0 (now()), recorded if a profiler is recording. */
    user_span: (name: string, t0: number): void => { activeCollector()?.span('user', name, t0); },
    recording: (): boolean => activeCollector() !== null,
  };
}
