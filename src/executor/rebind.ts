// Rebinding: a lowered program serves every input signature its graph's symbolic dims allow.
// Lowering makes decisions that do not depend on dim values — which ops become views, kernels,
// host calls or copies; which parameter updates are written in place; the buffer plan (which
// results share a storage, inplace execution, when each storage is released), since liveness
// is a property of the instruction order. For a new signature only numbers change: slot shapes,
// strides and byte sizes, kernels' encoded attributes (an axis or a reshape target resolved
// against the new shapes), view geometry and buffer sizes. rebind() recomputes exactly those on
// the template's structure and checks that every shape-dependent decision still holds (a view
// still applies, an inplace write still has equal shapes); when one does not, it returns null
// and the caller lowers afresh. Symbol values are bound and the program's constraints checked
// by specialize(), with the same errors as a first lowering.
import { getOp } from '../ops/registry.js';
import { encodeAttrs } from '../ops/dispatch.js';
import type { TensorMeta } from '../ops/types.js';
import { ITEMSIZE } from '../tensor/dtype.js';
import { contiguousStrides } from '../tensor/shape.js';
import type { GraphInfo } from './graph.js';
import { planCounts } from './plan.js';
import { type BoundMeta, specialize } from './specialize.js';
import type { Instr, LoweredProgram, Slot } from './types.js';

const numel = (s: readonly number[]): number => { let n = 1; for (const d of s) n *= d; return n; };
const sameShape = (a: readonly number[], b: readonly number[]): boolean => a.length === b.length && a.every((d, i) => d === b[i]);

/** The template's program for new input/param metas, or null when a lowering decision no longer holds. */
export function rebind(tpl: LoweredProgram, info: GraphInfo, inputs: readonly BoundMeta[], params: readonly BoundMeta[], signature: string): LoweredProgram | null {
  const g = info.graph;
  const spec = specialize(info, inputs, params);
  const slots: Slot[] = tpl.slots.map((s) => ({ ...s }));
  const set = (i: number, shape: number[], strides: number[] = contiguousStrides(shape), relOffset = 0): void => {
    const s = slots[i];
    slots[i] = { ...s, shape, strides, relOffset, bytes: numel(shape) * ITEMSIZE[s.dtype] };
  };
  tpl.inputSlots.forEach((s, i) => set(s, [...inputs[i].shape], inputs[i].strides ? [...inputs[i].strides!] : undefined));
  tpl.paramSlots.forEach((s, i) => set(s, [...params[i].shape], params[i].strides ? [...params[i].strides!] : undefined));

  const instrs: Instr[] = [];
  for (const I of tpl.instrs) {
    let attrs = I.attrs;
    if (I.kind === 'copy') {
      // A copy out (materialized output) takes its source's shape; an update writes a param.
      if (slots[I.outs[0]].kind !== 'param') set(I.outs[0], [...slots[I.ins[0]].shape]);
    } else if (I.kind === 'host') {
      for (const o of I.outs) set(o, [...spec.meta.get(slots[o].value)!.shape]);
    } else {
      const n = g.nodes[I.node];
      const def = getOp(n.op);
      const a = spec.attrs[I.node];
      if (I.kind === 'view') {
        const base = slots[I.ins[0]];
        const v = def.view!({ dtype: base.dtype, shape: base.shape, strides: base.strides, offset: base.relOffset }, a);
        const want = spec.meta.get(slots[I.outs[0]].value)!.shape;
        if (!v || !sameShape(v.shape, want)) return null;
        set(I.outs[0], [...v.shape], [...v.strides], v.offset);
        attrs = [v.shape.length, ...v.shape, ...v.strides, v.offset - base.relOffset];
      } else {
        for (const o of I.outs) set(o, [...spec.meta.get(slots[o].value)!.shape]);
        const metas = n.inputs.map((id) => (id === null ? null : spec.meta.get(id)!)) as TensorMeta[];
        attrs = encodeAttrs(def, a, metas);
        // An inplace write (output 0 planned into input 0's storage) needs equal shapes.
        const o = slots[I.outs[0]], x = I.ins.length ? slots[I.ins[0]] : null;
        if (x && o.kind === 'buffer' && x.kind === 'buffer' && o.index === x.index && !sameShape(o.shape, x.shape)) return null;
      }
    }
    instrs.push({ ...I, attrs, clears: [...I.clears], releases: [...I.releases] });
  }
  // A storage holds the largest result ever placed in it.
  const buffers = new Array<number>(tpl.buffers.length).fill(0);
  for (const s of slots) if (s.kind === 'buffer') buffers[s.index] = Math.max(buffers[s.index], s.bytes);
  const counts = planCounts(slots, instrs, buffers, tpl.stats.inplace, tpl.stats.reused);
  return { ...tpl, signature, slots, instrs, buffers, outputSlots: [...tpl.outputSlots], stats: { ...tpl.stats, ...counts } };
}
