// paddle.vision.transforms for TypeScript users: the same conventions as the Python package
// (compat/paddle/vision/transforms): an image is a Tensor in Paddle's tensor layout, HW or CHW
// (or a [..., C, H, W] batch), geometry works on the last two axes, uint8 images become float32
// in [0, 1] in ToTensor. Each transform is a few registry ops on the whole image (interpolate,
// slice, pad, flip), never a per-pixel loop in JS. Random transforms draw from the runtime's
// generator, so paddle.seed(n) repeats the augmentations.
import { runOp } from '../ops/dispatch.js';
import { to_tensor } from '../tensor/creation.js';
import type { Tensor } from '../tensor/tensor.js';
import { runtimeRand } from './prng.js';

const one = (name: string, x: Tensor, attrs: Record<string, unknown>): Tensor => runOp(name, [x], attrs)[0] as Tensor;
const FLOATS = new Set(['float16', 'bfloat16', 'float32', 'float64']);

function hw(fn: string, img: Tensor): [number, number] {
  if (!img || typeof img !== 'object' || !('shape' in img)) throw new TypeError(`${fn}: img should be a paddle Tensor, got ${typeof img}`);
  if (img.shape.length < 2) throw new RangeError(`${fn}: img should have at least 2 dims (HW or CHW), got shape [${img.shape.join(', ')}]`);
  return [img.shape[img.shape.length - 2] as number, img.shape[img.shape.length - 1] as number];
}

/** HW -> [1, H, W] ('CHW') or [H, W, 1] ('HWC'); CHW -> HWC for 'HWC'; uint8 scaled to [0, 1]; float32 out. */
export function to_tensor_image(pic: Tensor, data_format: 'CHW' | 'HWC' = 'CHW'): Tensor {
  if (data_format !== 'CHW' && data_format !== 'HWC') throw new RangeError(`to_tensor: data_format should be CHW or HWC, got ${String(data_format)}`);
  hw('to_tensor', pic);
  let t = pic;
  if (t.shape.length === 2) t = one('unsqueeze', t, { axis: [data_format === 'CHW' ? 0 : 2] });
  else if (t.shape.length === 3 && data_format === 'HWC') t = one('transpose', t, { perm: [1, 2, 0] });
  else if (t.shape.length !== 3) throw new RangeError(`to_tensor: expected an image of rank 2 or 3, got shape [${t.shape.join(', ')}]`);
  const scale = t.dtype === 'uint8';
  if (t.dtype !== 'float32') t = one('cast', t, { dtype: 'float32' });
  return scale ? one('scale', t, { scale: 1 / 255, bias: 0, bias_after_scale: true }) : t;
}

/** (img - mean) / std per channel: channel axis -3 for CHW (batches broadcast), -1 for HWC. */
export function normalize(img: Tensor, mean: number | number[], std: number | number[], data_format: 'CHW' | 'HWC' = 'CHW'): Tensor {
  const m = Array.isArray(mean) ? mean : [mean], s = Array.isArray(std) ? std : [std];
  if (s.some((v) => v === 0)) throw new RangeError(`normalize: std must not contain 0, got [${s.join(', ')}]`);
  const c = data_format === 'CHW' ? img.shape[img.shape.length - 3] : img.shape[img.shape.length - 1];
  for (const [k, v] of [['mean', m], ['std', s]] as const) {
    if (v.length !== 1 && v.length !== c) throw new RangeError(`normalize: ${k} has ${v.length} values for ${c} channels (image shape [${img.shape.join(', ')}])`);
  }
  const shape = (n: number) => (data_format === 'CHW' ? [n, 1, 1] : [n]);
  const dt = FLOATS.has(img.dtype) ? img.dtype : 'float32';
  const x = dt === img.dtype ? img : one('cast', img, { dtype: dt });
  const mt = one('reshape', to_tensor(m, dt), { shape: shape(m.length) });
  const st = one('reshape', to_tensor(s, dt), { shape: shape(s.length) });
  return runOp('divide', [runOp('subtract', [x, mt])[0] as Tensor, st])[0] as Tensor;
}

/** size: (h, w), or an int the shorter side becomes (keeping the aspect ratio). */
function targetSize(size: number | [number, number], h: number, w: number): [number, number] {
  if (typeof size === 'number') {
    if (!(Number.isInteger(size) && size > 0)) throw new RangeError(`resize: size should be a positive integer or (h, w), got ${size}`);
    return h <= w ? [size, Math.max(1, Math.trunc((size * w) / h))] : [Math.max(1, Math.trunc((size * h) / w)), size];
  }
  if (!Array.isArray(size) || size.length !== 2 || size.some((d) => !(Number.isInteger(d) && d > 0))) {
    throw new RangeError(`resize: size should be a positive integer or (h, w), got ${JSON.stringify(size)}`);
  }
  return [size[0], size[1]];
}

/** Resizes the last two axes ('nearest' or 'bilinear' with half-pixel centres, as Paddle's tensor resize). */
export function resize(img: Tensor, size: number | [number, number], interpolation: 'nearest' | 'bilinear' = 'bilinear'): Tensor {
  if (interpolation !== 'nearest' && interpolation !== 'bilinear') throw new RangeError(`resize: interpolation should be 'nearest' or 'bilinear', got ${String(interpolation)}`);
  const [h, w] = hw('resize', img);
  const [oh, ow] = targetSize(size, h, w);
  // interpolate wants [N, C, H, W]: fold every leading axis into N
  const lead = img.shape.slice(0, -2) as number[];
  const n = lead.reduce((a, b) => a * b, 1);
  const float = FLOATS.has(img.dtype);
  let x = one('reshape', img, { shape: [n, 1, h, w] });
  if (!float) x = one('cast', x, { dtype: 'float32' });
  let y = one('interpolate', x, { size: [oh, ow], mode: interpolation, align_corners: false, align_mode: 0, data_format: 'NCHW' });
  if (!float) y = one('cast', one('round', y, {}), { dtype: img.dtype });
  return one('reshape', y, { shape: [...lead, oh, ow] });
}

export function crop(img: Tensor, top: number, left: number, height: number, width: number): Tensor {
  const [h, w] = hw('crop', img);
  if (!(top >= 0 && left >= 0 && height > 0 && width > 0 && top + height <= h && left + width <= w)) {
    throw new RangeError(`crop: box (top ${top}, left ${left}, height ${height}, width ${width}) does not fit the ${h}x${w} image`);
  }
  const r = img.shape.length;
  return one('slice', img, { axes: [r - 2, r - 1], starts: [top, left], ends: [top + height, left + width] });
}

export function center_crop(img: Tensor, output_size: number | [number, number]): Tensor {
  const [h, w] = hw('center_crop', img);
  const [th, tw] = typeof output_size === 'number' ? [output_size, output_size] : output_size;
  if (th > h || tw > w) throw new RangeError(`center_crop: crop size ${th}x${tw} is larger than the ${h}x${w} image`);
  // Python's round() (half to even) of the centred offsets, as Paddle computes them
  const half = (v: number) => { const f = Math.floor(v); return v - f === 0.5 ? (f % 2 === 0 ? f : f + 1) : Math.round(v); };
  return crop(img, half((h - th) / 2), half((w - tw) / 2), th, tw);
}

/** Pads the last two axes with a constant: padding is an int, [lr, tb] or [left, top, right, bottom]. */
export function pad(img: Tensor, padding: number | number[], fill = 0): Tensor {
  hw('pad', img);
  const p = typeof padding === 'number' ? [padding, padding, padding, padding] : padding.length === 2 ? [padding[0], padding[1], padding[0], padding[1]] : padding;
  if (p.length !== 4 || p.some((v) => !(Number.isInteger(v) && v >= 0))) throw new RangeError(`pad: padding should be an int or 2 or 4 non-negative ints, got ${JSON.stringify(padding)}`);
  const [l, t, r, b] = p;
  const pairs = img.shape.slice(0, -2).flatMap(() => [0, 0]);
  return one('pad', img, { pad: [...pairs, t, b, l, r], mode: 'constant', value: fill, data_format: 'NCHW' });
}

export const hflip = (img: Tensor): Tensor => { hw('hflip', img); return one('flip', img, { axis: [img.shape.length - 1] }); };
export const vflip = (img: Tensor): Tensor => { hw('vflip', img); return one('flip', img, { axis: [img.shape.length - 2] }); };

export type Transform = (img: Tensor) => Tensor;

abstract class BaseTransform {
  abstract _apply_image(img: Tensor): Tensor;
  /** Applies the transform (Paddle's __call__). */
  call(img: Tensor): Tensor { return this._apply_image(img); }
}

export class Compose {
  readonly transforms: (BaseTransform | Transform)[];
  constructor(transforms: (BaseTransform | Transform)[]) { this.transforms = [...transforms]; }
  call(img: Tensor): Tensor {
    return this.transforms.reduce((x, t) => (typeof t === 'function' ? t(x) : t.call(x)), img);
  }
}

export class ToTensor extends BaseTransform {
  constructor(readonly data_format: 'CHW' | 'HWC' = 'CHW') { super(); }
  _apply_image(img: Tensor): Tensor { return to_tensor_image(img, this.data_format); }
}

export class Normalize extends BaseTransform {
  constructor(readonly mean: number | number[] = 0, readonly std: number | number[] = 1, readonly data_format: 'CHW' | 'HWC' = 'CHW') { super(); }
  _apply_image(img: Tensor): Tensor { return normalize(img, this.mean, this.std, this.data_format); }
}

export class Resize extends BaseTransform {
  constructor(readonly size: number | [number, number], readonly interpolation: 'nearest' | 'bilinear' = 'bilinear') { super(); }
  _apply_image(img: Tensor): Tensor { return resize(img, this.size, this.interpolation); }
}

export class CenterCrop extends BaseTransform {
  constructor(readonly size: number | [number, number]) { super(); }
  _apply_image(img: Tensor): Tensor { return center_crop(img, this.size); }
}

/** A random size crop, after optional padding (pad_if_needed pads a too-small image up to the size). */
export class RandomCrop extends BaseTransform {
  readonly size: [number, number];
  constructor(size: number | [number, number], readonly padding: number | number[] | null = null, readonly pad_if_needed = false, readonly fill = 0) {
    super();
    this.size = typeof size === 'number' ? [size, size] : [size[0], size[1]];
    if (this.size.some((d) => !(Number.isInteger(d) && d > 0))) throw new RangeError(`RandomCrop: size should be a positive integer or (h, w), got ${JSON.stringify(size)}`);
  }
  _apply_image(img: Tensor): Tensor {
    let x = this.padding !== null ? pad(img, this.padding, this.fill) : img;
    const [th, tw] = this.size;
    let [h, w] = hw('RandomCrop', x);
    if (this.pad_if_needed && (h < th || w < tw)) {
      const dw = Math.max(tw - w, 0), dh = Math.max(th - h, 0);
      x = pad(x, [dw, dh, dw, dh], this.fill);
      [h, w] = hw('RandomCrop', x);
    }
    if (h < th || w < tw) throw new RangeError(`RandomCrop: crop size ${th}x${tw} is larger than the ${h}x${w} image`);
    const rand = runtimeRand();
    const top = Math.floor(rand() * (h - th + 1)), left = Math.floor(rand() * (w - tw + 1));
    return crop(x, top, left, th, tw);
  }
}

export class RandomHorizontalFlip extends BaseTransform {
  constructor(readonly prob = 0.5) {
    super();
    if (!(prob >= 0 && prob <= 1)) throw new RangeError(`RandomHorizontalFlip: prob should be in [0, 1], got ${prob}`);
  }
  _apply_image(img: Tensor): Tensor { return runtimeRand()() < this.prob ? hflip(img) : img; }
}

export class RandomVerticalFlip extends BaseTransform {
  constructor(readonly prob = 0.5) {
    super();
    if (!(prob >= 0 && prob <= 1)) throw new RangeError(`RandomVerticalFlip: prob should be in [0, 1], got ${prob}`);
  }
  _apply_image(img: Tensor): Tensor { return runtimeRand()() < this.prob ? vflip(img) : img; }
}

export const functional = { to_tensor: to_tensor_image, normalize, resize, crop, center_crop, pad, hflip, vflip };
export const transforms = { Compose, ToTensor, Normalize, Resize, CenterCrop, RandomCrop, RandomHorizontalFlip, RandomVerticalFlip, functional };
