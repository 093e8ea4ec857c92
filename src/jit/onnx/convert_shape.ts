// Converters for shape ops (reshape, flatten, transpose, squeeze, slicing, joins) and constant
// creation. Ops whose result shape is fully described by the PIR result type (flatten,
// squeeze, unsqueeze) become one Reshape to that type, which also keeps symbolic dims.
import { convert, normAxis } from './context.js';
import { encodeValues, onnxDType } from './graph.js';
import type { TensorType } from '../../pir/index.js';

convert('reshape', (c) => {
  // Paddle's 0 (copy the input dim) and -1 (infer) mean what they mean to ONNX Reshape.
  const shape = c.attr<number[] | number>('shape');
  c.out(c.g.op('Reshape', [c.in(0), c.g.ints(typeof shape === 'number' ? [shape] : shape)]));
});

convert(['flatten', 'squeeze', 'unsqueeze'], (c) => {
  const y = c.g.reshapeTo(c.in(0), c.shape(0), c.outShape(), c.name);
  c.out(y === c.in(0) ? c.g.op('Identity', [y]) : y);
});

convert('transpose', (c) => {
  const r = c.rank(0);
  c.out(c.g.op('Transpose', [c.in(0)], { perm: c.attr<number[]>('perm').map((a) => normAxis(a, r)) }));
});

convert('concat', (c) => {
  const r = c.outShape().length;
  c.out(c.g.op('Concat', c.list(0), { axis: normAxis(c.attr<number>('axis'), r) }));
});

convert('stack', (c) => {
  const axis = normAxis(c.attr<number>('axis'), c.outShape().length);
  const parts = c.list(0).map((x) => c.g.op('Unsqueeze', [x, c.g.ints([axis])]));
  c.out(c.g.op('Concat', parts, { axis }));
});

convert('split', (c) => {
  const t = c.op.result(0).type;
  const outs = (t.kind === 'vector' ? t.elements : [t]) as TensorType[];
  const axis = normAxis(c.attr<number>('axis'), c.rank(0));
  const sizes = outs.map((o) => o.shape[axis]);
  if (!sizes.every((d) => typeof d === 'number')) c.fail(`section sizes along axis ${axis} must be static, got [${sizes.map(String).join(', ')}]`);
  const names = c.g.node('Split', [c.in(0), c.g.ints(sizes as number[])], { axis }, outs.length);
  c.g.bind(c.op.result(0), names);
});

convert(['slice', 'strided_slice'], (c) => {
  const r = c.rank(0);
  const axes = c.attr<number[]>('axes').map((a) => normAxis(a, r));
  const ins = [c.in(0), c.g.ints(c.attr<number[]>('starts')), c.g.ints(c.attr<number[]>('ends')), c.g.ints(axes)];
  if (c.name === 'strided_slice') ins.push(c.g.ints(c.attr<number[]>('strides')));
  const y = c.g.op('Slice', ins);
  // A slice that also drops axes (decrease_axis in Paddle) has a lower-rank result type.
  c.out(c.outShape().length === r ? y : c.g.reshapeTo(y, c.shape(0).map((d, i) => (axes.includes(i) ? -1 : d)), c.outShape(), c.name));
});

convert('expand', (c) => {
  // Paddle's -1 keeps the input dim; Expand's broadcasting does the same with 1.
  const shape = c.attr<number[]>('shape').map((d) => (d === -1 ? 1 : d));
  c.out(c.g.op('Expand', [c.in(0), c.g.ints(shape)]));
});

convert('tile', (c) => {
  const reps = c.attr<number[]>('repeat_times');
  const r = Math.max(reps.length, c.rank(0));
  const x = c.rank(0) < r ? c.g.op('Unsqueeze', [c.in(0), c.g.ints(Array.from({ length: r - c.rank(0) }, (_, i) => i))]) : c.in(0);
  c.out(c.g.op('Tile', [x, c.g.ints([...new Array(r - reps.length).fill(1), ...reps])]));
});

/** ConstantOfShape's `value` attribute: a one-element tensor of the result dtype. */
function fillValue(dtype: TensorType['dtype'], v: number | boolean): { tensor: { dims: number[]; data_type: number; raw_data: Uint8Array } } {
  return { tensor: { dims: [1], data_type: onnxDType(dtype, 'full'), raw_data: encodeValues(dtype, [v]) } };
}

convert('full', (c) => {
  const shape = c.outShape();
  if (!shape.every((d) => typeof d === 'number')) c.fail(`shape [${shape.map(String).join(', ')}] must be static`);
  const v = c.attr<number | boolean>('fill_value');
  c.out(c.g.op('ConstantOfShape', [c.g.ints(shape as number[])], { value: fillValue(c.outDtype(), v) }));
});

convert('full_like', (c) => {
  c.out(c.g.op('ConstantOfShape', [c.g.op('Shape', [c.in(0)])], { value: fillValue(c.outDtype(), c.attr<number | boolean>('fill_value')) }));
});
