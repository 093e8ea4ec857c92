// Legacy (ProgramDesc) elementwise, reduction, shape and creation ops -> Skiff registry ops.
// The elementwise family keeps fluid's `axis` broadcast (Y aligned to X starting at dim axis);
// tensor-valued attributes (ShapeTensor, StartsTensor, ...) are refused by name rather than
// guessed, so an imported model never computes something different from Paddle.
import type { TensorLike } from '../../ops/dispatch.js';
import { to_tensor } from '../../tensor/creation.js';
import { untracked } from '../../tensor/tensor.js';
import { eagerly } from '../../static/mode.js';
import { type OpCtx, type Translator } from './context.js';

/**
 * Fluid's elementwise broadcast: with axis = -1 (or equal ranks) numpy rules apply; otherwise
 * the lower-rank operand's dims line up with the other's starting at `axis`, so it is reshaped
 * to rank(X) with ones around it.
 */
export function legacyBroadcast(c: OpCtx, x: TensorLike, y: TensorLike, axis: number): [TensorLike, TensorLike] {
  const rx = x.shape.length, ry = y.shape.length;
  if (axis === -1 || rx === ry) return [x, y];
  const [big, small, swap] = rx > ry ? [x, y, false] : [y, x, true];
  const rb = big.shape.length, rs = small.shape.length;
  const a = axis < 0 ? axis + rb - rs + 1 : axis;  // Paddle: a negative axis counts from the end
  if (a < 0 || a + rs > rb) c.fail(`attribute 'axis' = ${axis} does not fit a rank-${rs} operand into rank ${rb}`);
  const shape = [...new Array<number>(a).fill(1), ...small.shape.map((d) => (typeof d === 'number' ? d : 0)), ...new Array<number>(rb - a - rs).fill(1)];
  // 0 copies the operand's own (symbolic) dim only when it sits at the same index; otherwise refuse
  if (a !== 0 && small.shape.some((d) => typeof d !== 'number')) c.fail(`broadcasting an operand with unknown dims at axis ${axis} is not supported`);
  const r = c.run1('reshape', [small], { shape });
  return swap ? [r, big] : [big, r];
}

/** Binary ops with the legacy axis attribute (arithmetic and comparisons alike). */
const elementwise = (op: string): Translator => (c) => {
  const [x, y] = legacyBroadcast(c, c.in('X'), c.in('Y'), c.int('axis', -1));
  c.set('Out', c.run1(op, [x, y]));
};
const unary = (op: string): Translator => (c) => c.set('Out', c.run1(op, [c.in('X')]));

/** reduce_*: dim, keep_dim, reduce_all (or an empty dim) reduces everything. */
const reduce = (op: string): Translator => (c) => {
  const dims = c.has('dim') ? c.ints('dim') : [];
  const all = c.bool('reduce_all', false) || dims.length === 0;
  c.set('Out', c.run1(op, [c.in('X')], { axis: all ? null : dims, keepdim: c.bool('keep_dim', false) }));
};

const reshape: Translator = (c) => {
  c.noTensorInputs('Shape', 'ShapeTensor');
  c.set('Out', c.run1('reshape', [c.in('X')], { shape: c.ints('shape') }));
};

/** flatten / flatten2: to 2-D [prod(x[:axis]), prod(x[axis:])]. */
const flatten2d: Translator = (c) => {
  const x = c.in('X');
  const r = x.shape.length, axis = c.int('axis', 1);
  if (axis < 0 || axis > r) c.fail(`attribute 'axis' = ${axis} is out of range for rank ${r}`);
  let v = x;
  if (axis === 0) v = c.run1('reshape', [x], { shape: [1, -1] });
  else if (axis === r) v = c.run1('unsqueeze', [r > 1 ? c.run1('flatten', [x], { start_axis: 0, stop_axis: r - 1 }) : x], { axis: [1] });
  else {
    if (r - axis > 1) v = c.run1('flatten', [v], { start_axis: axis, stop_axis: r - 1 });
    if (axis > 1) v = c.run1('flatten', [v], { start_axis: 0, stop_axis: axis - 1 });
  }
  c.set('Out', v);
};

const slice: Translator = (c) => {
  c.noTensorInputs('StartsTensor', 'EndsTensor', 'StartsTensorList', 'EndsTensorList');
  const x = c.in('Input');
  const axes = c.ints('axes'), starts = c.ints('starts'), ends = c.ints('ends');
  if (starts.length !== axes.length || ends.length !== axes.length) c.fail(`axes, starts and ends must have equal lengths, got ${axes.length}, ${starts.length}, ${ends.length}`);
  // Paddle writes INT_MAX-like ends for "to the end"; clamp to the dim so the registry op sees a valid slice.
  const clampedEnds = ends.map((e, i) => {
    const d = x.shape[axes[i] < 0 ? axes[i] + x.shape.length : axes[i]];
    return typeof d === 'number' && e > d ? d : e;
  });
  let out = c.run1('slice', [x], { axes, starts, ends: clampedEnds });
  const dec = c.has('decrease_axis') ? c.ints('decrease_axis') : [];
  if (dec.length) out = c.run1('squeeze', [out], { axis: dec });
  c.set('Out', out);
};

const split: Translator = (c) => {
  c.noTensorInputs('AxisTensor', 'SectionsTensorList');
  const num = c.int('num', 0), sections = c.has('sections') ? c.ints('sections') : [];
  const n = num > 0 ? num : sections;
  if (num <= 0 && !sections.length) c.fail("needs 'num' > 0 or 'sections'");
  c.setAll('Out', c.run('split', [c.in('X')], { num_or_sections: n, axis: c.int('axis', 0) }));
};

const fillConstant: Translator = (c) => {
  c.noTensorInputs('ShapeTensor', 'ShapeTensorList', 'ValueTensor');
  const shape = c.has('shape') ? c.ints('shape') : [];
  if (shape.some((d) => d < 0)) c.fail(`shape ${JSON.stringify(shape)} has a negative dim`);
  const dtype = c.dtype('dtype', 5);
  const sv = c.has('str_value') ? c.str('str_value') : '';
  let value: number | boolean = c.has('value') ? c.float('value') : 0;
  if (sv !== '') {
    const n = Number(sv);
    if (sv === 'inf' || sv === '-inf' || sv === 'nan') value = sv === 'nan' ? NaN : sv[0] === '-' ? -Infinity : Infinity;
    else if (Number.isNaN(n)) c.fail(`str_value '${sv}' is not a number`);
    else value = n;
  }
  if (dtype === 'bool') value = value !== 0;
  c.set('Out', c.run1('full', [], { shape, fill_value: value, dtype }));
};

/** shape: the input's dims as an int32 tensor; only static dims can be known when importing. */
const shapeOp: Translator = (c) => {
  const x = c.in('Input');
  const dims = x.shape.map((d) => (typeof d === 'number' ? d : null));
  if (dims.some((d) => d === null)) c.fail(`the input has unknown dims [${x.shape.map(String).join(', ')}]; a run-time shape is not supported`);
  c.set('Out', untracked(() => eagerly(() => to_tensor(dims as number[], 'int32'))));
};

const cast: Translator = (c) => c.set('Out', c.run1('cast', [c.in('X')], { dtype: c.dtype('out_dtype') }));

const argExt = (op: string): Translator => (c) => {
  let x = c.in('X');
  let axis = c.int('axis', 0);
  if (c.bool('flatten', false)) { x = c.run1('reshape', [x], { shape: [-1] }); axis = 0; }
  const dt = c.int('dtype', -1);
  c.set('Out', c.run1(op, [x], { axis, keepdim: c.bool('keepdims', false), dtype: dt === 2 ? 'int32' : 'int64' }));
};

const topk = (v2: boolean): Translator => (c) => {
  c.noTensorInputs('K');
  const [out, idx] = c.run('topk', [c.in('X')], {
    k: c.int('k', 1), axis: v2 ? c.int('axis', -1) : -1, largest: v2 ? c.bool('largest', true) : true, sorted: v2 ? c.bool('sorted', true) : true,
  });
  c.set('Out', out);
  c.set('Indices', idx);
};

/** pad (constant, every dim: [before0, after0, before1, ...]). */
const pad: Translator = (c) => {
  const x = c.in('X');
  const p = c.ints('paddings');
  if (p.length !== 2 * x.shape.length) c.fail(`attribute 'paddings' must have ${2 * x.shape.length} entries for rank ${x.shape.length}, got ${p.length}`);
  c.set('Out', c.run1('pad', [x], { pad: p, mode: 'constant', value: c.float('pad_value', 0) }));
};

/** pad3d: [left, right, top, bottom, front, back] on a 5-D input. */
const pad3d: Translator = (c) => {
  c.noTensorInputs('Paddings');
  const p = c.ints('paddings');
  if (p.length !== 6) c.fail(`attribute 'paddings' must have 6 entries, got ${p.length}`);
  const mode = c.str('mode', 'constant');
  c.set('Out', c.run1('pad', [c.in('X')], { pad: p, mode, value: c.float('value', 0), data_format: c.str('data_format', 'NCDHW') }));
};

const clip: Translator = (c) => {
  c.noTensorInputs('Min', 'Max');
  c.set('Out', c.run1('clip', [c.in('X')], { min: c.float('min'), max: c.float('max') }));
};

/** sum (legacy): the sum of a list of tensors. */
const sumList: Translator = (c) => {
  const xs = c.ins('X');
  let acc = xs[0];
  for (const x of xs.slice(1)) acc = c.run1('add', [acc, x]);
  c.set('Out', acc);
};

const gather: Translator = (c) => {
  c.noTensorInputs('Axis');
  const idx = c.in('Index');
  c.set('Out', c.run1('gather', [c.in('X'), idx], { axis: c.int('axis', 0) }));
};

const expand: Translator = (c) => {
  c.noTensorInputs('Shape', 'expand_shapes_tensor');
  const x = c.in('X');
  const shape = c.ints('shape');
  const off = shape.length - x.shape.length;
  if (off < 0) c.fail(`shape ${JSON.stringify(shape)} has fewer dims than X (rank ${x.shape.length})`);
  // -1 keeps the input's dim; resolve it here so symbolic-free shapes reach the registry op
  const resolved = shape.map((d, i) => {
    if (d !== -1) return d;
    const xd = i >= off ? x.shape[i - off] : null;
    if (xd === null) c.fail(`shape ${JSON.stringify(shape)}: -1 at a new leading dim`);
    return typeof xd === 'number' ? xd : -1;
  });
  c.set('Out', c.run1('expand', [x], { shape: resolved }));
};

export const TENSOR_OPS: Record<string, Translator> = {
  elementwise_add: elementwise('add'), elementwise_sub: elementwise('subtract'),
  elementwise_mul: elementwise('multiply'), elementwise_div: elementwise('divide'),
  elementwise_pow: elementwise('elementwise_pow'), elementwise_max: elementwise('maximum'), elementwise_min: elementwise('minimum'),
  elementwise_floordiv: elementwise('floor_divide'), elementwise_mod: elementwise('remainder'),
  equal: elementwise('equal'), not_equal: elementwise('not_equal'), less_than: elementwise('less_than'), less_equal: elementwise('less_equal'),
  greater_than: elementwise('greater_than'), greater_equal: elementwise('greater_equal'),
  exp: unary('exp'), log: unary('log'), sqrt: unary('sqrt'), rsqrt: unary('rsqrt'), abs: unary('abs'), square: unary('square'),
  floor: unary('floor'), ceil: unary('ceil'), sin: unary('sin'), cos: unary('cos'), erf: unary('erf'), reciprocal: unary('reciprocal'),
  logical_not: unary('logical_not'),
  reduce_mean: reduce('mean'), reduce_sum: reduce('sum'), reduce_max: reduce('max'), reduce_min: reduce('min'), reduce_prod: reduce('prod'),
  mean: (c) => c.set('Out', c.run1('mean', [c.in('X')], { axis: null })),
  sum: sumList,
  scale: (c) => {
    c.noTensorInputs('ScaleTensor');
    c.set('Out', c.run1('scale', [c.in('X')], { scale: c.float('scale', 1), bias: c.float('bias', 0), bias_after_scale: c.bool('bias_after_scale', true) }));
  },
  reshape2: reshape, reshape: reshape,
  transpose2: (c) => c.set('Out', c.run1('transpose', [c.in('X')], { perm: c.ints('axis') })),
  transpose: (c) => c.set('Out', c.run1('transpose', [c.in('X')], { perm: c.ints('axis') })),
  flatten_contiguous_range: (c) => c.set('Out', c.run1('flatten', [c.in('X')], { start_axis: c.int('start_axis', 1), stop_axis: c.int('stop_axis', -1) })),
  flatten2: flatten2d, flatten: flatten2d,
  squeeze2: (c) => { const a = c.has('axes') ? c.ints('axes') : []; c.set('Out', c.run1('squeeze', [c.in('X')], { axis: a.length ? a : null })); },
  unsqueeze2: (c) => { c.noTensorInputs('AxesTensor', 'AxesTensorList'); c.set('Out', c.run1('unsqueeze', [c.in('X')], { axis: c.ints('axes') })); },
  concat: (c) => { c.noTensorInputs('AxisTensor'); c.set('Out', c.run1('concat', c.ins('X'), { axis: c.int('axis', 0) })); },
  stack: (c) => c.set('Y', c.run1('stack', c.ins('X'), { axis: c.int('axis', 0) })),
  split, slice,
  fill_constant: fillConstant, shape: shapeOp, cast, gather,
  arg_max: argExt('argmax'), arg_min: argExt('argmin'),
  top_k_v2: topk(true), top_k: topk(false),
  pad, pad3d, clip, expand_v2: expand,
  tile: (c) => { c.noTensorInputs('RepeatTimes', 'repeat_times_tensor'); c.set('Out', c.run1('tile', [c.in('X')], { repeat_times: c.ints('repeat_times') })); },
  where: (c) => c.set('Out', c.run1('where', [c.in('Condition'), c.in('X'), c.in('Y')])),
  assign: (c) => c.set('Out', c.in('X')),
};
