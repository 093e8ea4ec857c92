// F.pixel_shuffle(x, upscale_factor, data_format='NCHW') and F.pixel_unshuffle(x,
// downscale_factor, data_format='NCHW'): [N, C*r*r, H, W] <-> [N, C, H*r, W*r], channel
// c*r*r + i*r + j holding the pixel at row offset i, column offset j. Native: nn_pixel.cc.
import { type Dim, dimFloorDiv, dimMul, ShapeError, shapeStr } from '../../tensor/shape.js';
import { registerOp } from '../registry.js';
import type { Attrs, TensorMeta } from '../types.js';
import { dataFormat2d } from './nn_util.js';
import { NN_MISC_GRADS } from './nn_misc_grad.js';

function factor(op: string, name: string, a: Attrs): number {
  const r = a[name];
  if (typeof r !== 'number' || !Number.isInteger(r) || r <= 0) throw new RangeError(`${op}: ${name} must be a positive int, got ${JSON.stringify(r)}`);
  return r;
}

function pixelOp(op: 'pixel_shuffle' | 'pixel_unshuffle', name: string) {
  return registerOp({
    name: op,
    inputs: [{ name: 'x' }],
    attrs: [{ name, type: 'int' }, { name: 'data_format', type: 'str', default: 'NCHW' }],
    outputs: ['out'],
    infer: (ins: readonly TensorMeta[], a) => {
      const x = ins[0];
      const r = factor(op, name, a);
      const cl = dataFormat2d(op, a.data_format);
      if (x.shape.length !== 4) throw new ShapeError(`${op}: input should be a 4-D tensor, got shape ${shapeStr(x.shape)}`);
      const [n, c, h, w] = cl ? [x.shape[0], x.shape[3], x.shape[1], x.shape[2]] : x.shape;
      let oc: Dim, oh: Dim, ow: Dim;
      if (op === 'pixel_shuffle') {
        if (typeof c === 'number' && c % (r * r) !== 0) throw new ShapeError(`${op}: The square of upscale_factor[${r}] should divide the number of channel[${c}] of input ${shapeStr(x.shape)}`);
        oc = dimFloorDiv(c, r * r); oh = dimMul(h, r); ow = dimMul(w, r);
      } else {
        if ((typeof h === 'number' && h % r !== 0) || (typeof w === 'number' && w % r !== 0))
          throw new ShapeError(`${op}: height and width of input ${shapeStr(x.shape)} must be divisible by downscale_factor ${r}`);
        oc = dimMul(c, r * r); oh = dimFloorDiv(h, r); ow = dimFloorDiv(w, r);
      }
      return [{ dtype: x.dtype, shape: cl ? [n, oh, ow, oc] : [n, oc, oh, ow] }];
    },
    /** [r, channelLast] */
    encode: (a) => [factor(op, name, a), dataFormat2d(op, a.data_format) ? 1 : 0],
    ...NN_MISC_GRADS[op],  // nn_misc_grad.ts
    api: { names: [`nn.functional.${op}`] },
  });
}

export const pixel_shuffle = pixelOp('pixel_shuffle', 'upscale_factor');
export const pixel_unshuffle = pixelOp('pixel_unshuffle', 'downscale_factor');
