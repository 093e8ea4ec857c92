// Lowering: ExecGraph + concrete input metas -> LoweredProgram. Shapes are specialized, view ops
// become view instructions (OpDef.view on the planned layout), everything else a kernel
// instruction with natively encoded attributes; host calls become host instructions;
// mutable-param updates become direct writes or final copies; then the buffer plan (plan.ts)
// places every result.
import { native } from '../native.js';
import { encodeAttrs } from '../ops/dispatch.js';
import type { OpDef, TensorMeta } from '../ops/types.js';
import { ITEMSIZE } from '../tensor/dtype.js';
import { contiguousStrides, shapeStr } from '../tensor/shape.js';
import { type GraphInfo, HOST_CALL, nodeName, valueName } from './graph.js';
import { registeredHostFunction } from './host_functions.js';
import { planBuffers, type PlanOptions } from './plan.js';
import { type BoundMeta, specialize } from './specialize.js';
import type { HostFn, Instr, InstrKind, LoweredProgram, Slot, SlotKind } from './types.js';

export interface LowerOptions extends Partial<PlanOptions> {
  /** Functions named by host-call nodes (attrs.callee). */
  readonly hostFns?: Readonly<Record<string, HostFn>>;
}

const kernelIds = new Map<OpDef, number>();
function kernelIdOf(def: OpDef): number {
  let id = kernelIds.get(def);
  if (id === undefined) { id = native.kernelId(def.kernel ?? def.name); kernelIds.set(def, id); }
  return id;
}

const sizeOneAtSymbol = (info: GraphInfo, value: number, shape: readonly number[]): boolean =>
  info.value.get(value)!.shape.some((d, i) => typeof d !== 'number' && shape[i] === 1);

export function lower(info: GraphInfo, inputs: readonly BoundMeta[], params: readonly BoundMeta[], opts: LowerOptions = {}, signature = ''): LoweredProgram {
  const g = info.graph;
  const spec = specialize(info, inputs, params);
  const slots: Slot[] = [];
  const instrs: Instr[] = [];
  const hostFns: HostFn[] = [];
  const slotOf = new Map<number, number>();
  const defInstr = new Map<number, number>();  // slot -> defining instruction

  const addSlot = (kind: SlotKind, value: number, shape: number[], extra: Partial<Slot> = {}): number => {
    const id = slots.length;
    const dtype = extra.dtype ?? spec.meta.get(value)!.dtype;
    const bytes = shape.reduce((a, b) => a * b, 1) * ITEMSIZE[dtype];
    slots.push({
      kind, index: -1, dtype, shape, strides: contiguousStrides(shape), relOffset: 0, root: id, layout: 'any', mutable: false,
      bytes, label: valueName(value), value, ...extra,
    });
    if (value >= 0 && !slotOf.has(value)) slotOf.set(value, id);
    return id;
  };
  const emit = (kind: InstrKind, op: string, node: number, fn: number, ins: number[], outs: number[], attrs: number[], inplaceOk = false): void => {
    for (const o of outs) defInstr.set(o, instrs.length);
    instrs.push({ kind, op, node, fn, ins, outs, attrs, inplaceOk, clears: [], releases: [] });
  };

  const bind = (kind: 'input' | 'param', ids: readonly number[], metas: readonly BoundMeta[]): number[] => ids.map((id, i) => {
    const m = metas[i];
    return addSlot(kind, id, [...m.shape], {
      index: i, dtype: m.dtype, strides: m.strides ? [...m.strides] : contiguousStrides(m.shape),
      layout: m.strides ? 'exact' : 'contiguous', mutable: kind === 'param' && info.updateOf.has(id),
    });
  });
  const inputSlots = bind('input', g.inputs, inputs);
  const paramSlots = bind('param', g.params, params);

  g.nodes.forEach((n, k) => {
    const def = spec.defs[k], attrs = spec.attrs[k];
    const ins = n.inputs.filter((id): id is number => id !== null).map((id) => slotOf.get(id)!);
    const shapeOf = (id: number): number[] => spec.meta.get(id)!.shape;
    if (def === null) {
      const callee = attrs.callee as string;
      const fn = opts.hostFns?.[callee] ?? registeredHostFunction(callee);
      if (!fn) throw new Error(`executor: ${nodeName(g, k)}: no host function '${callee}' (pass it in hostFns or register it)`);
      hostFns.push(fn);
      emit('host', `${HOST_CALL}:${callee}`, k, hostFns.length - 1, ins, n.outputs.map((id) => addSlot('host', id, shapeOf(id))), []);
      return;
    }
    const base = n.inputs[0] != null ? slots[slotOf.get(n.inputs[0]!)!] : null;
    // A view decided where a symbolic dim happens to be 1 may not hold at other sizes (a size-1
    // dim's stride is free): such ops run as kernels when they have one, so this lowering serves
    // every size (rebind.ts).
    if (def.view && base && (kernelIdOf(def) < 0 || !sizeOneAtSymbol(info, n.inputs[0]!, base.shape))) {
      const v = def.view({ dtype: base.dtype, shape: base.shape, strides: base.strides, offset: base.relOffset }, attrs);
      if (v) {
        const id = n.outputs[0];
        if (shapeStr(v.shape) !== shapeStr(shapeOf(id))) throw new Error(`executor: ${nodeName(g, k)}: view shape ${shapeStr(v.shape)} differs from its inferred ${shapeStr(shapeOf(id))}`);
        const out = addSlot('view', id, [...v.shape], { strides: [...v.strides], relOffset: v.offset, root: base.root });
        emit('view', def.name, k, -1, [slotOf.get(n.inputs[0]!)!], [out], [v.shape.length, ...v.shape, ...v.strides, v.offset - base.relOffset]);
        return;
      }
    }
    const kid = kernelIdOf(def);
    if (kid < 0) throw new Error(`executor: ${nodeName(g, k)}: no native kernel '${def.kernel ?? def.name}'${def.view ? ' and the view does not apply to this layout' : ''}`);
    const metas = n.inputs.map((id) => (id === null ? null : spec.meta.get(id)!)) as TensorMeta[];
    let encoded: number[];
    try {
      encoded = encodeAttrs(def, attrs, metas);
    } catch (e) {
      throw new Error(`executor: ${nodeName(g, k)}: ${(e as Error).message}`);
    }
    emit('kernel', def.name, k, kid, ins, n.outputs.map((id) => addSlot('buffer', id, shapeOf(id))), encoded, def.inplace === true);
  });

  const outputSlots = g.outputs.map((id) => slotOf.get(id)!);
  const directWrites = lowerUpdates(info, slots, instrs, slotOf, defInstr, outputSlots, addSlot, emit);
  const { buffers, counts } = planBuffers(slots, instrs, outputSlots, { reuse: opts.reuse ?? true, inplace: opts.inplace ?? true });
  const count = (k: InstrKind): number => instrs.filter((I) => I.kind === k).length;
  return {
    signature, slots, instrs, buffers, inputSlots, paramSlots, outputSlots, hostFns,
    stats: { instructions: instrs.length, kernels: count('kernel'), views: count('view'), hostCalls: count('host'), copies: count('copy'), directWrites, ...counts },
  };
}

/**
 * Mutable-param updates. A result is written straight into its parameter when nothing reads the
 * parameter (or a view of it) after the producing instruction, the parameter is contiguous, and
 * the result is a plain kernel result that is not also returned; otherwise it is copied in at the
 * end, after copying out anything returned or copied that still aliases an updated parameter.
 */
function lowerUpdates(
  info: GraphInfo, slots: Slot[], instrs: Instr[], slotOf: Map<number, number>, defInstr: Map<number, number>, outputSlots: number[],
  addSlot: (kind: SlotKind, value: number, shape: number[], extra?: Partial<Slot>) => number,
  emit: (kind: InstrKind, op: string, node: number, fn: number, ins: number[], outs: number[], attrs: number[]) => void,
): number {
  const updates = [...info.updateOf].map(([p, v]) => ({ p: slotOf.get(p)!, v: slotOf.get(v)! }));
  if (updates.length === 0) return 0;
  const sources = updates.map((u) => u.v);
  const copied: { p: number; v: number }[] = [];
  let direct = 0;
  for (const u of updates) {
    const P = slots[u.p], V = slots[u.v], k = defInstr.get(u.v);
    const I = k === undefined ? null : instrs[k];
    let ok = I !== null && I.kind === 'kernel' && V.kind === 'buffer' && P.layout === 'contiguous'
      && !outputSlots.includes(u.v) && sources.filter((s) => s === u.v).length === 1
      && !outputSlots.some((s) => slots[s].root === u.p) && !sources.some((s) => s !== u.v && slots[s].root === u.p);
    if (ok) {
      instrs.forEach((J, i) => {
        const reads = J.ins.filter((s) => slots[s].root === u.p);
        if (reads.length === 0 || i < k!) return;
        const aliasExact = i === k && J.inplaceOk && J.outs[0] === u.v && J.ins[0] === u.p && reads.every((s) => s === u.p);
        if (!aliasExact) ok = false;
      });
    }
    if (ok) { V.kind = 'paramAlias'; V.index = u.p; direct++; }
    else copied.push(u);
  }
  const copiedParams = new Set(copied.map((u) => u.p));
  const materialize = (s: number): number => {
    const S = slots[s];
    const out = addSlot('buffer', -1, [...S.shape], { dtype: S.dtype, label: `${S.label}.copy` });
    emit('copy', 'copy', -1, -1, [s], [out], []);
    return out;
  };
  outputSlots.forEach((s, i) => { if (copiedParams.has(slots[s].root)) outputSlots[i] = materialize(s); });
  for (const u of copied) if (copiedParams.has(slots[u.v].root)) u.v = materialize(u.v);
  for (const u of copied) emit('copy', `update ${slots[u.p].label}`, -1, -1, [u.v], [u.p], []);
  return direct;
}
