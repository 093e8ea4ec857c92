// paddle.static.Executor: runs a static Program on feeds and returns the fetched values.
// Per fetch list, the program is pruned to the ops the fetches need (plus parameter updates),
// fetch ops are appended to that copy, and it goes through fromPir + compile. The Executable is
// cached on the Program; it specializes per input shapes itself, so one plan per fetch list
// serves every batch size.
import { compile, type Executable } from '../executor/index.js';
import { fromPir } from '../executor/from_pir.js';
import { runOp } from '../ops/dispatch.js';
import { Builder, capturedValues, type Operation, Program as PirProgram, type TensorType, type Value, verify } from '../pir/index.js';
import { to_tensor, type TensorData } from '../tensor/creation.js';
import { type Dim, ShapeError, shapeStr } from '../tensor/shape.js';
import { Tensor, untracked } from '../tensor/tensor.js';
import { default_main_program, eagerly } from './mode.js';
import type { Program } from './program.js';
import { global_scope, type Scope } from './scope.js';

/** A feed value: a Tensor, a typed array (reshaped to the data's shape), nested arrays or a number. */
export type FeedValue = Tensor | TensorData;
/** A fetch target: a value of the program, its name, or an eager Tensor (returned as a copy). */
export type FetchTarget = Value | string | Tensor;

export interface RunOptions {
  readonly feed?: Readonly<Record<string, FeedValue>>;
  readonly fetch_list?: readonly FetchTarget[];
  /** Where parameters are looked up by name; default paddle.static.global_scope(). */
  readonly scope?: Scope;
  /** Accepted for compatibility; results are always Tensors (call .tolist() / .dataSync()). */
  readonly return_numpy?: boolean;
}

/** Counters tests read: plans compiled vs reused. */
export const staticExecutorStats = { compiled: 0, reused: 0, runs: 0 };

interface Plan {
  readonly exe: Executable;
  /** feed names in run() input order, with the data's declared type */
  readonly feeds: readonly { name: string; type: TensorType }[];
  readonly params: readonly string[];
  readonly constants: readonly Tensor[];
  dispose(): void;
}

/**
 * Runs static programs on the native executor.
 * @example
 *   const exe = new paddle.static.Executor(paddle.CPUPlace?.() ?? 'cpu');
 *   const [out] = exe.run(main, { feed: { x: xTensor }, fetch_list: [y] });
 */
export class Executor {
  constructor(readonly place: unknown = 'cpu') {}

  run(program: Program | null = null, opts: RunOptions = {}): Tensor[] {
    const prog = program ?? default_main_program();
    const feed = opts.feed ?? {};
    const scope = opts.scope ?? global_scope();
    checkFeedNames(prog, feed);
    const targets = (opts.fetch_list ?? []).map((f, i) => resolveFetch(prog, f, i));
    const values = [...new Set(targets.filter((t): t is Value => !(t instanceof Tensor)))];
    const results = new Map<Value, Tensor>();
    if (values.length) {
      const plan = planFor(prog, values);
      const made: Tensor[] = [];
      try {
        const inputs = plan.feeds.map(({ name, type }) => feedTensor(feed[name], name, type, made));
        const params = plan.params.map((n) => {
          const t = prog.boundTensor(n) ?? scope.get(n);
          if (!t) throw new Error(`Executor.run: parameter '${n}' is not in the scope (create it with paddle.static.create_parameter)`);
          return t;
        });
        const outs = plan.exe.run(inputs, [...params, ...plan.constants]);
        values.forEach((v, i) => results.set(v, outs[i]));
        staticExecutorStats.runs++;
      } finally {
        for (const t of made) t.dispose();
      }
    }
    // A value fetched twice is returned as two tensors, so each can be disposed on its own.
    const taken = new Set<Tensor>();
    return targets.map((t) => {
      if (t instanceof Tensor) return to_tensor(t);
      const out = results.get(t)!;
      if (!taken.has(out)) { taken.add(out); return out; }
      return to_tensor(out);
    });
  }

  /** Accepted for compatibility (plans belong to their programs; Program.dispose frees them). */
  close(): void {}
}

function checkFeedNames(prog: Program, feed: Readonly<Record<string, unknown>>): void {
  for (const name of Object.keys(feed)) {
    if (prog.valueByName(name)?.definingOp?.name !== 'pd_op.data') {
      throw new Error(`Executor.run: feed '${name}' is not a paddle.static.data of this program`);
    }
  }
}

function resolveFetch(prog: Program, f: FetchTarget, i: number): Value | Tensor {
  if (f instanceof Tensor) return f;
  if (typeof f === 'string') {
    const v = prog.valueByName(f);
    if (!v) throw new Error(`Executor.run: fetch_list[${i}] names '${f}', which is not a value of this program`);
    return v;
  }
  if (f && typeof f === 'object' && 'definingOp' in f) {
    if (!prog.owns(f)) throw new Error(`Executor.run: fetch_list[${i}] is not a value of this program`);
    return f;
  }
  throw new TypeError(`Executor.run: fetch_list[${i}] must be a program value, its name or a Tensor`);
}

function planFor(prog: Program, targets: readonly Value[]): Plan {
  const key = `${prog.pir.block.ops.length}|${targets.map((v) => v.id).join(',')}`;
  const hit = prog._plans.get(key) as Plan | undefined;
  if (hit) { staticExecutorStats.reused++; return hit; }
  const pruned = prune(prog.pir, targets);
  verify(pruned, 'paddle.static.Executor');
  // Constants are kept across runs: made outside any scope() the caller may be in.
  const g = untracked(() => fromPir(pruned));
  for (const c of g.constants) c._adoptByGC();
  const types = new Map<string, TensorType>();
  for (const op of pruned.block.ops) {
    const a = op.attr('name');
    if (op.name === 'pd_op.data' && a?.kind === 'str') types.set(a.value, op.result(0).type as TensorType);
  }
  const exe = compile(g.graph, { hostFns: g.hostFns });
  const plan: Plan = {
    exe, feeds: g.feeds.map((name) => ({ name, type: types.get(name)! })), params: g.params, constants: g.constants,
    dispose: () => { exe.dispose(); for (const c of g.constants) c.dispose(); },
  };
  // Plans of older versions of a growing program are dropped (their op count is in the key).
  for (const [k, p] of prog._plans) if (!k.startsWith(`${prog.pir.block.ops.length}|`)) { p.dispose(); prog._plans.delete(k); }
  prog._plans.set(key, plan);
  staticExecutorStats.compiled++;
  return plan;
}

/** A copy of the ops `targets` depend on (and parameter updates), with the targets fetched in order. */
export function prune(program: PirProgram, targets: readonly Value[]): PirProgram {
  const ops = program.block.ops;
  const live = new Set<Value>(targets);
  const keep = new Set<Operation>();
  for (let i = ops.length - 1; i >= 0; i--) {
    const op = ops[i];
    // Shape constraints (shape.tie_product_equal) have no results but stay: the executor checks them.
    if (op.name !== 'builtin.set_parameter' && op.name !== 'shape.tie_product_equal' && !op.results.some((r) => live.has(r))) continue;
    keep.add(op);
    for (const v of op.operandValues()) if (v) live.add(v);
    if (op.regions.length) for (const v of capturedValues(op)) live.add(v);  // control flow reads outer values in its regions
  }
  const out = new PirProgram();
  const mapping = new Map<Value, Value>();
  for (const op of ops) if (keep.has(op)) out.block.append(op.clone(mapping));
  const b = new Builder(out);
  targets.forEach((v, i) => b.fetch(mapping.get(v)!, `fetch_${i}`, i));
  return out;
}

function feedTensor(v: FeedValue | undefined, name: string, type: TensorType, made: Tensor[]): Tensor {
  if (v === undefined) throw new Error(`Executor.run: feed '${name}' is missing (the fetched values need it)`);
  let t: Tensor;
  if (v instanceof Tensor) {
    if (v.dtype !== type.dtype) throw new TypeError(`Executor.run: feed '${name}' has dtype ${v.dtype}, but paddle.static.data('${name}') is ${type.dtype}`);
    t = v;
  } else {
    t = untracked(() => to_tensor(v, type.dtype));
    made.push(t);
    if (ArrayBuffer.isView(v) && type.rank !== 1) t = reshapeFlat(t, name, type, made);
  }
  checkShape(t.shape, type.shape, name);
  return t;
}

/** A flat typed array fed to an n-d data: reshaped to its shape, one unknown dim inferred. */
function reshapeFlat(t: Tensor, name: string, type: TensorType, made: Tensor[]): Tensor {
  const unknown = type.shape.filter((d) => typeof d !== 'number' || d < 0).length;
  const known = type.shape.reduce<number>((a, d) => (typeof d === 'number' && d >= 0 ? a * d : a), 1);
  if (unknown > 1 || (unknown === 0 && known !== t.size) || (unknown === 1 && (known === 0 || t.size % known !== 0))) {
    throw new ShapeError(`Executor.run: feed '${name}' has ${t.size} values, which do not fill paddle.static.data('${name}') of shape ${shapeStr(type.shape)}`);
  }
  const shape = type.shape.map((d) => (typeof d === 'number' && d >= 0 ? d : t.size / Math.max(known, 1)));
  const r = untracked(() => eagerly(() => runOp('reshape', [t], { shape })[0] as Tensor));
  made.push(r);
  return r;
}

function checkShape(got: readonly number[], want: readonly Dim[], name: string): void {
  const ok = got.length === want.length && want.every((d, i) => typeof d !== 'number' || d < 0 || d === got[i]);
  if (!ok) throw new ShapeError(`Executor.run: feed '${name}' has shape ${shapeStr(got)}, but paddle.static.data('${name}') has shape ${shapeStr(want)}`);
}
