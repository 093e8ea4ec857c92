// N-d (1/2/3 spatial dims) forms of Paddle's window attributes, for the *_more / interp families:
// int-or-list tuples, the padding forms of `_update_padding_nd`, and data formats by rank.
import type { AttrValue } from '../types.js';
import type { PadAlgo } from './nn_util.js';

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

/** int or list of n ints -> n ints (Paddle's convert_to_list), each checked with `ok`. */
export function tupleN(op: string, name: string, v: AttrValue | undefined, n: number, ok: (x: number) => boolean, want: string): number[] {
  const list = isInt(v) ? new Array<number>(n).fill(v) : Array.isArray(v) && v.length === n && v.every(isInt) ? [...v] : Array.isArray(v) && v.length === 1 && isInt(v[0]) ? new Array<number>(n).fill(v[0]) : null;
  if (!list) throw new TypeError(`${op}: ${name} must be an int or a list of ${n} int${n > 1 ? 's' : ''}, got ${JSON.stringify(v)}`);
  if (!list.every(ok)) throw new RangeError(`${op}: ${name} must be ${want}, got ${JSON.stringify(v)}`);
  return list;
}

export interface PaddingNd { readonly algo: PadAlgo; /** [before, after] per spatial dim */ readonly pads: number[] }

/**
 * 'SAME' | 'VALID' | int | [p per dim] | [before, after per dim] | nested pairs including the
 * batch and channel dims (which must be [0, 0]).
 */
export function paddingNd(op: string, padding: AttrValue | undefined, n: number, channelLast: boolean): PaddingNd {
  if (typeof padding === 'string') {
    const p = padding.toUpperCase();
    if (p !== 'SAME' && p !== 'VALID') throw new RangeError(`${op}: Unknown padding: '${padding}'. It can only be 'SAME' or 'VALID'.`);
    return { algo: p, pads: new Array<number>(2 * n).fill(0) };
  }
  const v = padding as unknown;
  let pads: number[] | null = null;
  if (isInt(v)) pads = new Array<number>(2 * n).fill(v);
  else if (Array.isArray(v) && v.length === n + 2 && v.every((e) => Array.isArray(e))) {
    const nested = v as unknown[][];
    if (!nested.every((e) => e.length === 2 && e.every(isInt))) throw new TypeError(`${op}: invalid padding ${JSON.stringify(v)}`);
    const bc = channelLast ? [nested[0], nested[n + 1]] : [nested[0], nested[1]];
    if (bc.flat().some((x) => x !== 0)) throw new RangeError(`${op}: Non-zero padding(${JSON.stringify(v)}) in the batch or channel dimensions is not supported.`);
    pads = (channelLast ? nested.slice(1, n + 1) : nested.slice(2)).flat() as number[];
  } else if (Array.isArray(v) && v.every(isInt)) {
    if (v.length === n) pads = v.flatMap((p) => [p, p]);
    else if (v.length === 2 * n) pads = [...v];
    else if (v.length === 1) pads = new Array<number>(2 * n).fill(v[0]);
  }
  if (!pads) throw new TypeError(`${op}: padding must be 'SAME', 'VALID', an int, a list of ${n} or ${2 * n} ints or a nested list, got ${JSON.stringify(v)}`);
  if (pads.some((p) => p < 0)) throw new RangeError(`${op}: padding must be non-negative, got ${JSON.stringify(v)}`);
  return { algo: 'EXPLICIT', pads };
}

export const FORMATS: Readonly<Record<number, readonly [string, string]>> = { 1: ['NCL', 'NLC'], 2: ['NCHW', 'NHWC'], 3: ['NCDHW', 'NDHWC'] };

/** data_format for an n-d window op: true for channel-last. */
export function dataFormatNd(op: string, v: AttrValue | undefined, n: number): boolean {
  const [cf, cl] = FORMATS[n];
  if (v !== cf && v !== cl) throw new RangeError(`${op}: data_format must be '${cf}' or '${cl}', got ${JSON.stringify(v)}`);
  return v === cl;
}

/** Paddle's SAME padding for one dim with a static size: out = ceil(in / s), split low-first. */
export function samePads(inDim: number, k: number, s: number): [number, number] {
  const out = Math.floor((inDim + s - 1) / s);
  const sum = Math.max((out - 1) * s + k - inDim, 0);
  return [Math.floor(sum / 2), sum - Math.floor(sum / 2)];
}

/** Right-aligns n per-dim values into 3 slots (conv/pool kernels always see three spatial dims). */
export const pad3 = (v: readonly number[], fill: number): number[] => [...new Array<number>(3 - v.length).fill(fill), ...v];

/** [spatial dims], channels and batch of an n-d input in either layout. */
export function splitDims<D>(shape: readonly D[], channelLast: boolean): { n: D; c: D; sp: D[] } {
  return channelLast ? { n: shape[0], c: shape[shape.length - 1], sp: shape.slice(1, -1) } : { n: shape[0], c: shape[1], sp: shape.slice(2) };
}

export function joinDims<D>(n: D, c: D, sp: readonly D[], channelLast: boolean): D[] {
  return channelLast ? [n, ...sp, c] : [n, c, ...sp];
}
