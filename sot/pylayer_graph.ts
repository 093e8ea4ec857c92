// A paddle.autograd.PyLayer captured inside a function graph (language-neutral part; the Python
// frontend's frontend/python/sot/pylayer.ts decides when and supplies the call into Python).
//
// Forward's ops are ordinary graph nodes recorded as passing no gradient (eager runs forward
// under no_grad). One `pylayer` node follows them: inputs [forward outputs..., apply's tensor
// inputs..., tensors ctx saved...], outputs one new value per forward output. It is the identity
// on values; for gradients it stands for the user's backward:
//  - executor runs (inference, training): replayed as PIR `skiff.pylayer` (src/pir/dialects/
//    pylayer.ts), which the executor aliases, and whose reverse rule (below) emits a
//    builtin.host_call of the layer's registered host function — so the graph's backward
//    program calls the Python backward from inside the executor run;
//  - op by op (small graphs, tape fallback): an eager PyLayer tape node calling the same function.
// The host function checks what backward returned against the inputs (count, dtype, shape) and
// names the PyLayer in its errors.
import { AccumulateNode, edgeOf } from '../src/autograd/node.js';
import { recordPyLayer } from '../src/autograd/pylayer.js';
import { registerHostFunction } from '../src/executor/index.js';
import { runOp } from '../src/ops/dispatch.js';
import type { OpDef, TensorMeta } from '../src/ops/types.js';
import { registerVjp } from '../src/pir/autodiff/index.js';
import { Attr, type Builder, PYLAYER_OP, pyLayerOperands, tensorType, type Value } from '../src/pir/index.js';
import { isFloating } from '../src/tensor/dtype.js';
import { type Shape, shapeStr } from '../src/tensor/shape.js';
import { Tensor, untracked } from '../src/tensor/tensor.js';
import type { GraphNode } from './function_graph.js';

/** What a pylayer node knows besides its inputs and outputs. */
export interface PyLayerSpec {
  /** The PyLayer class name (errors, listings). */
  readonly name: string;
  /** The registered host function running backward: [saved..., output grads...] -> one grad per input. */
  readonly callee: string;
  readonly nIn: number;
}

/** Observable by tests: backward calls made through the host function, from executor runs and from the tape. */
export const pyLayerGraphCounters = { registered: 0, hostCalls: 0, tapeCalls: 0 };

export const PYLAYER_DEF = { name: 'pylayer', inputs: [], attrs: [], outputs: [], random: false } as unknown as OpDef;

/** A pylayer node's inputs: [forward outputs, inputs, saved]. */
export function pyLayerNode(spec: PyLayerSpec, forward: readonly number[], inputs: readonly number[], saved: readonly number[], outputs: readonly number[]): GraphNode {
  if (forward.length !== outputs.length || inputs.length !== spec.nIn) throw new Error(`pylayer ${spec.name}: one output per forward output and ${spec.nIn} inputs expected`);
  return { def: PYLAYER_DEF, inputs: [...forward, ...inputs, ...saved], attrs: {}, outputs, pylayer: spec };
}

/**
 * The Python side of a captured PyLayer's backward: builds its ctx (the saved tensors, the
 * attributes forward set) and calls the class's backward with the output gradients. It owns the
 * tensors it is given (fresh aliases). Returns what backward returned, one entry per value (null
 * for None), as fresh tensors the caller owns.
 */
export type PyLayerBackwardCall = (saved: readonly Tensor[], grads: readonly Tensor[]) => (Tensor | null)[];

let nextCallee = 1;

/**
 * Registers the host function of a captured PyLayer: input gradients checked against `inputs`
 * (one per input; None becomes zeros, as the tape's materialization does) and copied into fresh
 * tensors the executor may own.
 */
export function registerPyLayerBackward(name: string, nSaved: number, inputs: readonly TensorMeta[], call: PyLayerBackwardCall): PyLayerSpec {
  const callee = `pylayer:${nextCallee++}:${name}`;
  const direct = (saved: readonly Tensor[], grads: readonly Tensor[]): Tensor[] => runBackward(name, inputs, call, saved, grads);
  backwards.set(callee, direct);
  registerHostFunction(callee, (args) => {
    pyLayerGraphCounters.hostCalls++;
    return direct(args.slice(0, nSaved), args.slice(nSaved));
  });
  pyLayerGraphCounters.registered++;
  return { name, callee, nIn: inputs.length };
}

/** Per callee, the checked backward itself (the tape path calls it without the executor). */
const backwards = new Map<string, (saved: readonly Tensor[], grads: readonly Tensor[]) => Tensor[]>();

function runBackward(name: string, inputs: readonly TensorMeta[], call: PyLayerBackwardCall, saved: readonly Tensor[], grads: readonly Tensor[]): Tensor[] {
  // in the grad mode the engine runs backward in (on only for create_graph, on the tape path);
  // Python owns what it is handed: saved tensors keep their gradient edges (as eager's ctx does)
  const r = call(untracked(() => saved.map(routedAlias)), untracked(() => grads.map((g) => g._alias('pylayer'))));
  try {
    if (r.length !== inputs.length) {
      throw new Error(`PyLayer ${name}: backward returned ${r.length} gradient(s), expected ${inputs.length} (one per Tensor input of forward)`);
    }
    r.forEach((g, i) => {
      const want = inputs[i];
      if (g === null) return;
      if (g.dtype !== want.dtype) throw new Error(`PyLayer ${name}: backward returned a ${g.dtype} gradient for input ${i}, whose dtype is ${want.dtype}`);
      if (!sameShape(want.shape, g.shape)) throw new Error(`PyLayer ${name}: backward returned a gradient of shape ${shapeStr(g.shape)} for input ${i} of shape ${shapeStr(want.shape)}`);
    });
  } catch (e) {
    for (const g of r) g?.dispose();
    throw e;
  }
  // None: zeros (what the tape's materialization gives an input whose gradient is missing)
  return untracked(() => r.map((g, i) => g ?? (runOp('full', [], { shape: concreteShape(inputs[i].shape, null), fill_value: 0, dtype: inputs[i].dtype })[0] as Tensor)));
}

/** A tensor object of its own on t's storage that routes gradients where t's go. */
function routedAlias(t: Tensor): Tensor {
  const v = t._alias('pylayer');
  v._base = t._base ?? t;
  const e = edgeOf(t);
  if (e) {
    v.stop_gradient = false;
    if (e.node instanceof AccumulateNode) v._accNode = e.node; else v._gradNode = e;
  }
  return v;
}

/** Symbolic dims (a None batch dim) match any size; static ones must be equal. */
const sameShape = (want: Shape, got: readonly number[]): boolean =>
  want.length === got.length && want.every((d, i) => typeof d !== 'number' || d === got[i]);

function concreteShape(want: Shape, g: Tensor | null): number[] {
  if (want.every((d) => typeof d === 'number')) return want as number[];
  if (g) return [...g.shape];
  throw new Error('pylayer: a missing gradient of an input with symbolic dims cannot be made of zeros');
}

/** Eager form of a pylayer node (graphs run op by op): forward's values, and a tape node calling the same backward. */
export function interpretPyLayer(n: GraphNode, env: Map<number, Tensor>): void {
  const spec = n.pylayer!;
  const nOut = n.outputs.length;
  const get = (x: number | null): Tensor => env.get(x!)!;
  const forward = n.inputs.slice(0, nOut).map(get);
  const inputs = n.inputs.slice(nOut, nOut + spec.nIn).map(get);
  const saved = n.inputs.slice(nOut + spec.nIn).map(get);
  // outputs of their own: a tape node's outputs cannot be tensors other nodes produced
  const outs = untracked(() => forward.map((t) => runOp('scale', [t.detach() as Tensor], { scale: 1, bias: 0, bias_after_scale: true })[0] as Tensor));
  n.outputs.forEach((o, k) => env.set(o, outs[k]));
  const held = untracked(() => saved.map(routedAlias));
  const run = backwards.get(spec.callee);
  if (!run) throw new Error(`PyLayer ${spec.name}: its backward is not registered (${spec.callee})`);
  recordPyLayer({
    name: spec.name, inputs, outputs: outs, nonDifferentiable: new Set(), materialize: true,
    release: () => { for (const t of held) t.dispose(); },
    backward: (grads) => { pyLayerGraphCounters.tapeCalls++; return run(held, grads as Tensor[]); },
  });
}

/** Replays a pylayer node into PIR at `b` (graphProgram): a skiff.pylayer op. */
export function replayPyLayer(n: GraphNode, values: readonly TensorMeta[], env: Map<number, Value>, b: Builder): void {
  const spec = n.pylayer!;
  const op = b.create(PYLAYER_OP, n.inputs.map((x) => env.get(x!)!), [['callee', Attr.str(spec.callee)], ['n_in', Attr.int(spec.nIn)]],
    n.outputs.map((o) => tensorType(values[o].dtype, values[o].shape)));
  n.outputs.forEach((o, k) => env.set(o, op.result(k)));
}

// The reverse rule: missing output gradients are zeros (materialize_grads, the default), and one
// host call gives every input's gradient.
registerVjp(PYLAYER_OP, (op, outGrads, _needsGrad, em) => {
  const { inputs, saved } = pyLayerOperands(op);
  const callee = op.attr('callee');
  if (callee?.kind !== 'str') throw new Error(`${PYLAYER_OP}: missing callee`);
  const grads = outGrads.map((g, k) => g ?? em.run('zeros_like', [op.result(k)])[0]);
  const call = em.builder.hostCall(callee.value, [...saved, ...grads], inputs.map((v) => v.type));
  const nOut = op.numResults;
  return [...new Array<null>(nOut).fill(null), ...call.results.map((r, i) => (isFloating(inputs[i].dtype) ? r : null)), ...new Array<null>(saved.length).fill(null)];
});
