// Ops that copy data into a new layout: concat, stack, split, unbind, tile, flip and pad
// (constant mode). Native: native/kernels/shape_join.cc (concat/stack/split/unbind) and
// native/kernels/shape_copy.cc (tile/flip/pad). Kernel attrs are documented per op below.
import { registerOp } from '../registry.js';
import { type Dim, dimAdd, dimFloorDiv, dimMul, dimSub, normAxis, ShapeError, shapeStr } from '../../tensor/shape.js';
import type { Attrs, TensorMeta } from '../types.js';
import { kit } from '../grad_kit.js';
import { checkEdgePads, padEdgeGrad } from './pad_modes.js';
import { axisList, intAttr, intList, metaOf, staticDim, unifyDim } from './shape_common.js';

function sameDType(op: string, ins: readonly TensorMeta[]): void {
  for (const t of ins) if (t.dtype !== ins[0].dtype) throw new TypeError(`${op}: all inputs must have the same dtype, got ${ins[0].dtype} and ${t.dtype}`);
}

function concatAxis(ins: readonly TensorMeta[], a: Attrs): number {
  if (ins.length === 0) throw new ShapeError('concat: x must contain at least one tensor');
  const rank = ins[0].shape.length;
  if (rank === 0) throw new ShapeError('concat: 0-D tensors cannot be concatenated (use stack)');
  return normAxis(intAttr('concat', 'axis', a.axis), rank, 'concat');
}

/** concat(x: list, axis=0). Kernel attrs: [axis]. */
export const concat = registerOp({
  name: 'concat',
  inputs: [{ name: 'x', variadic: true }],
  attrs: [{ name: 'axis', type: 'int', default: 0 }],
  outputs: ['out'],
  infer: (ins, a) => {
    const axis = concatAxis(ins, a);
    sameDType('concat', ins);
    const out: Dim[] = [...ins[0].shape];
    let total: Dim = 0;
    for (const t of ins) {
      if (t.shape.length !== out.length) throw new ShapeError(`concat: inputs must have the same rank, got ${shapeStr(ins[0].shape)} and ${shapeStr(t.shape)}`);
      t.shape.forEach((d, i) => {
        if (i !== axis) out[i] = unifyDim('concat', out[i], d, `shapes ${shapeStr(ins[0].shape)} and ${shapeStr(t.shape)} differ outside axis ${axis}`);
      });
      total = dimAdd(total, t.shape[axis]);
    }
    out[axis] = total;
    return [metaOf(ins[0], out)];
  },
  encode: (a, ins) => [concatAxis(ins, a)],
  gradReads: {},
  // g split back into the inputs' sizes along axis.
  grad: ({ inputs, outGrads: [g], attrs }, ops) => {
    const k = kit(ops);
    const axis = concatAxis(inputs.map((x) => k.o.meta(x!)), attrs);
    return inputs.length === 1 ? [g] : ops.run('split', [g], { num_or_sections: inputs.map((x) => k.shape(x!)[axis]), axis });
  },
  api: { names: ['concat'] },
});

const stackAxis = (ins: readonly TensorMeta[], a: Attrs): number => {
  if (ins.length === 0) throw new ShapeError('stack: x must contain at least one tensor');
  return normAxis(intAttr('stack', 'axis', a.axis), ins[0].shape.length + 1, 'stack');
};

/** stack(x: list, axis=0): inputs of one shape gain a new dim at axis. Kernel attrs: [axis]. */
export const stack = registerOp({
  name: 'stack',
  inputs: [{ name: 'x', variadic: true }],
  attrs: [{ name: 'axis', type: 'int', default: 0 }],
  outputs: ['out'],
  infer: (ins, a) => {
    const axis = stackAxis(ins, a);
    sameDType('stack', ins);
    const shape: Dim[] = [...ins[0].shape];
    for (const t of ins) {
      if (t.shape.length !== shape.length) throw new ShapeError(`stack: all inputs must have the same shape, got ${shapeStr(ins[0].shape)} and ${shapeStr(t.shape)}`);
      t.shape.forEach((d, i) => { shape[i] = unifyDim('stack', shape[i], d, `all inputs must have the same shape, got ${shapeStr(ins[0].shape)} and ${shapeStr(t.shape)}`); });
    }
    shape.splice(axis, 0, ins.length);
    return [metaOf(ins[0], shape)];
  },
  encode: (a, ins) => [stackAxis(ins, a)],
  gradReads: {},
  grad: ({ inputs, outGrads: [g], attrs }, ops) => ops.run('unbind', [g], { axis: stackAxis(inputs.map((x) => ops.meta(x!)), attrs) }),
  api: { names: ['stack'] },
});

/** Section sizes along the split axis: an int splits evenly, a list may hold one -1. */
function splitSections(x: TensorMeta, a: Attrs): { axis: number; sizes: Dim[] } {
  const op = 'split';
  if (x.shape.length === 0) throw new ShapeError('split: x is a 0-D tensor and cannot be split');
  const axis = normAxis(intAttr(op, 'axis', a.axis), x.shape.length, op);
  const dim = x.shape[axis];
  const v = a.num_or_sections;
  if (typeof v === 'number') {
    const num = intAttr(op, 'num_or_sections', v);
    if (num <= 0) throw new ShapeError(`split: num_or_sections must be positive, got ${num}`);
    if (typeof dim === 'number' && dim % num !== 0)
      throw new ShapeError(`split: the size ${dim} of axis ${axis} of x ${shapeStr(x.shape)} is not divisible by num_or_sections ${num}`);
    return { axis, sizes: new Array<Dim>(num).fill(dimFloorDiv(dim, num)) };
  }
  const sections = intList(op, 'num_or_sections', v, false);
  if (sections.length === 0) throw new ShapeError('split: num_or_sections must not be an empty list');
  const unknown = sections.indexOf(-1);
  if (unknown >= 0 && sections.lastIndexOf(-1) !== unknown) throw new ShapeError(`split: only one section may be -1, got ${JSON.stringify(sections)}`);
  if (sections.some((s) => s < -1)) throw new ShapeError(`split: sections must be non-negative (or one -1), got ${JSON.stringify(sections)}`);
  const known = sections.reduce((acc, s) => (s === -1 ? acc : acc + s), 0);
  const sizes: Dim[] = [...sections];
  if (unknown >= 0) {
    if (typeof dim === 'number' && known >= dim)
      throw new ShapeError(`split: sections ${JSON.stringify(sections)} other than -1 sum to ${known}, which must be less than the size ${dim} of axis ${axis}`);
    sizes[unknown] = dimSub(dim, known);
  } else if (typeof dim === 'number' && known !== dim) {
    throw new ShapeError(`split: sections ${JSON.stringify(sections)} sum to ${known}, but axis ${axis} of x ${shapeStr(x.shape)} has size ${dim}`);
  }
  return { axis, sizes };
}

/** split(x, num_or_sections, axis=0): several outputs. Kernel attrs: [axis]. */
export const split = registerOp({
  name: 'split',
  inputs: [{ name: 'x' }],
  attrs: [{ name: 'num_or_sections', type: 'int[]' }, { name: 'axis', type: 'int', default: 0 }],
  outputs: ['out'],
  infer: ([x], a) => {
    const { axis, sizes } = splitSections(x, a);
    return sizes.map((s) => { const shape = [...x.shape]; shape[axis] = s; return metaOf(x, shape); });
  },
  numOutputs: ([x], a) => splitSections(x, a).sizes.length,
  encode: (a, [x]) => [splitSections(x, a).axis],
  gradReads: {},
  // Outputs nobody used get zeros.
  grad: ({ inputs: [x], outputs, outGrads, attrs }, ops) => {
    const k = kit(ops);
    const { axis } = splitSections(ops.meta(x!), attrs);
    const parts = outGrads.map((g, i) => g ?? k.zerosOf(outputs[i]));
    return [parts.length === 1 ? parts[0] : k.op('concat', parts, { axis })];
  },
});

function unbindAxis(x: TensorMeta, a: Attrs): number {
  if (x.shape.length === 0) throw new ShapeError('unbind: input is a 0-D tensor');
  return normAxis(intAttr('unbind', 'axis', a.axis), x.shape.length, 'unbind');
}

/** unbind(input, axis=0): one output per index along axis, each without that dim. Kernel attrs: [axis]. */
export const unbind = registerOp({
  name: 'unbind',
  inputs: [{ name: 'input' }],
  attrs: [{ name: 'axis', type: 'int', default: 0 }],
  outputs: ['out'],
  infer: ([x], a) => {
    const axis = unbindAxis(x, a);
    const n = staticDim('unbind', x.shape[axis], `the size of axis ${axis}`);
    const shape = x.shape.filter((_, i) => i !== axis);
    return Array.from({ length: n }, () => metaOf(x, [...shape]));
  },
  numOutputs: ([x], a) => staticDim('unbind', x.shape[unbindAxis(x, a)], 'the unbound axis'),
  encode: (a, [x]) => [unbindAxis(x, a)],
  gradReads: {},
  grad: ({ inputs: [x], outputs, outGrads, attrs }, ops) => {
    const k = kit(ops);
    return [k.op('stack', outGrads.map((g, i) => g ?? k.zerosOf(outputs[i])), { axis: unbindAxis(ops.meta(x!), attrs) })];
  },
});

/** repeat_times padded with leading 1s to the output rank (x is padded the same way). */
function tileReps(x: TensorMeta, a: Attrs): number[] {
  const reps = intList('tile', 'repeat_times', a.repeat_times, false);
  if (reps.length === 0) throw new ShapeError('tile: repeat_times must not be empty');
  for (const r of reps) if (r <= 0) throw new ShapeError(`tile: every element of repeat_times must be greater than 0, got ${JSON.stringify(reps)}`);
  const rank = Math.max(reps.length, x.shape.length);
  return [...new Array<number>(rank - reps.length).fill(1), ...reps];
}

/** tile(x, repeat_times). Kernel attrs: repeat_times padded to the output rank. */
export const tile = registerOp({
  name: 'tile',
  inputs: [{ name: 'x' }],
  attrs: [{ name: 'repeat_times', type: 'int[]' }],
  outputs: ['out'],
  infer: ([x], a) => {
    const reps = tileReps(x, a);
    const xs: Dim[] = [...new Array<Dim>(reps.length - x.shape.length).fill(1), ...x.shape];
    return [metaOf(x, xs.map((d, i) => dimMul(d, reps[i])))];
  },
  encode: (a, [x]) => tileReps(x, a),
  gradReads: {},
  // Output dim i is reps[i] copies of x's dim: view g as [.., reps, dim, ..] and sum the copies.
  grad: ({ inputs: [x], outGrads: [g], attrs }, ops) => {
    const k = kit(ops);
    const reps = tileReps(ops.meta(x!), attrs);
    const xs = [...new Array<number>(reps.length - k.rank(x!)).fill(1), ...k.shape(x!)];
    const split = xs.flatMap((d, i) => [reps[i], d]);
    const summed = k.sum(k.reshape(g!, split), reps.map((_, i) => 2 * i));
    return [k.reshape(summed, k.shape(x!))];
  },
});

function flipAxes(x: TensorMeta, a: Attrs): Set<number> {
  const raw = intList('flip', 'axis', a.axis);
  if (new Set(raw).size !== raw.length) throw new ShapeError(`flip: axis ${JSON.stringify(raw)} has duplicates`);
  return new Set(x.shape.length === 0 ? [] : axisList('flip', raw, x.shape.length, true));
}

/** flip(x, axis). Kernel attrs: [first, step] per dim, as strided_slice's copy kernel reads them. */
export const flip = registerOp({
  name: 'flip',
  inputs: [{ name: 'x' }],
  attrs: [{ name: 'axis', type: 'int[]' }],
  outputs: ['out'],
  infer: ([x], a) => { flipAxes(x, a); return [metaOf(x, [...x.shape])]; },
  encode: (a, [x]) => {
    const axes = flipAxes(x, a);
    return (x.shape as number[]).flatMap((d, i) => (axes.has(i) && d > 0 ? [d - 1, -1] : [0, 1]));
  },
  gradReads: {},
  grad: ({ outGrads: [g], attrs }, ops) => [kit(ops).op('flip', [g], { axis: attrs.axis })],
});

const PAD_MODES = ['constant', 'reflect', 'replicate', 'circular'];
const PAD_FORMATS: Record<number, string[]> = { 3: ['NCL', 'NLC'], 4: ['NCHW', 'NHWC'], 5: ['NCDHW', 'NDHWC'] };

/**
 * [before, after] per dim from F.pad's `pad`. A list of 2*rank entries pads every dim, first dim
 * first; otherwise x must be 3-, 4- or 5-D and pad lists the spatial dims from the last one
 * backwards ([left, right, top, bottom, front, back]), as Paddle 2.6 does through pad3d.
 */
function padPairs(x: TensorMeta, a: Attrs): [number, number][] {
  const pad = intList('pad', 'pad', a.pad, false);
  const mode = String(a.mode);
  if (!PAD_MODES.includes(mode)) throw new ShapeError(`pad: mode must be one of ${PAD_MODES.join(', ')}, got '${mode}'`);
  const format = String(a.data_format).toUpperCase();
  if (!Object.values(PAD_FORMATS).flat().includes(format)) throw new ShapeError(`pad: data_format must be one of NCL, NCHW, NCDHW, NLC, NHWC, NDHWC, got '${a.data_format}'`);
  for (const p of pad) if (p < 0) throw new ShapeError(`pad: paddings must be >= 0, got ${JSON.stringify(pad)}`);
  const rank = x.shape.length;
  const pairs: [number, number][] = x.shape.map(() => [0, 0]);
  // Only constant mode pads every dim; the other modes go through Paddle's pad3d (spatial dims only).
  if (pad.length === 2 * rank && mode === 'constant') {
    for (let i = 0; i < rank; i++) pairs[i] = [pad[2 * i], pad[2 * i + 1]];
    return pairs;
  }
  if (!(rank in PAD_FORMATS)) throw new ShapeError(`pad: pad has ${pad.length} entries, so x must be 3-, 4- or 5-D (or pad must have ${2 * rank} entries); x is ${shapeStr(x.shape)}`);
  if (!PAD_FORMATS[rank].includes(format)) throw new ShapeError(`pad: data_format for a ${rank}-D input must be one of ${PAD_FORMATS[rank].join(', ')}, got '${format}'`);
  const spatial = rank - 2;
  if (pad.length !== 2 * spatial) throw new ShapeError(`pad: pad must have ${2 * spatial} entries for a ${rank}-D input (or ${2 * rank} to pad every dim), got ${pad.length}`);
  const first = format.indexOf('C') === 1 ? 2 : 1;
  for (let k = 0; k < spatial; k++) pairs[first + spatial - 1 - k] = [pad[2 * k], pad[2 * k + 1]];
  return pairs;
}

/** nn.functional.pad(x, pad, mode='constant', value=0.0, data_format='NCHW'). Kernel attrs: [value, before0, after0, ...]. */
export const pad = registerOp({
  name: 'pad',
  inputs: [{ name: 'x' }],
  attrs: [
    { name: 'pad', type: 'int[]' }, { name: 'mode', type: 'str', default: 'constant' },
    { name: 'value', type: 'float', default: 0.0 }, { name: 'data_format', type: 'str', default: 'NCHW' },
  ],
  outputs: ['out'],
  infer: ([x], a) => {
    if (typeof a.value !== 'number') throw new TypeError(`pad: value must be a number, got ${JSON.stringify(a.value)}`);
    const pairs = padPairs(x, a);
    if (a.mode !== 'constant') checkEdgePads(x, pairs, String(a.mode));
    return [metaOf(x, x.shape.map((d, i) => dimAdd(d, pairs[i][0] + pairs[i][1])))];
  },
  // Other modes append their code; the kernel hands them to pad_modes (native/kernels/shape_more.cc).
  encode: (a, [x]) => {
    const pairs = padPairs(x, a);
    const mode = PAD_MODES.indexOf(String(a.mode));
    if (mode > 0) checkEdgePads(x, pairs, String(a.mode));
    return mode > 0 ? [Number(a.value), ...pairs.flat(), mode] : [Number(a.value), ...pairs.flat()];
  },
  gradReads: {},
  grad: ({ inputs: [x], outGrads: [g], attrs }, ops) => {
    const pairs = padPairs(ops.meta(x!), attrs);
    if (attrs.mode !== 'constant') return [padEdgeGrad(kit(ops), g!, kit(ops).shape(x!), pairs, String(attrs.mode))];
    const xs = kit(ops).shape(x!);
    const axes = xs.map((_, i) => i);
    return [kit(ops).op('slice', [g], { axes, starts: pairs.map((p) => p[0]), ends: pairs.map((p, i) => p[0] + xs[i]) })];
  },
  api: { names: ['nn.functional.pad'], methods: [] },
});
