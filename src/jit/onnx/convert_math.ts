// Converters for elementwise math, activations, comparisons, matmul and reductions.
// Paddle's binary ops broadcast like numpy, as ONNX's do; mixed operand dtypes (which Paddle
// promotes) get explicit Casts since ONNX requires equal input types.
import type { DType } from '../../tensor/dtype.js';
import { commonDtype, convert, normAxis, type OpContext } from './context.js';
import { f32attr, onnxDType, type OnnxGraph } from './graph.js';

/** Operands 0 and 1 cast to `to` (default: the result dtype). */
function operands2(c: OpContext, to: DType = c.outDtype()): [string, string] {
  return [c.g.cast(c.in(0), c.dtype(0), to), c.g.cast(c.in(1), c.dtype(1), to)];
}

const BINARY: Record<string, string> = {
  add: 'Add', subtract: 'Sub', multiply: 'Mul', divide: 'Div', elementwise_pow: 'Pow', maximum: 'Max', minimum: 'Min',
};
for (const [name, onnx] of Object.entries(BINARY)) {
  convert(name, (c) => c.out(c.g.op(onnx, operands2(c))));
}

const COMPARE: Record<string, string> = {
  equal: 'Equal', less_than: 'Less', less_equal: 'LessOrEqual', greater_than: 'Greater', greater_equal: 'GreaterOrEqual',
};
for (const [name, onnx] of Object.entries(COMPARE)) {
  convert(name, (c) => c.out(c.g.op(onnx, operands2(c, commonDtype(c.dtype(0), c.dtype(1))))));
}
convert('not_equal', (c) => c.out(c.g.op('Not', [c.g.op('Equal', operands2(c, commonDtype(c.dtype(0), c.dtype(1))))])));
convert('logical_and', (c) => c.out(c.g.op('And', operands2(c, 'bool'))));
convert('logical_or', (c) => c.out(c.g.op('Or', operands2(c, 'bool'))));
convert('logical_not', (c) => c.out(c.g.op('Not', [c.g.cast(c.in(0), c.dtype(0), 'bool')])));

convert('where', (c) => {
  const dt = c.outDtype();
  c.out(c.g.op('Where', [c.g.cast(c.in(0), c.dtype(0), 'bool'), c.g.cast(c.in(1), c.dtype(1), dt), c.g.cast(c.in(2), c.dtype(2), dt)]));
});

const UNARY: Record<string, string> = {
  relu: 'Relu', sigmoid: 'Sigmoid', tanh: 'Tanh', exp: 'Exp', log: 'Log', sqrt: 'Sqrt', abs: 'Abs', erf: 'Erf', floor: 'Floor',
  ceil: 'Ceil', sin: 'Sin', cos: 'Cos', reciprocal: 'Reciprocal', sign: 'Sign', hardswish: 'HardSwish',
  round: 'Round', assign: 'Identity', neg: 'Neg',
};
for (const [name, onnx] of Object.entries(UNARY)) convert(name, (c) => c.out(c.g.op(onnx, [c.in(0)])));

convert('rsqrt', (c) => c.out(c.g.op('Reciprocal', [c.g.op('Sqrt', [c.in(0)])])));
convert('square', (c) => c.out(c.g.op('Mul', [c.in(0), c.in(0)])));
convert('silu', (c) => c.out(c.g.op('Mul', [c.in(0), c.g.op('Sigmoid', [c.in(0)])])));
convert('leaky_relu', (c) => c.out(c.g.op('LeakyRelu', [c.in(0)], { alpha: f32attr(c.attr<number>('negative_slope')) })));
convert('hardsigmoid', (c) => c.out(c.g.op('HardSigmoid', [c.in(0)], { alpha: f32attr(c.attr<number>('slope')), beta: f32attr(c.attr<number>('offset')) })));
convert('relu6', (c) => c.out(c.g.op('Clip', [c.in(0), c.g.scalar(c.dtype(0), 0), c.g.scalar(c.dtype(0), 6)])));
convert('clip', (c) => {
  const lo = c.attr<number | null>('min'), hi = c.attr<number | null>('max');
  c.out(c.g.op('Clip', [c.in(0), lo === null ? '' : c.g.scalar(c.dtype(0), lo), hi === null ? '' : c.g.scalar(c.dtype(0), hi)]));
});

/** gelu(x): exact (erf) or tanh form; opset 17 has no Gelu op, so it is spelled out. */
export function gelu(g: OnnxGraph, x: string, dt: DType, approximate: boolean): string {
  const k = (v: number) => g.scalar(dt, v);
  if (!approximate) {
    const e = g.op('Erf', [g.op('Mul', [x, k(Math.SQRT1_2)])]);
    return g.op('Mul', [g.op('Mul', [x, k(0.5)]), g.op('Add', [e, k(1)])]);
  }
  const cube = g.op('Mul', [g.op('Mul', [x, x]), x]);
  const inner = g.op('Mul', [g.op('Add', [x, g.op('Mul', [cube, k(0.044715)])]), k(Math.sqrt(2 / Math.PI))]);
  return g.op('Mul', [g.op('Mul', [x, k(0.5)]), g.op('Add', [g.op('Tanh', [inner]), k(1)])]);
}
convert('gelu', (c) => c.out(gelu(c.g, c.in(0), c.dtype(0), Boolean(c.attr('approximate')))));

convert(['softmax', 'log_softmax'], (c) => {
  const x = c.g.cast(c.in(0), c.dtype(0), c.outDtype());  // dtype= casts first, as Paddle does
  c.out(c.g.op(c.name === 'softmax' ? 'Softmax' : 'LogSoftmax', [x], { axis: normAxis(c.attr<number>('axis'), c.rank(0)) }));
});

convert('scale', (c) => {
  const dt = c.dtype(0);
  const s = c.attr<number>('scale'), b = c.attr<number>('bias');
  let y = c.in(0);
  if (!c.attr('bias_after_scale') && b !== 0) y = c.g.op('Add', [y, c.g.scalar(dt, b)]);
  if (s !== 1) y = c.g.op('Mul', [y, c.g.scalar(dt, s)]);
  if (c.attr('bias_after_scale') && b !== 0) y = c.g.op('Add', [y, c.g.scalar(dt, b)]);
  c.out(y === c.in(0) ? c.g.op('Identity', [y]) : y);
});

convert('cast', (c) => c.out(c.g.op('Cast', [c.in(0)], { to: onnxDType(c.outDtype(), 'cast') })));

convert('dropout', (c) => {
  const p = c.attr<number>('p');
  if (c.attr('training') && p !== 0) c.fail(`training-mode dropout (p=${p}) cannot be exported; export the layer in eval mode`);
  // downscale_in_infer scales by (1 - p) at inference; upscale_in_train is the identity.
  if (c.attr('mode') === 'downscale_in_infer' && p !== 0) c.out(c.g.op('Mul', [c.in(0), c.g.scalar(c.dtype(0), 1 - p)]));
  else c.out(c.g.op('Identity', [c.in(0)]));
});

/** x (rank r) with its last two dims swapped; 1-D operands are left as they are (as Paddle does). */
function swapLast(g: OnnxGraph, x: string, rank: number): string {
  if (rank < 2) return x;
  const perm = Array.from({ length: rank }, (_, i) => i);
  [perm[rank - 2], perm[rank - 1]] = [perm[rank - 1], perm[rank - 2]];
  return g.op('Transpose', [x], { perm });
}

export function matmul(c: OpContext, tx: boolean, ty: boolean): string {
  const [x, y] = operands2(c);
  return c.g.op('MatMul', [tx ? swapLast(c.g, x, c.rank(0)) : x, ty ? swapLast(c.g, y, c.rank(1)) : y]);
}
convert('matmul', (c) => c.out(matmul(c, Boolean(c.attr('transpose_x')), Boolean(c.attr('transpose_y')))));

convert('fused_gemm_epilogue', (c) => {
  let y = c.g.op('Add', [matmul(c, Boolean(c.attr('trans_x')), Boolean(c.attr('trans_y'))), c.g.cast(c.in(2), c.dtype(2), c.outDtype())]);
  const act = c.attr<string>('activation');
  if (act === 'relu') y = c.g.op('Relu', [y]);
  else if (act === 'gelu') y = gelu(c.g, y, c.outDtype(), false);
  else if (act !== 'none' && act !== '') c.fail(`activation '${act}' has no ONNX conversion`);
  c.out(y);
});

/** Reduction axes as a sorted list (null / [] mean all). */
function reduceAxes(c: OpContext): number[] {
  const a = c.attr<number | number[] | null>('axis');
  const r = c.rank(0);
  const list = a === null ? [] : typeof a === 'number' ? [a] : a;
  return (list.length ? list.map((x) => normAxis(x, r)) : Array.from({ length: r }, (_, i) => i)).sort((p, q) => p - q);
}
const REDUCE: Record<string, string> = { mean: 'ReduceMean', sum: 'ReduceSum', max: 'ReduceMax', min: 'ReduceMin', prod: 'ReduceProd' };
for (const [name, onnx] of Object.entries(REDUCE)) {
  convert(name, (c) => {
    const x = c.g.cast(c.in(0), c.dtype(0), c.outDtype());  // sum of bool/int32 gives int64 in Paddle
    const axes = reduceAxes(c);
    const keepdims = c.attr('keepdim') ? 1 : 0;
    if (c.rank(0) === 0) { c.out(c.g.op('Identity', [x])); return; }
    // ReduceSum takes axes as an input from opset 13; the others from opset 18.
    const y = onnx === 'ReduceSum' || c.opset >= 18
      ? c.g.op(onnx, [x, c.g.ints(axes)], { keepdims })
      : c.g.op(onnx, [x], { axes, keepdims });
    c.out(y);
  });
}
