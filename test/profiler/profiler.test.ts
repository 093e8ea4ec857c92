// The profiler in TypeScript: the dispatch hook is installed only while recording, the summary
// counts calls per op / per graph run, nesting is not double counted, the Chrome trace has the
// expected structure, schedulers follow Paddle's states, RecordEvent scopes land in the table.
// Never asserts timings.
import { describe, expect, it } from 'vitest';
import { compile, GraphBuilder } from '../../src/executor/index.js';
import { setOpProfiler } from '../../src/ops/dispatch.js';
import { paddle } from '../../src/paddle.js';
import { activeCollector, make_scheduler, Profiler, ProfilerState, RecordEvent } from '../../src/profiler/index.js';
import type { Tensor } from '../../src/tensor/tensor.js';

type T = Tensor;
const P = paddle as unknown as Record<string, (...a: unknown[]) => T>;

describe('profiler', () => {
  it('installs the dispatch hook only while recording', () => {
    expect(setOpProfiler(null)).toBeNull();
    const prof = new Profiler();
    prof.start();
    const during = setOpProfiler(null);
    expect(during).not.toBeNull();
    setOpProfiler(during);
    prof.stop();
    expect(setOpProfiler(null)).toBeNull();
    expect(activeCollector()).toBeNull();
  });

  it('counts eager op calls, user scopes and graph runs', () => {
    const x = P.ones([4, 4]);
    const prof = new Profiler();
    prof.scope(() => {
      for (let i = 0; i < 3; i++) P.tanh(P.add(x, x));
      new RecordEvent('block').scope(() => P.exp(x));
      const g = new GraphBuilder();
      const a = g.input('float32', [4, 4]);
      g.output(g.op1('tanh', [g.op1('matmul', [a, a])]));
      const exe = compile(g.build());
      exe.run([x]);
      exe.run([x]);
    });
    const ops = new Map(prof.collector.rows('op').map((r) => [r.name, r.calls]));
    expect(ops.get('add')).toBe(3);
    expect(ops.get('tanh')).toBe(3);
    expect(ops.get('exp')).toBe(1);
    expect(ops.has('matmul')).toBe(false);   // inside the graph run: not an eager op
    const graphs = prof.collector.rows('graph');
    expect(graphs).toHaveLength(1);
    expect(graphs[0]).toMatchObject({ name: 'executor program', calls: 2, ops: 2 });
    expect(prof.collector.rows('user').map((r) => [r.name, r.calls])).toEqual([['block', 1]]);
    const text = prof.summary();
    for (const s of ['Eager ops:', 'Captured graphs:', 'User events:', 'calls', 'total ms', 'mean µs', 'share %']) expect(text).toContain(s);
    expect(text).toMatch(/^add\s+3\s/m);
    // Nothing recorded after stop.
    P.add(x, x);
    expect(prof.collector.rows('op').find((r) => r.name === 'add')!.calls).toBe(3);
  });

  it('writes a Chrome trace', () => {
    const x = P.ones([2]);
    const prof = new Profiler();
    prof.scope(() => { P.add(x, x); prof.step(); P.exp(x); });
    const tr = prof.collector.trace();
    expect(tr.displayTimeUnit).toBe('ms');
    const evs = tr.traceEvents as { ph: string; name: string; cat?: string; ts?: number; dur?: number; pid: number; tid: number }[];
    const complete = evs.filter((e) => e.ph === 'X');
    expect(complete.map((e) => e.name)).toEqual(['add', 'exp']);
    for (const e of complete) {
      expect(e.cat).toBe('op');
      expect(typeof e.ts).toBe('number');
      expect(e.dur).toBeGreaterThanOrEqual(0);
    }
    expect(evs.filter((e) => e.ph === 'M').map((e) => e.name)).toContain('process_name');
    expect(evs.filter((e) => e.ph === 'i')).toHaveLength(1);   // the step mark
    expect(complete[0].ts!).toBeLessThanOrEqual(complete[1].ts!);
  });

  it('follows the scheduler: only RECORD steps are recorded, on_trace_ready at the end of each', () => {
    const s = make_scheduler({ closed: 1, ready: 1, record: 2, repeat: 1 });
    expect([0, 1, 2, 3, 4].map(s)).toEqual([ProfilerState.CLOSED, ProfilerState.READY, ProfilerState.RECORD, ProfilerState.RECORD_AND_RETURN, ProfilerState.CLOSED]);
    const x = P.ones([2]);
    const ready: number[] = [];
    const prof = new Profiler({ scheduler: [1, 3], on_trace_ready: (p) => ready.push(p.collector.rows('op').reduce((a, r) => a + r.calls, 0)) });
    prof.start();
    for (let step = 0; step < 5; step++) {
      P.add(x, x);
      prof.step();
    }
    prof.stop();
    expect(ready).toEqual([2]);   // steps 1 and 2
    expect(() => new Profiler({ scheduler: [3, 1] })).toThrow(/Profiler: scheduler range/);
    expect(() => make_scheduler({ closed: -1, ready: 0, record: 1 })).toThrow(/make_scheduler: closed/);
  });
});
