// float16 / bfloat16 <-> number conversions for data crossing into or out of native memory.
const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

export function f16ToNumber(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const mant = h & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 31) return mant ? NaN : sign * Infinity;
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}

export function numberToF16(x: number): number {
  f32[0] = x;
  const f = u32[0];
  const sign = (f >>> 16) & 0x8000;
  const exp = (f >>> 23) & 0xff;
  let mant = f & 0x7fffff;
  if (exp === 255) return sign | 0x7c00 | (mant ? 0x200 : 0);
  const e = exp - 127 + 15;
  if (e >= 31) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    let half = mant >>> shift;
    const rem = mant & ((1 << shift) - 1), mid = 1 << (shift - 1);
    if (rem > mid || (rem === mid && half & 1)) half++;
    return sign | half;
  }
  let half = sign | (e << 10) | (mant >>> 13);
  const rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem === 0x1000 && half & 1)) half++;
  return half;
}

export function bf16ToNumber(h: number): number { u32[0] = h << 16; return f32[0]; }
export function numberToBf16(x: number): number {
  f32[0] = x;
  const f = u32[0];
  if ((f & 0x7fffffff) > 0x7f800000) return (f >>> 16) | 0x40;
  return ((f + 0x7fff + ((f >>> 16) & 1)) >>> 16) & 0xffff;
}
