// The reference path: an ExecGraph interpreted op by op through eager dispatch (runOpDef), with
// the same host functions. Tests compare the executor against it; benchmarks time it.
import { runOpDef } from '../ops/dispatch.js';
import { getOp } from '../ops/registry.js';
import { resolveAttrs } from '../ops/dispatch.js';
import type { Tensor } from '../tensor/tensor.js';
import { checkGraph, type ExecGraph, HOST_CALL } from './graph.js';
import { registeredHostFunction } from './host_functions.js';
import type { HostFn } from './types.js';

export interface EagerResult {
  outputs: Tensor[];
  /** New values of updated params, by param position (not written into the params). */
  updates: Map<number, Tensor>;
}

/** Runs `g` eagerly; intermediates that are not returned are disposed. */
export function runGraphEager(g: ExecGraph, inputs: readonly Tensor[], params: readonly Tensor[] = [], hostFns: Readonly<Record<string, HostFn>> = {}): EagerResult {
  const info = checkGraph(g);
  const env = new Map<number, Tensor>();
  g.inputs.forEach((id, i) => env.set(id, inputs[i]));
  g.params.forEach((id, i) => env.set(id, params[i]));
  const made: Tensor[] = [];
  for (const n of g.nodes) {
    const ins = n.inputs.map((id) => (id === null ? null : env.get(id)!));
    let outs: Tensor[];
    if (n.op === HOST_CALL) {
      const fn = hostFns[n.attrs!.callee as string] ?? registeredHostFunction(n.attrs!.callee as string);
      if (!fn) throw new Error(`eager: no host function '${String(n.attrs!.callee)}'`);
      outs = fn(ins.filter((t): t is Tensor => t !== null));
    } else {
      const def = getOp(n.op);
      outs = runOpDef(def, ins, resolveAttrs(def, n.attrs ?? {})) as Tensor[];
    }
    n.outputs.forEach((id, i) => { env.set(id, outs[i]); made.push(outs[i]); });
  }
  const outputs = g.outputs.map((id) => env.get(id)!);
  const updates = new Map<number, Tensor>();
  for (const [p, v] of info.updateOf) updates.set(g.params.indexOf(p), env.get(v)!);
  const keep = new Set<Tensor>([...outputs, ...updates.values()]);
  for (const t of made) if (!keep.has(t)) t.dispose();
  return { outputs, updates };
}
