// pixel_shuffle / pixel_unshuffle records: index-mapping references in both layouts.
import { addRecords } from '../op_db.js';
import { type NDArray, rand } from '../ref.js';

type Attrs = Record<string, unknown>;

function refPixel(unshuffle: boolean) {
  return (inputs: (NDArray | NDArray[] | null)[], a: Attrs): NDArray => {
    const x = inputs[0] as NDArray;
    const r = (unshuffle ? a.downscale_factor : a.upscale_factor) as number;
    const cl = a.data_format === 'NHWC';
    const [N, C, H, W] = cl ? [x.shape[0], x.shape[3], x.shape[1], x.shape[2]] : x.shape;
    const [OC, OH, OW] = unshuffle ? [C * r * r, H / r, W / r] : [C / (r * r), H * r, W * r];
    const xi = (n: number, c: number, h: number, w: number) => (cl ? ((n * H + h) * W + w) * C + c : ((n * C + c) * H + h) * W + w);
    const data = new Array<number>(N * OC * OH * OW);
    for (let n = 0; n < N; n++)
      for (let oc = 0; oc < OC; oc++)
        for (let oh = 0; oh < OH; oh++)
          for (let ow = 0; ow < OW; ow++) {
            const src = unshuffle
              ? xi(n, Math.floor(oc / (r * r)), oh * r + Math.floor((oc % (r * r)) / r), ow * r + (oc % r))
              : xi(n, oc * r * r + (oh % r) * r + (ow % r), Math.floor(oh / r), Math.floor(ow / r));
            data[cl ? ((n * OH + oh) * OW + ow) * OC + oc : ((n * OC + oc) * OH + oh) * OW + ow] = x.data[src];
          }
    return { shape: cl ? [N, OH, OW, OC] : [N, OC, OH, OW], data, dtype: x.dtype };
  };
}

const r = (shape: number[], seed: number) => rand(shape, 'float32', seed);

addRecords({
  op: 'pixel_shuffle',
  samples: [
    { inputs: [r([2, 8, 3, 4], 1)], attrs: { upscale_factor: 2 }, strided: true, note: 'r=2' },
    { inputs: [r([1, 3, 4, 18], 2)], attrs: { upscale_factor: 3, data_format: 'NHWC' }, strided: true, note: 'NHWC r=3' },
    { inputs: [rand([1, 4, 2, 2], 'int32', 3)], attrs: { upscale_factor: 2 }, note: 'int32' },
    { inputs: [r([0, 4, 2, 2], 4)], attrs: { upscale_factor: 2 }, note: 'empty batch' },
  ],
  ref: refPixel(false),
  dtypes: ['float64', 'float16', 'bfloat16'],
  bad: [
    { inputs: [r([1, 6, 2, 2], 1)], attrs: { upscale_factor: 2 }, error: /pixel_shuffle: The square of upscale_factor\[2\] should divide the number of channel\[6\]/ },
    { inputs: [r([1, 4, 2], 1)], attrs: { upscale_factor: 2 }, error: /pixel_shuffle: input should be a 4-D tensor/ },
    { inputs: [r([1, 4, 2, 2], 1)], attrs: { upscale_factor: 0 }, error: /pixel_shuffle: upscale_factor must be a positive int/ },
  ],
}, {
  op: 'pixel_unshuffle',
  samples: [
    { inputs: [r([2, 2, 4, 6], 1)], attrs: { downscale_factor: 2 }, strided: true, note: 'r=2' },
    { inputs: [r([1, 6, 3, 2], 2)], attrs: { downscale_factor: 3, data_format: 'NHWC' }, strided: true, note: 'NHWC r=3' },
    { inputs: [r([0, 1, 2, 2], 3)], attrs: { downscale_factor: 2 }, note: 'empty batch' },
  ],
  ref: refPixel(true),
  dtypes: ['float64', 'float16', 'bfloat16'],
  bad: [
    { inputs: [r([1, 1, 3, 4], 1)], attrs: { downscale_factor: 2 }, error: /pixel_unshuffle: height and width of input \[1, 1, 3, 4\] must be divisible by downscale_factor 2/ },
    { inputs: [r([1, 1, 4, 4], 1)], attrs: { downscale_factor: 2, data_format: 'NCWH' }, error: /pixel_unshuffle: data_format must be 'NCHW' or 'NHWC'/ },
  ],
});
