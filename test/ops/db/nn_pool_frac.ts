// fractional_max_pool2d / 3d records: Paddle's window rule evaluated in float32 (Math.fround after
// every operation, as the kernel computes it), then a plain max over each window.
import { addRecords } from '../op_db.js';
import { type NDArray, nd, rand } from '../ref.js';

type Attrs = Record<string, unknown>;
const f = Math.fround;

function windows(inp: number, out: number, k: number, u: number): [number, number][] {
  const den = out - (k > 0 ? 1 : 0);
  const alpha = den === 0 ? 0 : f(f(inp - k) / den);
  let uu = f(u);
  if (k <= 0) {
    const base = Math.floor(inp / out);
    uu = f(uu * Math.min(f(f(f(base + 2) / alpha) - 1), f(f(f(inp + 1 - base) / alpha) - (out - 1))));
  }
  const res: [number, number][] = [];
  for (let i = 0; i < out; i++) {
    let s = Math.ceil(f(f(alpha * f(i + uu)) - 1));
    let e = k > 0 ? s + k : Math.ceil(f(f(alpha * f(f(i + 1) + uu)) - 1));
    s = Math.min(Math.max(s, 0), inp - 1);
    e = Math.max(Math.min(e, inp), s + 1);
    res.push([s, e]);
  }
  return res;
}

function refFrac(ndim: number) {
  return (inputs: (NDArray | NDArray[] | null)[], a: Attrs): NDArray[] => {
    const x = inputs[0] as NDArray;
    const sp = ndim === 3 ? x.shape.slice(2) : [1, ...x.shape.slice(2)];
    const list = (v: unknown, like: number[]) => (typeof v === 'number' ? like.map(() => v) : (v as (number | null)[]).map((e, i) => e ?? like[i]));
    const outs = ndim === 3 ? list(a.output_size, sp) : [1, ...list(a.output_size, sp.slice(1))];
    const ks = a.kernel_size === undefined || a.kernel_size === null ? [0, 0, 0] : ndim === 3 ? list(a.kernel_size, sp) : [0, ...list(a.kernel_size, sp.slice(1))];
    const wins = [0, 1, 2].map((i) => windows(sp[i], outs[i], ks[i], a.random_u as number));
    const [N, C] = x.shape, [D, H, W] = sp, [OD, OH, OW] = outs;
    const out: number[] = [], mask: number[] = [];
    for (let p = 0; p < N * C; p++)
      for (let od = 0; od < OD; od++)
        for (let oh = 0; oh < OH; oh++)
          for (let ow = 0; ow < OW; ow++) {
            let best = -Infinity, bi = -1;
            for (let d = wins[0][od][0]; d < wins[0][od][1]; d++)
              for (let h = wins[1][oh][0]; h < wins[1][oh][1]; h++)
                for (let w = wins[2][ow][0]; w < wins[2][ow][1]; w++) {
                  const i = (d * H + h) * W + w;
                  if (bi < 0 || x.data[p * D * H * W + i] > best) { best = x.data[p * D * H * W + i]; bi = i; }
                }
            out.push(best);
            mask.push(bi);
          }
    const shape = ndim === 3 ? [N, C, OD, OH, OW] : [N, C, OH, OW];
    return [{ shape, data: out, dtype: x.dtype }, { shape, data: mask, dtype: 'int32' }];
  };
}

const r = (shape: number[], seed: number) => rand(shape, 'float32', seed);

addRecords({
  op: 'fractional_max_pool2d',
  samples: [
    { inputs: [nd([1, 1, 1, 7], [2, 4, 3, 1, 5, 2, 3])], attrs: { output_size: [1, 5], random_u: 0.3 }, note: "Paddle's documented example" },
    { inputs: [r([2, 3, 9, 8], 1)], attrs: { output_size: 4, random_u: 0.7 }, strided: true, note: 'disjoint windows' },
    { inputs: [r([1, 2, 7, 9], 2)], attrs: { output_size: [3, 5], kernel_size: [3, 2], random_u: 0.25 }, strided: true, note: 'overlapping kernel windows' },
    { inputs: [r([1, 2, 6, 5], 3)], attrs: { output_size: [6, 3], random_u: 0.9 }, note: 'output height = input height' },
    { inputs: [r([1, 1, 5, 5], 4)], attrs: { output_size: 1, kernel_size: 2, random_u: 0.5 }, note: 'single window with kernel' },
    { inputs: [r([0, 2, 6, 6], 5)], attrs: { output_size: 3, random_u: 0.5 }, note: 'empty batch' },
  ],
  ref: refFrac(2),
  dtypes: ['float64', 'float16', 'bfloat16'],
  bad: [
    { inputs: [r([2, 6, 6], 1)], attrs: { output_size: 3, random_u: 0.5 }, error: /fractional_max_pool2d: input should be a 4-D tensor/ },
    { inputs: [r([1, 1, 3, 3], 1)], attrs: { output_size: 4, random_u: 0.5 }, error: /fractional_max_pool2d: input size 3 of dim 2 .* is less than the valid size 4/ },
    { inputs: [r([1, 1, 4, 4], 1)], attrs: { output_size: 3, kernel_size: 3, random_u: 0.5 }, error: /fractional_max_pool2d: input size 4 of dim 2 .* less than the valid size 5 for output_size 3 with kernel_size 3/ },
    { inputs: [r([1, 1, 4, 4], 1)], attrs: { output_size: 2, random_u: 1.5 }, error: /fractional_max_pool2d: random_u must be a float in \(0, 1\)/ },
    { inputs: [r([1, 1, 4, 4], 1)], attrs: { output_size: [2, 0], random_u: 0.5 }, error: /fractional_max_pool2d: output_size must hold positive ints/ },
    { inputs: [r([1, 1, 4, 4], 1)], attrs: { output_size: [2, null], random_u: 0.5 }, error: /fractional_max_pool2d: output_size must hold positive ints/ },
    { inputs: [rand([1, 1, 4, 4], 'int32', 1)], attrs: { output_size: 2, random_u: 0.5 }, error: /fractional_max_pool2d: expected a floating-point input/ },
    { inputs: [nd([], [1])], attrs: { output_size: 1, random_u: 0.5 }, error: /fractional_max_pool2d: input should be a 4-D tensor/ },
  ],
}, {
  op: 'fractional_max_pool3d',
  samples: [
    { inputs: [r([1, 2, 5, 6, 7], 1)], attrs: { output_size: 3, random_u: 0.4 }, strided: true },
    { inputs: [r([2, 1, 4, 5, 6], 2)], attrs: { output_size: [2, 3, 4], kernel_size: [2, 2, 3], random_u: 0.6 }, strided: true, note: 'kernel windows' },
    { inputs: [r([1, 1, 3, 4, 4], 3)], attrs: { output_size: [3, 2, 4], random_u: 0.1 }, note: 'output depth and width = the input\'s' },
    { inputs: [r([1, 0, 3, 3, 3], 4)], attrs: { output_size: 2, random_u: 0.5 }, note: 'no channels' },
  ],
  ref: refFrac(3),
  dtypes: ['float64', 'float16', 'bfloat16'],
  bad: [
    { inputs: [r([1, 2, 4, 4], 1)], attrs: { output_size: 2, random_u: 0.5 }, error: /fractional_max_pool3d: input should be a 5-D tensor/ },
    { inputs: [r([1, 1, 4, 4, 4], 1)], attrs: { output_size: [2, 2], random_u: 0.5 }, error: /fractional_max_pool3d: output_size must be an int or a list of 3 ints/ },
    { inputs: [r([1, 1, 4, 4, 4], 1)], attrs: { output_size: 2, random_u: 0 }, error: /fractional_max_pool3d: random_u must be a float in \(0, 1\)/ },
  ],
});
