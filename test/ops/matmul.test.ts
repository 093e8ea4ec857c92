// matmul / bmm kernels checked against a naive float64 reference, straight through the addon
// (no TS op layer), including strided views, every dtype path and the error messages.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

interface Addon {
  empty(dtype: number, shape: readonly number[]): number;
  fromBytes(dtype: number, shape: readonly number[], data: ArrayBufferView): number;
  toBytes(h: number): ArrayBuffer;
  view(h: number, shape: readonly number[], strides: readonly number[], offset: number): number;
  run(kernel: number, inputs: readonly number[], outputs: readonly number[], attrs?: readonly number[]): void;
  kernelId(name: string): number;
  numThreads(n?: number): number;
  release(h: number): boolean;
}

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const addon = createRequire(import.meta.url)(join(root, 'build/Release/skiff_native.node')) as Addon;
const MATMUL = addon.kernelId('matmul');
const BMM = addon.kernelId('bmm');

type DT = 'float32' | 'float64' | 'float16' | 'bfloat16' | 'int32' | 'int64' | 'bool';
const CODE: Record<DT, number> = { float32: 0, float64: 1, int32: 2, int64: 3, bool: 4, float16: 7, bfloat16: 8 };

// ---- half precision encode/decode (round to nearest even), for inputs and outputs ----
const f32 = new Float32Array(1), u32 = new Uint32Array(f32.buffer);
function toF16(v: number): number {
  f32[0] = v;
  const f = u32[0], sign = (f >>> 16) & 0x8000, exp = (f >>> 23) & 0xff, mant = f & 0x7fffff;
  if (exp === 255) return sign | 0x7c00 | (mant ? 0x200 : 0);
  const e = exp - 127 + 15;
  if (e >= 31) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    const m = mant | 0x800000, shift = 14 - e, half = m >>> shift, rem = m & ((1 << shift) - 1), mid = 1 << (shift - 1);
    return sign | (rem > mid || (rem === mid && half & 1) ? half + 1 : half);
  }
  const h = sign | (e << 10) | (mant >>> 13), rem = mant & 0x1fff;
  return rem > 0x1000 || (rem === 0x1000 && h & 1) ? h + 1 : h;
}
function fromF16(h: number): number {
  const s = h & 0x8000 ? -1 : 1, e = (h >> 10) & 0x1f, m = h & 0x3ff;
  if (e === 0) return s * m * 2 ** -24;
  if (e === 31) return m ? NaN : s * Infinity;
  return s * (1 + m / 1024) * 2 ** (e - 15);
}
function toBf16(v: number): number {
  f32[0] = v;
  const f = u32[0];
  return ((f + 0x7fff + ((f >>> 16) & 1)) >>> 16) & 0xffff;
}
function fromBf16(h: number): number {
  u32[0] = h << 16;
  return f32[0];
}
/** The value a dtype actually stores for v (so the reference sees what the kernel sees). */
function stored(v: number, dt: DT): number {
  switch (dt) {
    case 'float32': return Math.fround(v);
    case 'float16': return fromF16(toF16(v));
    case 'bfloat16': return fromBf16(toBf16(v));
    case 'int32': return v | 0;
    default: return v;
  }
}

function encode(values: readonly number[], dt: DT): ArrayBufferView {
  switch (dt) {
    case 'float32': return Float32Array.from(values);
    case 'float64': return Float64Array.from(values);
    case 'int32': return Int32Array.from(values);
    case 'int64': return BigInt64Array.from(values.map((v) => BigInt(v)));
    case 'bool': return Uint8Array.from(values.map((v) => (v ? 1 : 0)));
    case 'float16': return Uint16Array.from(values.map(toF16));
    case 'bfloat16': return Uint16Array.from(values.map(toBf16));
  }
}
function decode(buf: ArrayBuffer, dt: DT): number[] {
  switch (dt) {
    case 'float32': return [...new Float32Array(buf)];
    case 'float64': return [...new Float64Array(buf)];
    case 'int32': return [...new Int32Array(buf)];
    case 'int64': return [...new BigInt64Array(buf)].map(Number);
    case 'bool': return [...new Uint8Array(buf)];
    case 'float16': return [...new Uint16Array(buf)].map(fromF16);
    case 'bfloat16': return [...new Uint16Array(buf)].map(fromBf16);
  }
}

// ---- handles: everything created in a test is released after it ----
let live: number[] = [];
const track = (h: number) => (live.push(h), h);
afterEach(() => {
  for (const h of live) addon.release(h);
  live = [];
});

const numel = (s: readonly number[]) => s.reduce((a, b) => a * b, 1);
const contiguous = (s: readonly number[]) => {
  const st = new Array<number>(s.length);
  for (let i = s.length - 1, acc = 1; i >= 0; i--) { st[i] = acc; acc *= s[i]; }
  return st;
};

/** How a logical tensor is laid out in native memory. */
type Layout =
  | 'dense'
  | 'gapped'      // every other element of a bigger buffer, at offset 1
  | 'transposed'  // last two dims stored swapped (a transposed view of a contiguous tensor)
  | 'broadcast';  // values repeat along the first dim: a stride-0 view

function tensor(shape: readonly number[], values: readonly number[], dt: DT, layout: Layout = 'dense'): number {
  if (layout === 'dense' || shape.length === 0 || numel(shape) === 0) return track(addon.fromBytes(CODE[dt], shape, encode(values, dt)));
  const st = contiguous(shape);
  if (layout === 'gapped') {
    const buf = new Array<number>(2 * values.length + 1).fill(999);
    values.forEach((v, i) => (buf[2 * i + 1] = v));
    const base = track(addon.fromBytes(CODE[dt], [buf.length], encode(buf, dt)));
    return track(addon.view(base, shape, st.map((s) => 2 * s), 1));
  }
  if (layout === 'broadcast') {  // caller guarantees values repeat along dim 0
    const inner = shape.slice(1), n = numel(inner);
    const base = track(addon.fromBytes(CODE[dt], inner, encode(values.slice(0, n), dt)));
    return track(addon.view(base, shape, [0, ...contiguous(inner)], 0));
  }
  // transposed: store the tensor with its last two dims swapped, then view it back.
  if (shape.length < 2) return tensor(shape, values, dt, 'gapped');
  const r = shape.length, R = shape[r - 2], C = shape[r - 1], batch = numel(shape.slice(0, -2));
  const stored = new Array<number>(values.length);
  for (let b = 0; b < batch; b++)
    for (let i = 0; i < R; i++) for (let j = 0; j < C; j++) stored[b * R * C + j * R + i] = values[b * R * C + i * C + j];
  const sshape = [...shape.slice(0, -2), C, R];
  const base = track(addon.fromBytes(CODE[dt], sshape, encode(stored, dt)));
  const sst = contiguous(sshape);
  return track(addon.view(base, shape, [...sst.slice(0, -2), sst[r - 1], sst[r - 2]], 0));
}

// ---- float64 reference with Paddle matmul semantics ----
interface Ref { shape: number[]; data: number[]; mag: number[] }  // mag: sum |x*y| per output (error scale)
function refMatmul(xs: number[], x: number[], ys: number[], y: number[], tx = false, ty = false): Ref {
  const xv = xs.length === 1, yv = ys.length === 1;
  const X = xv ? [1, xs[0]] : xs, Y = yv ? [ys[0], 1] : ys;
  const tX = tx && !xv, tY = ty && !yv;
  const xr = X[X.length - 2], xc = X[X.length - 1], yr = Y[Y.length - 2], yc = Y[Y.length - 1];
  const m = tX ? xc : xr, k = tX ? xr : xc, n = tY ? yr : yc;
  if ((tY ? yc : yr) !== k) throw new Error('reference: bad shapes');
  const bx = X.slice(0, -2), by = Y.slice(0, -2), nd = Math.max(bx.length, by.length);
  const pad = (b: number[]) => [...new Array(nd - b.length).fill(1), ...b];
  const px = pad(bx), py = pad(by), batch = px.map((a, i) => Math.max(a, py[i]));
  const out: number[] = [], mag: number[] = [];
  const nb = numel(batch);
  for (let b = 0; b < nb; b++) {
    const idx: number[] = [];
    for (let d = nd - 1, r = b; d >= 0; d--) { idx[d] = r % batch[d]; r = Math.floor(r / batch[d]); }
    const flat = (p: number[]) => idx.reduce((acc, v, d) => acc * p[d] + (p[d] === 1 ? 0 : v), 0);
    const xo = flat(px) * xr * xc, yo = flat(py) * yr * yc;
    for (let i = 0; i < m; i++)
      for (let j = 0; j < n; j++) {
        let s = 0, a = 0;
        for (let p = 0; p < k; p++) {
          const xe = x[xo + (tX ? p * xc + i : i * xc + p)], ye = y[yo + (tY ? j * yc + p : p * yc + j)];
          s += xe * ye;
          a += Math.abs(xe * ye);
        }
        out.push(s);
        mag.push(a);
      }
  }
  return { shape: [...batch, ...(xv ? [] : [m]), ...(yv ? [] : [n])], data: out, mag };
}

let seed = 12345;
function rand(n: number, dt: DT): number[] {
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    const u = seed / 2 ** 32;
    out[i] = dt === 'int32' || dt === 'int64' ? Math.floor(u * 21) - 10 : stored(2 * u - 1, dt);
  }
  return out;
}

const TOL: Record<DT, number> = { float32: 2e-6, float64: 1e-14, float16: 2e-3, bfloat16: 1.6e-2, int32: 0, int64: 0, bool: 0 };

interface Case { x: number[]; y: number[]; tx?: boolean; ty?: boolean; lx?: Layout; ly?: Layout }

function check(c: Case, dt: DT, kernel = MATMUL) {
  const xv = rand(numel(c.x), dt), yv = rand(numel(c.y), dt);
  if (c.lx === 'broadcast') for (let i = 0; i < xv.length; i++) xv[i] = xv[i % numel(c.x.slice(1))];
  if (c.ly === 'broadcast') for (let i = 0; i < yv.length; i++) yv[i] = yv[i % numel(c.y.slice(1))];
  const ref = refMatmul(c.x, xv, c.y, yv, c.tx, c.ty);
  // Transposed inputs are given as the transposed shape; the layout only changes strides.
  const hx = tensor(c.x, xv, dt, c.lx), hy = tensor(c.y, yv, dt, c.ly);
  const out = track(addon.empty(CODE[dt], ref.shape));
  addon.run(kernel, [hx, hy], [out], kernel === MATMUL ? [c.tx ? 1 : 0, c.ty ? 1 : 0] : []);
  const got = decode(addon.toBytes(out), dt);
  expect(got.length).toBe(ref.data.length);
  const tol = TOL[dt];
  let bad = -1;
  for (let i = 0; i < got.length && bad < 0; i++) {
    const want = dt === 'float16' || dt === 'bfloat16' ? ref.data[i] : stored(ref.data[i], dt);
    if (!(Math.abs(got[i] - want) <= tol * (ref.mag[i] + Math.abs(want)) + (tol ? 1e-30 : 0))) bad = i;
  }
  if (bad >= 0) expect.fail(`${JSON.stringify(c)} ${dt}: element ${bad} got ${got[bad]}, want ${ref.data[bad]}`);
}

const SHAPES: Case[] = [
  { x: [1, 1], y: [1, 1] },
  { x: [2, 3], y: [3, 4] },
  { x: [17, 33], y: [33, 65] },
  { x: [33, 17], y: [17, 9] },
  { x: [5, 0], y: [0, 7] },                 // k = 0: zeros
  { x: [0, 4], y: [4, 3] },                 // m = 0
  { x: [4, 3], y: [3, 0] },                 // n = 0
  { x: [7], y: [7] },                       // dot -> 0-D
  { x: [7], y: [7, 5] },                    // 1-D x 2-D -> [5]
  { x: [5, 7], y: [7] },                    // 2-D x 1-D -> [5]
  { x: [300], y: [300, 200] },              // vector-matrix (gemv path)
  { x: [200, 300], y: [300] },              // matrix-vector
  { x: [4], y: [2, 4, 3] },                 // 1-D against a batch
  { x: [2, 3, 4, 5], y: [5] },
  { x: [2, 1, 3, 4], y: [5, 4, 6] },        // batch broadcast -> [2, 5, 3, 6]
  { x: [3, 50, 40], y: [40, 60] },          // shared y: folded into one GEMM
  { x: [2, 3, 20, 30], y: [3, 30, 10] },
  { x: [8, 5, 6], y: [8, 6, 7] },           // many small matrices: batch-parallel
  { x: [3, 5], y: [3, 4], tx: true },
  { x: [5, 3], y: [4, 3], ty: true },
  { x: [3, 5], y: [4, 3], tx: true, ty: true },
  { x: [2, 6, 4], y: [2, 5, 6], tx: true, ty: true },
  { x: [7], y: [5, 7], tx: true, ty: true },  // transpose ignored for 1-D x
  { x: [64, 64], y: [64, 64] },
  { x: [130, 257], y: [257, 70] },          // packed path with edge tiles in m, n and k
  { x: [2, 150, 120], y: [2, 120, 140] },
  { x: [300, 200], y: [200, 500] },         // big enough to use several threads
];

describe('matmul kernel', () => {
  it('is registered', () => {
    expect(MATMUL).toBeGreaterThanOrEqual(0);
    expect(BMM).toBeGreaterThanOrEqual(0);
  });

  it('float32 matches the float64 reference for many shapes', () => {
    for (const c of SHAPES) check(c, 'float32');
  });

  it('float64 matches the reference', () => {
    for (const c of SHAPES) check(c, 'float64');
  });

  it('float16 and bfloat16 are computed in float32 within their precision', () => {
    for (const c of SHAPES.filter((s) => numel(s.x) * numel(s.y) < 1e8)) {
      check(c, 'float16');
      check(c, 'bfloat16');
    }
  });

  it('int32 and int64 are exact', () => {
    for (const c of SHAPES.filter((s) => numel(s.x) * numel(s.y) < 1e8)) {
      check(c, 'int32');
      check(c, 'int64');
    }
  });

  it('int32 wraps on overflow like two\'s complement', () => {
    const x = tensor([1, 2], [2 ** 30, 2 ** 30], 'int32'), y = tensor([2, 1], [2, 2], 'int32');
    const out = track(addon.empty(CODE.int32, [1, 1]));
    addon.run(MATMUL, [x, y], [out], [0, 0]);
    expect(decode(addon.toBytes(out), 'int32')).toEqual([0]);  // 2^32 wraps to 0
  });

  it('accepts strided, transposed and broadcast views without changing results', () => {
    const layouts: Layout[] = ['gapped', 'transposed', 'broadcast'];
    const cases: Case[] = [
      { x: [17, 33], y: [33, 65] },
      { x: [130, 257], y: [257, 70] },
      { x: [300, 200], y: [200, 500] },
      { x: [3, 20, 30], y: [3, 30, 10] },
      { x: [20, 30], y: [30] },
      { x: [30], y: [30, 20] },
      { x: [4, 9, 5], y: [5, 6], ty: false },
      { x: [6, 9], y: [6, 5], tx: true },
    ];
    for (const c of cases) {
      const big = numel(c.x) * numel(c.y) > 1e7;  // keep the JS reference work bounded
      for (const lx of layouts)
        for (const ly of layouts)
          for (const dt of (big ? ['float32'] : ['float32', 'float64', 'int32', 'float16']) as DT[]) check({ ...c, lx, ly }, dt);
    }
  });

  it('gives the same results on 1 and 2 threads', () => {
    const before = addon.numThreads();
    try {
      for (const t of [1, 2]) {
        addon.numThreads(t);
        check({ x: [300, 200], y: [200, 500] }, 'float32');
        check({ x: [200, 300], y: [500, 200], tx: true, ty: true, lx: 'transposed' }, 'float32');
        check({ x: [4, 100, 64], y: [4, 64, 90] }, 'float64');
      }
    } finally {
      addon.numThreads(before);
    }
  });

  it('bmm multiplies equal batches', () => {
    check({ x: [3, 4, 5], y: [3, 5, 6] }, 'float32', BMM);
    check({ x: [2, 70, 90], y: [2, 90, 40], lx: 'gapped', ly: 'transposed' }, 'float64', BMM);
    check({ x: [1, 1, 1], y: [1, 1, 1] }, 'int32', BMM);
  });
});

describe('matmul errors', () => {
  function err(kernel: number, xs: number[], xdt: DT, ys: number[], ydt: DT, outShape: number[], outDt: DT, attrs: number[] = []): string {
    const x = tensor(xs, new Array(numel(xs)).fill(1), xdt), y = tensor(ys, new Array(numel(ys)).fill(1), ydt);
    const out = track(addon.empty(CODE[outDt], outShape));
    try {
      addon.run(kernel, [x, y], [out], attrs);
    } catch (e) {
      return (e as Error).message;
    }
    return 'did not throw';
  }

  it('rejects mismatched contraction dims, naming the op and both shapes', () => {
    expect(err(MATMUL, [2, 3], 'float32', [4, 5], 'float32', [2, 5], 'float32', [0, 0])).toBe(
      'matmul: cannot multiply shapes [2, 3] and [4, 5] (contraction dims 3 vs 4)');
    expect(err(MATMUL, [2, 3], 'float32', [4, 3], 'float32', [2, 4], 'float32', [1, 1])).toMatch(
      /^matmul: cannot multiply shapes \[2, 3\] and \[4, 3\] \(contraction dims 2 vs 3\) with transpose_x=1, transpose_y=1$/);
    expect(err(MATMUL, [3], 'float32', [4], 'float32', [], 'float32')).toMatch(/matmul: cannot multiply shapes \[3\] and \[4\]/);
  });

  it('rejects mismatched dtypes', () => {
    expect(err(MATMUL, [2, 3], 'float32', [3, 4], 'float64', [2, 4], 'float32')).toBe(
      'matmul: inputs have different dtypes float32 [2, 3] and float64 [3, 4]');
  });

  it('rejects batch dims that do not broadcast', () => {
    expect(err(MATMUL, [2, 3, 4], 'float32', [3, 4, 5], 'float32', [2, 3, 5], 'float32')).toMatch(
      /^matmul: batch dims of shapes \[2, 3, 4\] and \[3, 4, 5\] cannot be broadcast/);
  });

  it('rejects a wrong output shape or dtype', () => {
    expect(err(MATMUL, [2, 3], 'float32', [3, 4], 'float32', [2, 5], 'float32')).toMatch(/^matmul: output 0 has shape \[2, 5\], expected \[2, 4\]/);
    expect(err(MATMUL, [2, 3], 'float32', [3, 4], 'float32', [2, 4], 'float64')).toMatch(/^matmul: output 0 has dtype float64, expected float32/);
  });

  it('rejects 0-D inputs, unsupported dtypes and bad attributes', () => {
    expect(err(MATMUL, [], 'float32', [3], 'float32', [], 'float32')).toMatch(/^matmul: inputs must have at least 1 dimension, got shapes \[\] and \[3\]/);
    expect(err(MATMUL, [2, 3], 'bool', [3, 4], 'bool', [2, 4], 'bool')).toMatch(/^matmul: unsupported dtype bool for shapes \[2, 3\] and \[3, 4\]/);
    expect(err(MATMUL, [2, 3], 'float32', [3, 4], 'float32', [2, 4], 'float32', [2, 0])).toMatch(/^matmul: transpose flags must be 0 or 1/);
  });

  it('bmm requires 3-D inputs with equal batches', () => {
    expect(err(BMM, [3, 4], 'float32', [4, 5], 'float32', [3, 5], 'float32')).toMatch(/^bmm: expected 3-D inputs, got shapes \[3, 4\] and \[4, 5\]/);
    expect(err(BMM, [2, 3, 4], 'float32', [3, 4, 5], 'float32', [2, 3, 5], 'float32')).toMatch(/^bmm: batch dims differ for shapes \[2, 3, 4\] and \[3, 4, 5\]/);
    expect(err(BMM, [2, 3, 4], 'float32', [2, 5, 6], 'float32', [2, 3, 6], 'float32')).toMatch(
      /^bmm: cannot multiply shapes \[2, 3, 4\] and \[2, 5, 6\] \(contraction dims 4 vs 5\)/);
  });

  it('keeps working after errors', () => {
    for (let i = 0; i < 20; i++) err(MATMUL, [2, 3], 'float32', [4, 5], 'float32', [2, 5], 'float32');
    check({ x: [17, 33], y: [33, 65] }, 'float32');
  });
});
