// avg_pool_grad and interpolate_grad records. Both ops are the adjoint (transpose) of a linear
// forward, so the reference is built from the forward's own reference (nn_pool_more.ts,
// nn_interp.ts): x_grad[j] = sum_o out_grad[o] * forward(e_j)[o], e_j the j-th unit input.
import { addRecords, type Sample } from '../op_db.js';
import { castValue, type NDArray, rand } from '../ref.js';
import { refInterp } from './nn_interp.js';
import { refAdaptive, refPool } from './nn_pool_more.js';

type Attrs = Record<string, unknown>;
type Ref = (inputs: (NDArray | NDArray[] | null)[], a: Attrs) => NDArray | NDArray[];

/** The adjoint of a linear forward reference, applied to out_grad (inputs[0]). */
function adjoint(forward: (g: NDArray, a: Attrs) => { ref: Ref; attrs: Attrs }) {
  return (inputs: (NDArray | NDArray[] | null)[], a: Attrs): NDArray => {
    const g = inputs[0] as NDArray;
    const xs = a.x_shape as number[];
    const n = xs.reduce((p, q) => p * q, 1);
    const { ref, attrs } = forward(g, a);
    const data = new Array<number>(n).fill(0);
    const unit: NDArray = { shape: xs, data: new Array<number>(n).fill(0), dtype: 'float64' };
    for (let j = 0; j < n; j++) {
      unit.data[j] = 1;
      const y = ref([unit], attrs) as NDArray;
      let s = 0;
      for (let o = 0; o < y.data.length; o++) if (y.data[o] !== 0) s += y.data[o] * g.data[o];
      data[j] = castValue(s, g.dtype);
      unit.data[j] = 0;
    }
    return { shape: xs, data, dtype: g.dtype };
  };
}

const isCl = (f: unknown) => typeof f === 'string' && f.length > 2 && f[f.length - 1] === 'C';
const poolForward = (g: NDArray, a: Attrs) => {
  const { x_shape: xs, ...rest } = a;
  if (rest.kernel_size === undefined || rest.kernel_size === null) {
    const r = (xs as number[]).length - 2;
    const sp = isCl(rest.data_format) ? g.shape.slice(1, r + 1) : g.shape.slice(2);
    return { ref: refAdaptive('avg'), attrs: { ...rest, output_size: sp } };
  }
  return { ref: refPool('avg'), attrs: rest };
};
const interpForward = (_g: NDArray, a: Attrs) => {
  const { x_shape: _xs, ...rest } = a;
  return { ref: refInterp as Ref, attrs: rest };
};

const r = (shape: number[], seed: number) => rand(shape, 'float32', seed, -2, 2);
const DT = ['float64', 'float16', 'bfloat16'] as const;

const avgSamples: Sample[] = [
  { inputs: [r([2, 2, 4], 1)], attrs: { x_shape: [2, 2, 7], kernel_size: 3, stride: 2, padding: 1 }, strided: true, note: '1-D, exclusive, padding' },
  { inputs: [r([1, 2, 4], 2)], attrs: { x_shape: [1, 2, 7], kernel_size: 3, stride: 2, padding: 1, ceil_mode: true, exclusive: false }, note: '1-D ceil, not exclusive' },
  { inputs: [r([1, 2, 2, 3, 2], 3)], attrs: { x_shape: [1, 2, 4, 5, 4], kernel_size: [2, 3, 2], stride: [2, 2, 2], padding: [0, 1, 0] }, strided: true, note: '3-D' },
  { inputs: [r([1, 2, 2, 2, 3], 4)], attrs: { x_shape: [1, 4, 4, 4, 3], kernel_size: 2, stride: 2, padding: 'SAME', data_format: 'NDHWC' }, strided: true, note: '3-D NDHWC SAME' },
  { inputs: [r([1, 1, 3, 3, 3], 5)], attrs: { x_shape: [1, 1, 4, 4, 4], kernel_size: 2, stride: 1, divisor_override: 3 }, note: 'divisor_override' },
  { inputs: [r([2, 2, 3, 4], 6)], attrs: { x_shape: [2, 2, 5, 7] }, strided: true, note: 'adaptive 2-D (overlapping windows)' },
  { inputs: [r([1, 2, 3, 2], 7)], attrs: { x_shape: [1, 4, 5, 2], data_format: 'NHWC' }, note: 'adaptive NHWC' },
  { inputs: [r([1, 1, 5], 8)], attrs: { x_shape: [1, 1, 3] }, note: 'adaptive 1-D, output larger than input' },
  { inputs: [r([0, 2, 2], 9)], attrs: { x_shape: [0, 2, 4], kernel_size: 2 }, note: 'empty batch' },
];

addRecords({
  op: 'avg_pool_grad',
  samples: avgSamples,
  ref: adjoint(poolForward),
  dtypes: [...DT],
  atol: 1e-5,
  rtol: 1e-4,
  bad: [
    { inputs: [r([1, 1, 3], 1)], attrs: { x_shape: [1, 1, 8], kernel_size: 2 }, error: /avg_pool_grad: out_grad shape \[1, 1, 3\] does not match the forward output \[1, 1, 4\] for x \[1, 1, 8\]/ },
    { inputs: [r([1, 1, 3], 1)], attrs: { x_shape: [1, 1], kernel_size: 2 }, error: /avg_pool_grad: x_shape must be the forward input's shape/ },
    { inputs: [r([1, 1, 3], 1)], attrs: { x_shape: [1, 1, 6], kernel_size: 2, stride: 0 }, error: /avg_pool_grad: stride must be positive/ },
    { inputs: [r([1, 1, 3], 1)], attrs: { x_shape: [1, 1, 6], kernel_size: 2, data_format: 'NCHW' }, error: /avg_pool_grad: data_format must be 'NCL' or 'NLC'/ },
    { inputs: [r([1, 1, 2, 2], 1)], attrs: { x_shape: [1, 1, 4, 4], kernel_size: 2, divisor_override: 0 }, error: /avg_pool_grad: divisor_override must be a nonzero number/ },
    { inputs: [r([1, 2, 3], 1)], attrs: { x_shape: [1, 1, 6] }, error: /avg_pool_grad: out_grad shape \[1, 2, 3\] does not match/ },
    { inputs: [rand([1, 1, 3], 'int32', 1)], attrs: { x_shape: [1, 1, 6], kernel_size: 2 }, error: /avg_pool_grad: expected a floating-point out_grad, got int32/ },
  ],
});

const interpSamples: Sample[] = [
  { inputs: [r([2, 2, 5, 7], 1)], attrs: { x_shape: [2, 2, 3, 4], size: [5, 7], mode: 'bilinear' }, strided: true, note: 'bilinear' },
  { inputs: [r([1, 2, 3, 4], 2)], attrs: { x_shape: [1, 2, 5, 6], size: [3, 4], mode: 'bilinear', align_corners: true }, note: 'bilinear align_corners downsample' },
  { inputs: [r([1, 6, 8, 2], 3)], attrs: { x_shape: [1, 4, 4, 2], scale_factor: [1.5, 2], mode: 'bilinear', align_mode: 1, data_format: 'NHWC' }, strided: true, note: 'bilinear NHWC align_mode 1 scale' },
  { inputs: [r([1, 2, 6, 5], 4)], attrs: { x_shape: [1, 2, 4, 4], size: [6, 5], mode: 'bicubic' }, strided: true, note: 'bicubic' },
  { inputs: [r([2, 3, 9], 5)], attrs: { x_shape: [2, 3, 4], size: 9, mode: 'linear', align_corners: true }, note: 'linear align_corners' },
  { inputs: [r([1, 2, 4, 3, 5], 6)], attrs: { x_shape: [1, 2, 2, 3, 3], size: [4, 3, 5], mode: 'trilinear' }, note: 'trilinear' },
  { inputs: [r([1, 2, 7], 7)], attrs: { x_shape: [1, 2, 3], scale_factor: 2.5 }, note: 'nearest 1-D' },
  { inputs: [r([1, 2, 3, 4], 8)], attrs: { x_shape: [1, 2, 7, 9], size: [3, 4], mode: 'area' }, note: 'area' },
  { inputs: [r([0, 2, 4, 4], 9)], attrs: { x_shape: [0, 2, 2, 2], size: [4, 4], mode: 'bilinear' }, note: 'empty batch' },
];

addRecords({
  op: 'interpolate_grad',
  samples: interpSamples,
  ref: adjoint(interpForward),
  dtypes: [...DT],
  atol: 1e-5,
  rtol: 1e-4,
  bad: [
    { inputs: [r([1, 2, 5, 5], 1)], attrs: { x_shape: [1, 2, 3, 3], size: [5, 6], mode: 'bilinear' }, error: /interpolate_grad: out_grad shape \[1, 2, 5, 5\] does not match the forward output \[1, 2, 5, 6\]/ },
    { inputs: [r([1, 2, 5, 5], 1)], attrs: { x_shape: [1, 2, 3, 3], size: [5, 5], mode: 'linear' }, error: /interpolate_grad: mode 'linear' needs a 3-D input/ },
    { inputs: [r([1, 2, 5, 5], 1)], attrs: { x_shape: [1, 2, 3, 3] }, error: /interpolate_grad: One of size and scale_factor must not be None/ },
    { inputs: [r([1, 2, 5, 5], 1)], attrs: { x_shape: [2, 3], size: [5, 5] }, error: /interpolate_grad: x_shape must be the forward input's shape/ },
    { inputs: [rand([1, 2, 5, 5], 'int32', 1)], attrs: { x_shape: [1, 2, 3, 3], size: [5, 5] }, error: /interpolate_grad: expected a floating-point out_grad, got int32/ },
  ],
});
