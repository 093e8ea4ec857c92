// The JS side of compat/paddle/static: the `_skiff_static` module. Python holds program values
// as ids (a Variable's `_vid` is the PIR Value's id, counted here per Python reference) and
// programs as ids; feeds and results cross as tensor handles of the main bridge's table. Like
// the bridge, entries take numbers and strings only and return 0 on failure, after which Python
// asks `last_error()`.
//
// Ops on Variables go through the main bridge's `call` (tag 'v' reads a value from
// `staticValues`, and Value results come back as 'v<id>,...'), so they are recorded by
// src/static's recorder exactly as TypeScript calls are.
import { Value } from '../../src/pir/index.js';
import {
  append_backward, bindParameter, data, gradients, default_main_program, default_startup_program, disable_static, enable_static, Executor, global_scope, in_static_mode,
  nameOfValue, Program, ProgramGuard, type FetchTarget,
} from '../../src/static/index.js';
import { ownedView } from '../../src/static/scope.js';
import { CondBuilder, WhileBuilder } from '../../src/static/control_flow.js';
import { exportOnnx } from '../../src/jit/onnx/export.js';
import { Tensor, untracked } from '../../src/tensor/tensor.js';
import type { Bridge } from './bridge.js';
import { pyErrorOf } from './errors.js';

/** Program values Python holds, with one count per Python reference. */
export class ValueTable {
  private readonly values = new Map<number, { v: Value; refs: number }>();
  add(v: Value): number {
    const e = this.values.get(v.id);
    if (e) e.refs++;
    else this.values.set(v.id, { v, refs: 1 });
    return v.id;
  }
  get(id: number): Value {
    const e = this.values.get(id);
    if (!e) throw new Error(`skiff bridge: invalid static value id ${id}`);
    return e.v;
  }
  release(id: number): void {
    const e = this.values.get(id);
    if (e && --e.refs <= 0) this.values.delete(id);
  }
  get live(): number { return this.values.size; }
}

export const staticValues = new ValueTable();

const SEP = '\u0001';

/** The object registered as the Python module `_skiff_static`. */
export function staticModule(bridge: Bridge): Record<string, unknown> {
  const programs = new Map<number, Program>();
  const ids = new WeakMap<Program, number>();
  const guards: ProgramGuard[] = [];
  const exe = new Executor();
  let nextProgram = 1;
  let lastError: unknown = null;

  const idOf = (p: Program): number => {
    let id = ids.get(p);
    if (id === undefined) { id = nextProgram++; ids.set(p, id); programs.set(id, p); }
    return id;
  };
  const program = (id: number): Program => {
    const p = programs.get(id);
    if (!p) throw new Error(`skiff bridge: invalid program id ${id}`);
    return p;
  };
  const flow = new Map<number, CondBuilder | WhileBuilder>();
  let nextFlow = 0;
  const flowOf = (h: number): CondBuilder | WhileBuilder => {
    const f = flow.get(h);
    if (!f) throw new Error(`skiff bridge: invalid control-flow builder ${h}`);
    return f;
  };
  /** Decodes control-flow items; single: the lone item itself, else a list ('' = empty list / None). */
  const outOf = (spec: string, single: number): unknown => {
    const items = spec === '' ? [] : spec.split(SEP).map((f) => {
      const rest = f.slice(1);
      if (f[0] === 'v') return staticValues.get(Number(rest));
      if (f[0] === 't') return bridge.handles.get(Number(rest));
      if (f[0] === 'b') return rest === '1';
      return Number(rest);
    });
    return single ? (items[0] ?? null) : items;
  };
  /** Runs an entry: failures return 0 and keep the error for last_error(). */
  const guarded = <A extends unknown[], R>(f: (...a: A) => R) => (...a: A): R | 0 => {
    try { return f(...a); } catch (e) { lastError = e; return 0; }
  };

  return {
    set_static: guarded((on: boolean) => { if (on) enable_static(); else disable_static(); return 1; }),
    in_static: () => in_static_mode(),
    program_new: guarded(() => idOf(new Program())),
    program_default: guarded((startup: boolean) => idOf(startup ? default_startup_program() : default_main_program())),
    program_clone: guarded((id: number, forTest: boolean) => idOf(program(id).clone(Boolean(forTest)))),
    program_free: (id: number) => {
      const p = programs.get(id);
      if (!p || p === default_main_program() || p === default_startup_program()) return;
      programs.delete(id);
      p.dispose();
    },
    program_text: guarded((id: number) => String(program(id))),
    program_num_ops: guarded((id: number) => program(id).num_ops),
    guard_enter: guarded((main: number, startup: number) => {
      guards.push(new ProgramGuard(program(main), startup ? program(startup) : null).enter());
      return 1;
    }),
    guard_exit: guarded((main: number) => {
      const g = guards[guards.length - 1];
      if (!g || g.main !== program(main)) throw new Error('program_guard: guards must be exited innermost first');
      g.exit();
      guards.pop();
      return 1;
    }),
    /** dims: comma-separated, -1 for None; '' for a 0-dim feed. */
    data: guarded((name: string, dims: string, dtype: string) => {
      const shape = dims === '' ? [] : dims.split(',').map(Number);
      return staticValues.add(data(name, shape, dtype));
    }),
    /** Makes the eager tensor of handle h the parameter `name` of the current program. */
    bind_parameter: guarded((h: number, name: string) => staticValues.add(bindParameter(name, bridge.handles.get(h)))),
    /** 'dtype;d0,d1;name', symbolic dims as -1 (Paddle's Variable.shape). */
    value_meta: guarded((id: number) => {
      const v = staticValues.get(id);
      const dims = v.shape.map((d) => (typeof d === 'number' ? d : -1)).join(',');
      return `${v.dtype};${dims};${nameOfValue(v) ?? `value_${v.id}`}`;
    }),
    value_free: (...vids: number[]) => { for (const id of vids) staticValues.release(id); },
    feed_dtype: guarded((id: number, name: string) => {
      const v = program(id).valueByName(name);
      if (v?.definingOp?.name !== 'pd_op.data') throw new Error(`Executor.run: feed '${name}' is not a paddle.static.data of this program`);
      return v.dtype;
    }),
    /**
     * Executor.run: feed names joined by \u0001 with their tensor handles after; fetch items
     * joined by \u0001, each 'v<value id>', 'n<name>' or 't<tensor handle>'. Returns 'h1,h2' ('' for none).
     */
    run: guarded((id: number, feedNames: string, fetchSpec: string, ...handles: number[]) => {
      const names = feedNames === '' ? [] : feedNames.split(SEP);
      if (names.length !== handles.length) throw new Error(`skiff bridge: ${names.length} feed names for ${handles.length} tensors`);
      const feed: Record<string, Tensor> = {};
      names.forEach((n, i) => { feed[n] = bridge.handles.get(handles[i]); });
      const fetch_list: FetchTarget[] = (fetchSpec === '' ? [] : fetchSpec.split(SEP)).map((f) => {
        const rest = f.slice(1);
        if (f[0] === 'v') return staticValues.get(Number(rest));
        if (f[0] === 't') return bridge.handles.get(Number(rest));
        return rest;
      });
      const outs = untracked(() => exe.run(program(id), { feed, fetch_list }));
      return outs.map((t) => bridge.handles.add(t)).join(',');
    }),
    /** paddle.onnx.export (compat/paddle/onnx): ONNX bytes of a program for output value ids 'id,id'; Python writes the file. */
    onnx_export: guarded((id: number, outs: string, opset: number) =>
      exportOnnx(program(id), { opset, outputs: outs.split(',').map((i) => staticValues.get(Number(i))) })),
    /** global_scope().find_var(name).get_tensor(): a handle on the parameter's storage. */
    scope_tensor: guarded((name: string) => {
      const t = global_scope().get(name);
      if (!t) throw new Error(`global_scope: no variable named '${name}'`);
      return bridge.handles.add(untracked(() => ownedView(t)));
    }),
    /** append_backward: value ids as 'p:g,p:g'; params/no_grad as comma-separated ids ('' = default/none). */
    append_backward: guarded((loss: number, params: string, noGrad: string) => {
      const vs = (spec: string) => (spec === '' ? null : spec.split(',').map((i) => staticValues.get(Number(i))));
      return append_backward(staticValues.get(loss), vs(params), vs(noGrad)).map(([p, g]) => `${staticValues.add(p)}:${staticValues.add(g)}`).join(',') || '-';
    }),
    /** gradients: ids comma-separated ('' for no target_gradients / no_grad_set); results 'id' or '-' (None) each. */
    gradients: guarded((targets: string, inputs: string, seeds: string, noGrad: string) => {
      const vs = (spec: string) => spec.split(',').map((i) => (i === '-' ? null : staticValues.get(Number(i))));
      const gs = gradients(vs(targets) as Value[], vs(inputs) as Value[], seeds === '' ? null : vs(seeds), noGrad === '' ? null : (vs(noGrad) as Value[]));
      return gs.map((g) => (g ? String(staticValues.add(g)) : '-')).join(',');
    }),
    /** Variable.stop_gradient: 'T' / 'F'; set with on = 1 / 0. */
    value_stop_gradient: guarded((id: number) => ((staticValues.get(id) as unknown as { stop_gradient: boolean }).stop_gradient ? 'T' : 'F')),
    value_set_stop_gradient: guarded((id: number, on: number) => { (staticValues.get(id) as unknown as { stop_gradient: boolean }).stop_gradient = Boolean(on); return 1; }),
    // paddle.static.nn.cond / while_loop: Python runs the branch/body functions between these
    // calls (src/static/control_flow.ts builders). Items: 'v<id>', 't<handle>', 'n<number>', 'b0'/'b1', joined by \u0001.
    cond_begin: guarded((pred: number) => { flow.set(++nextFlow, new CondBuilder(staticValues.get(pred))); return nextFlow; }),
    cond_enter: guarded((h: number, i: number) => { (flowOf(h) as CondBuilder).enter(i); return 1; }),
    cond_exit: guarded((h: number, i: number, spec: string, single: number) => { (flowOf(h) as CondBuilder).exit(i, outOf(spec, single) as never); return 1; }),
    cond_abort: guarded((h: number, i: number) => { const cb = flowOf(h) as CondBuilder; cb.exit(i); cb.abandon(); flow.delete(h); return 1; }),
    cond_end: guarded((h: number) => {
      const r = (flowOf(h) as CondBuilder).finish();
      flow.delete(h);
      if (r === null) return 'N';
      return Array.isArray(r) ? `L${(r as Value[]).map((v) => staticValues.add(v)).join(',')}` : `S${staticValues.add(r as Value)}`;
    }),
    while_begin: guarded((spec: string) => {
      const wb = new WhileBuilder(outOf(spec, 0) as never);
      flow.set(++nextFlow, wb);
      return `${nextFlow};${wb.inits.map((v) => staticValues.add(v)).join(',')}`;
    }),
    while_pre: guarded((h: number, spec: string) => { (flowOf(h) as WhileBuilder).setPre(outOf(spec, 1) as never); return 1; }),
    while_enter: guarded((h: number) => (flowOf(h) as WhileBuilder).enter().map((v) => staticValues.add(v)).join(',')),
    while_exit: guarded((h: number, next: string, c: string) => { (flowOf(h) as WhileBuilder).exit(outOf(next, 0) as never, outOf(c, 1) as never); return 1; }),
    while_abort: guarded((h: number) => { const wb = flowOf(h) as WhileBuilder; wb.exit(); wb.abandon(); flow.delete(h); return 1; }),
    while_end: guarded((h: number) => {
      const r = (flowOf(h) as WhileBuilder).finish();
      flow.delete(h);
      return r.map((v) => staticValues.add(v)).join(',');
    }),
    live_values: () => staticValues.live,
    last_error: (): string => {
      const { kind, message } = pyErrorOf(lastError);
      lastError = null;
      return `${kind}${SEP}${message}`;
    },
  };
}
