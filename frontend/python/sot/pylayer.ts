// `SomePyLayer.apply(...)` inside translated code: forward is inlined into the graph (its ops
// recorded as passing no gradient, as eager runs forward under no_grad) with the context as a
// simulated object. Usually the apply is then captured whole: a `pylayer` node whose backward is
// a registered executor host function calling the class's backward (captureInGraph below,
// sot/pylayer_graph.ts), and the graph goes on. When the ctx holds what one graph run cannot
// give backward, the segment ends right after forward with one concrete step,
// SKIFF_PYLAYER (compat/paddle/jit/sot/concrete_exc.py), which builds the real context from
// what forward stored on the simulated one and records the tape node whose backward calls the
// user's Python backward. The code after apply starts a new graph whose inputs are apply's
// outputs, so backward runs: later graph -> the user's backward -> the graph holding forward.
// Forward runs to completion inside apply's CALL: anything the translator cannot simulate there
// (a graph break, an effect on host objects, reading needs_input_grad) makes the whole apply
// one concrete step instead, i.e. eager PyLayer, with the same results.
import { BREAKS, GraphBreak } from '../../../sot/graph_breaks.js';
import { HostError } from '../../../sot/host.js';
import { BoundMethodVar, ConstVar, DictVar, ListVar, ObjectVar, TensorVar, TupleVar, Variable } from '../../../sot/variables.js';
import { HANDLERS } from '../handlers/index.js';
import type { Translator } from './translator.js';
import { callVar, toRt } from './semantics.js';
import { capturedPyLayerBackward } from '../bridge_autograd.js';
import { pyLayerNode, registerPyLayerBackward } from '../../../sot/pylayer_graph.js';
import type { RtValue } from '../../../sot/values.js';
import { isFloating } from '../../../src/tensor/dtype.js';

/** The `ctx` a captured forward receives. */
export class PyLayerCtxVar extends Variable {
  readonly kind = 'pylayer_ctx';
  saved: Variable[] | null = null;
  readonly nonDiff: Variable[] = [];
  materialize: Variable = new ConstVar({ k: 'bool', v: true });
  readonly attrs = new Map<string, Variable>();
  constructor() { super(null); }
}

const CTX_METHODS = new Set(['save_for_backward', 'mark_non_differentiable', 'set_materialize_grads']);

const refuse = (detail: string): GraphBreak => new GraphBreak('SOT007', `PyLayer forward: ${detail}`);

let applyId: number | null = null;
function pyLayerApplyId(tx: Translator): number {
  if (applyId === null) {
    const r = tx.host.compatFunction('paddle.autograd', '_PYLAYER_APPLY');
    tx.host.pinId(r.id);   // kept for good: compared by id on every method call
    applyId = r.id;
  }
  return applyId;
}

/** Whether `fn` is PyLayer.apply bound to a subclass (apply not overridden). */
function pyLayerClass(tx: Translator, fn: Variable): ObjectVar | null {
  if (!(fn instanceof ObjectVar) || fn.info.kind !== 'method') return null;
  if (fn.info.func.id !== pyLayerApplyId(tx)) return null;
  return tx.objectVar(fn.info.self, null);
}

/** ctx.name inside a captured forward. */
export function ctxAttr(ctx: PyLayerCtxVar, name: string): Variable {
  if (CTX_METHODS.has(name)) return new BoundMethodVar(ctx, name);
  const v = ctx.attrs.get(name);
  if (v) return v;
  // needs_input_grad depends on the grad mode at run time, saved_tensor on backward's side
  throw refuse(`ctx.${name}`);
}

export function setCtxAttr(ctx: PyLayerCtxVar, name: string, v: Variable): void {
  if (CTX_METHODS.has(name) || name === 'needs_input_grad' || name.startsWith('_')) throw refuse(`setting ctx.${name}`);
  ctx.attrs.set(name, v);
}

function ctxCall(ctx: PyLayerCtxVar, name: string, args: Variable[], kwargs: [string, Variable][]): Variable {
  if (kwargs.length) throw refuse(`ctx.${name} with keywords`);
  if (name === 'save_for_backward') ctx.saved = args.slice();
  else if (name === 'mark_non_differentiable') ctx.nonDiff.push(...args);
  else if (args.length === 1) ctx.materialize = args[0];
  else throw refuse(`ctx.${name} arguments`);
  return new ConstVar({ k: 'none' });
}

/**
 * Calls the PyLayer model answers: `Cls.apply(...)` (ends the segment with SKIFF_PYLAYER) and
 * methods of the simulated ctx. Null: not ours.
 */
export function pyLayerCall(tx: Translator, fn: Variable, args: Variable[], kwargs: [string, Variable][]): Variable | null {
  if (fn instanceof BoundMethodVar && fn.self instanceof PyLayerCtxVar) return ctxCall(fn.self, fn.name, args, kwargs);
  const cls = pyLayerClass(tx, fn);
  if (!cls) return null;
  const ins = [...args, ...kwargs.map(([, v]) => v)].filter((a): a is TensorVar => a instanceof TensorVar);
  if (!ins.length) throw refuse('no tensor inputs');
  const forward = getForward(tx, cls);
  const ctx = new PyLayerCtxVar();
  const outs = runForward(tx, forward, ctx, args, kwargs);
  const result = outs instanceof TensorVar ? [outs] : outs instanceof TupleVar || outs instanceof ListVar ? outs.items : null;
  if (!result || !result.every((o) => o instanceof TensorVar || o instanceof ConstVar)) throw refuse('forward must return tensors');
  const names = [...ctx.attrs.keys()];
  for (const v of ctx.attrs.values()) if (!portable(v)) throw refuse('a ctx attribute the step cannot receive');
  const name = cls.info.kind === 'class' ? cls.info.name : 'PyLayer';
  // Captured whole: forward in the graph, backward through a host call of the graph's backward program.
  const captured = captureInGraph(tx, cls, name, ins, outs, result, ctx, names);
  if (captured) return captured;
  // Otherwise the graph keeps forward's ops and the step attaches the backward to its outputs.
  throw new GraphBreak('SOT025', `${name}.backward attached after the graph holding its forward`, undefined, {
    opname: 'SKIFF_PYLAYER',
    operands: [
      cls, new TupleVar(ins), outs, ctx.saved ? new TupleVar(ctx.saved) : new ConstVar({ k: 'none' }),
      new TupleVar(names.map((n) => new ConstVar({ k: 'str', v: n }))), new TupleVar([...ctx.attrs.values()]),
      new TupleVar(ctx.nonDiff), ctx.materialize,
    ],
  });
}

/**
 * The PyLayer as one `pylayer` node after forward's ops (sot/pylayer_graph.ts), its backward a
 * registered host function calling the class's backward through the bridge. Null (the SOT025
 * path) when backward needs what a graph run cannot give it: outputs that are not floating
 * tensors, mark_non_differentiable, set_materialize_grads(False), non-tensor saved values, or a
 * tensor held as a ctx attribute (attributes are fixed at translation; tensors differ per call).
 */
function captureInGraph(tx: Translator, cls: ObjectVar, name: string, ins: TensorVar[], outs: Variable, result: readonly Variable[], ctx: PyLayerCtxVar, names: string[]): Variable | null {
  const call = capturedPyLayerBackward;
  if (!call) return null;
  if (!result.length || !result.every((o): o is TensorVar => o instanceof TensorVar && isFloating(o.sym.dtype))) return null;
  if (ctx.nonDiff.length || !(ctx.materialize instanceof ConstVar && ctx.materialize.value.k === 'bool' && ctx.materialize.value.v)) return null;
  const saved = ctx.saved ?? [];
  if (!saved.every((s): s is TensorVar => s instanceof TensorVar)) return null;
  const values = [...ctx.attrs.values()];
  if (values.some(holdsTensor)) return null;
  const rt = [toRt(tx, cls), ...values.map((v) => toRt(tx, v))];
  if (rt.some((r) => r === null)) return null;
  const [clsRt, ...valueRts] = rt as RtValue[];
  let cid: RtValue | undefined;
  try {
    cid = tx.host.concrete({ opname: 'SKIFF_PYLAYER_CAPTURE', arg: 0 }, [clsRt, { k: 'tuple', items: names.map((n) => ({ k: 'str', v: n })) }, { k: 'tuple', items: valueRts }])[1];
  } catch (e) {
    if (e instanceof HostError) return null;
    throw e;
  }
  if (cid?.k !== 'int') return null;
  const id = Number(cid.v);
  const spec = registerPyLayerBackward(name, saved.length, ins.map((x) => ({ dtype: x.sym.dtype, shape: x.sym.shape })), (s, g) => call(id, name, s, g));
  const g = tx.graph;
  const stop = g.noGrad || ins.every((x) => x.sym.stop_gradient);
  const made = result.map((o) => new TensorVar(g.newValue(o.sym.dtype, o.sym.shape, stop)));
  const node = pyLayerNode(spec, result.map((o) => o.sym.id), ins.map((x) => x.sym.id), saved.map((s) => s.sym.id), made.map((m) => m.sym.id));
  g.nodes.push(g.noGrad ? { ...node, detach: true } : node);
  if (outs instanceof TensorVar) return made[0];
  return outs instanceof ListVar ? new ListVar(made) : new TupleVar(made);
}

const holdsTensor = (v: Variable): boolean =>
  v instanceof TensorVar || ((v instanceof TupleVar || v instanceof ListVar) && v.items.some(holdsTensor)) ||
  (v instanceof DictVar && [...v.keys, ...v.values].some(holdsTensor));

/** Values a step operand can carry (made real by the segment's templates). */
const portable = (v: Variable): boolean =>
  v instanceof ConstVar || v instanceof TensorVar || v instanceof ObjectVar ||
  ((v instanceof TupleVar || v instanceof ListVar) && v.items.every(portable)) ||
  (v instanceof DictVar && v.keys.every(portable) && v.values.every(portable));

function getForward(tx: Translator, cls: ObjectVar): Variable {
  let r;
  try {
    r = tx.host.getattrWithId({ k: 'obj', ref: cls.ref }, 'forward');
  } catch (e) {
    if (e instanceof HostError) throw refuse(`${e.pyType}: ${e.message}`);
    throw e;
  }
  // the class is guarded by the wrapper (a global) or by its source; forward is read from it
  tx.host.recordAttrGuard(cls.ref, 'forward', r.id);
  if (r.value.k !== 'obj') throw refuse('forward is not a function');
  const f = tx.objectVar(r.value.ref, null);
  if (f.info.kind !== 'function') throw refuse('forward is not a plain (static) function');
  return f;
}

/**
 * Inlines forward(ctx, *args, **kwargs) and runs it to its return inside this instruction, its
 * ops recorded as in eager's no_grad. Any break inside refuses (the whole apply runs concretely).
 */
function runForward(tx: Translator, forward: Variable, ctx: PyLayerCtxVar, args: Variable[], kwargs: [string, Variable][]): Variable {
  const depth = tx.frames.length;
  const effects = tx.effects.length;
  const noGrad = tx.graph.noGrad;
  tx.graph.noGrad = true;
  try {
    // inlining pushes forward's frame; run it here to its return
    const r = callVar(tx, forward, [ctx, ...args], kwargs);
    if (r !== undefined) return r;
    let steps = 0;
    while (tx.frames.length > depth) {
      const f = tx.frame;
      const ins = f.code.instructions[f.ip];
      const h = ins && HANDLERS[ins.opname];
      if (!h) throw refuse(`opcode ${ins?.opname ?? '(end)'}`);
      f.ip++;
      h(tx, ins);
      if (++steps > 100_000) throw refuse('too long');
    }
    if (tx.effects.length !== effects) throw refuse('side effects on host objects');
    return tx.frame.pop();
  } catch (e) {
    if (e instanceof GraphBreak && BREAKS.get(e.code)!.effect === 'fallback') throw e;
    if (e instanceof GraphBreak || e instanceof HostError) throw refuse(e instanceof GraphBreak ? e.detail : `${e.pyType}: ${e.message}`);
    throw e;
  } finally {
    tx.graph.noGrad = noGrad;
  }
}
