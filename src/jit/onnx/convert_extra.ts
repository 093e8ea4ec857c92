// Converters for the remaining ops the zoo records: *_like creation (BERT's default token
// types), unbind (nn.LSTM walks the time steps of its input), remainder, cumsum (position ids
// of a symbolic sequence length, models/text/positions.ts).
import type { TensorType } from '../../pir/index.js';
import { convert, normAxis } from './context.js';
import { encodeValues, onnxDType } from './graph.js';

function likeFill(dtype: TensorType['dtype'], v: number | boolean): { tensor: { dims: number[]; data_type: number; raw_data: Uint8Array } } {
  return { tensor: { dims: [1], data_type: onnxDType(dtype, 'fill'), raw_data: encodeValues(dtype, [v]) } };
}

convert(['zeros_like', 'ones_like'], (c) => {
  c.out(c.g.op('ConstantOfShape', [c.g.op('Shape', [c.in(0)])], { value: likeFill(c.outDtype(), c.name === 'ones_like' ? 1 : 0) }));
});

convert('unbind', (c) => {
  const t = c.op.result(0).type;
  const outs = (t.kind === 'vector' ? t.elements : [t]) as TensorType[];
  const axis = normAxis(c.attr<number>('axis'), c.rank(0));
  const names = outs.length === 1 ? [c.in(0)] : c.g.node('Split', [c.in(0), c.g.ints(outs.map(() => 1))], { axis }, outs.length);
  c.g.bind(c.op.result(0), names.map((n) => c.g.op('Squeeze', [n, c.g.ints([axis])])));
});

// Paddle's remainder takes the divisor's sign (Python's %): ONNX Mod does that for integers;
// floats use x - floor(x / y) * y, since Mod's fmod=1 takes the dividend's sign.
convert('remainder', (c) => {
  const [x, y] = [c.in(0), c.in(1)];
  if (c.dtype(0) !== c.dtype(1)) c.fail(`operands must have one dtype, got ${c.dtype(0)} and ${c.dtype(1)}`);
  if (c.outDtype().startsWith('int')) { c.out(c.g.op('Mod', [x, y], { fmod: 0 })); return; }
  c.out(c.g.op('Sub', [x, c.g.op('Mul', [c.g.op('Floor', [c.g.op('Div', [x, y])]), y])]));
});

// cumsum(x, axis=None, dtype=None): ONNX CumSum (after the cast Paddle's dtype asks for);
// axis=None runs over the flattened input.
convert('cumsum', (c) => {
  const axis = c.attr<number | null>('axis');
  const x0 = c.g.cast(c.in(0), c.dtype(0), c.outDtype());
  const x = axis === null ? c.g.op('Reshape', [x0, c.g.ints([-1])]) : x0;
  c.out(c.g.op('CumSum', [x, c.g.ints([axis === null ? 0 : normAxis(axis, c.rank(0))])]));
});
