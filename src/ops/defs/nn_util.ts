// Attribute normalisation shared by the nn_* and random op definitions: Paddle's accepted forms
// of stride/padding/dilation/kernel_size, window output sizes over symbolic dims, shape lists.
import { type Dim, dimAdd, dimFloorDiv, dimSub, ShapeError } from '../../tensor/shape.js';
import type { Attrs, AttrValue } from '../types.js';

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

/** int or [h, w] -> [h, w] (Paddle's convert_to_list), each checked with `ok`. */
export function pair(op: string, name: string, v: AttrValue | undefined, ok: (n: number) => boolean, want: string): [number, number] {
  const list = isInt(v) ? [v, v] : Array.isArray(v) && v.length === 2 && v.every(isInt) ? [v[0], v[1]] : null;
  if (!list) throw new TypeError(`${op}: ${name} must be an int or a list of 2 ints, got ${JSON.stringify(v)}`);
  if (!list.every(ok)) throw new RangeError(`${op}: ${name} must be ${want}, got ${JSON.stringify(v)}`);
  return list as [number, number];
}

export type PadAlgo = 'EXPLICIT' | 'SAME' | 'VALID';
export const PAD_ALGO_CODE: Readonly<Record<PadAlgo, number>> = { EXPLICIT: 0, SAME: 1, VALID: 2 };
export interface Padding2d { readonly algo: PadAlgo; /** top, bottom, left, right */ readonly pads: readonly [number, number, number, number] }

/**
 * Paddle's `_update_padding_nd` for 2-D windows: 'SAME' | 'VALID' | int | [ph, pw] |
 * [top, bottom, left, right] | [[0,0],[0,0],[t,b],[l,r]] (NCHW) / [[0,0],[t,b],[l,r],[0,0]] (NHWC).
 */
export function padding2d(op: string, padding: AttrValue | undefined, channelLast: boolean): Padding2d {
  if (typeof padding === 'string') {
    const p = padding.toUpperCase();
    if (p !== 'SAME' && p !== 'VALID') throw new RangeError(`${op}: Unknown padding: '${padding}'. It can only be 'SAME' or 'VALID'.`);
    return { algo: p, pads: [0, 0, 0, 0] };
  }
  let pads: number[] | null = null;
  const v = padding as unknown;
  if (isInt(v)) pads = [v, v, v, v];
  else if (Array.isArray(v) && v.length === 4 && v.every((e) => Array.isArray(e))) {
    const nested = v as unknown[][];
    if (!nested.every((e) => e.length === 2 && e.every(isInt))) throw new TypeError(`${op}: invalid padding ${JSON.stringify(v)}`);
    const [bc1, sp1, sp2, bc2] = channelLast ? [nested[0], nested[1], nested[2], nested[3]] : [nested[0], nested[2], nested[3], nested[1]];
    if ([...bc1, ...bc2].some((x) => x !== 0)) throw new RangeError(`${op}: Non-zero padding(${JSON.stringify(v)}) in the batch or channel dimensions is not supported.`);
    pads = [sp1[0], sp1[1], sp2[0], sp2[1]] as number[];
  } else if (Array.isArray(v) && v.every(isInt)) {
    if (v.length === 2) pads = [v[0], v[0], v[1], v[1]];
    else if (v.length === 4) pads = [...v];
  }
  if (!pads) throw new TypeError(`${op}: padding must be 'SAME', 'VALID', an int, [h, w], [top, bottom, left, right] or a nested list, got ${JSON.stringify(v)}`);
  if (pads.some((p) => p < 0)) throw new RangeError(`${op}: padding must be non-negative, got ${JSON.stringify(v)}`);
  return { algo: 'EXPLICIT', pads: pads as [number, number, number, number] };
}

/**
 * Output size of a sliding window along one dim. SAME gives ceil(in / stride) (Paddle then
 * ignores dilation); VALID drops padding; ceil_mode rounds the last partial window up (pools).
 */
export function windowOut(op: string, what: string, inDim: Dim, k: number, s: number, d: number, p0: number, p1: number, algo: PadAlgo, ceil = false): Dim {
  if (algo === 'SAME') return dimFloorDiv(dimAdd(inDim, s - 1), s);
  const pad = algo === 'VALID' ? 0 : p0 + p1;
  const eff = d * (k - 1) + 1;
  const out = dimAdd(dimFloorDiv(dimSub(dimAdd(inDim, pad + (ceil ? s - 1 : 0)), eff), s), 1);
  if (typeof out === 'number' && out <= 0)
    throw new ShapeError(`${op}: output ${what} would be ${out}: input size ${inDim} with padding ${pad} is smaller than the ${d > 1 ? 'dilated ' : ''}kernel size ${eff} (stride ${s})`);
  return out;
}

export function dataFormat2d(op: string, v: AttrValue | undefined): boolean {
  if (v !== 'NCHW' && v !== 'NHWC') throw new RangeError(`${op}: data_format must be 'NCHW' or 'NHWC', got ${JSON.stringify(v)}`);
  return v === 'NHWC';
}

/** A shape attribute: int or list of non-negative ints. */
export function shapeList(op: string, s: Attrs[string] | undefined): number[] {
  const list = isInt(s) ? [s] : Array.isArray(s) ? [...(s as number[])] : null;
  if (!list || !list.every((d) => isInt(d) && d >= 0)) throw new ShapeError(`${op}: invalid shape ${JSON.stringify(s)}; expected a list of non-negative integers`);
  return list;
}

/** Splits a uint64 seed into 32-bit halves for native attributes (doubles hold only 53 bits). */
export function u64Halves(v: bigint): [number, number] {
  const u = BigInt.asUintN(64, v);
  return [Number(u & 0xffffffffn), Number(u >> 32n)];
}

/**
 * Binds Paddle-style call arguments (positional, then a trailing plain object of keywords) to
 * parameter names, for the few public functions whose argument order is not inputs-then-attrs.
 */
export function bindArgs(fn: string, params: readonly string[], args: readonly unknown[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let pos = args;
  const last = args[args.length - 1];
  if (last !== null && typeof last === 'object' && Object.getPrototypeOf(last) === Object.prototype) {
    pos = args.slice(0, -1);
    for (const [k, v] of Object.entries(last as Record<string, unknown>)) {
      if (k === 'name') continue;
      if (!params.includes(k)) throw new TypeError(`${fn}() got an unexpected keyword argument '${k}'`);
      out[k] = v;
    }
  }
  if (pos.length > params.length) throw new TypeError(`${fn}() takes at most ${params.length} arguments (${pos.length} given)`);
  pos.forEach((v, i) => {
    if (params[i] in out) throw new TypeError(`${fn}() got multiple values for argument '${params[i]}'`);
    out[params[i]] = v;
  });
  return out;
}
