// Moves a layer's state between TypeScript and Python (or numpy) as a directory of .npy files,
// one per state_dict key (`<key>.npy`): Python reads and writes them with np.load / np.save, so
// the zoo's cross-language tests need no pickle reader in TS. Format: NumPy .npy version 1.0
// (magic, uint16 header length, a literal dict header padded to 64 bytes, raw little-endian
// C-order data). Only the dtypes a model state holds are supported.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { paddle } from '../src/paddle.js';
import type { Tensor } from '../src/tensor/tensor.js';

const DESCR: Record<string, string> = { float32: '<f4', float64: '<f8', int64: '<i8', int32: '<i4', uint8: '|u1', bool: '|b1', float16: '<f2' };
const FROM_DESCR: Record<string, string> = Object.fromEntries(Object.entries(DESCR).map(([k, v]) => [v, k]));
const MAGIC = Buffer.from([0x93, ...Buffer.from('NUMPY')]);

/** The .npy bytes of one tensor. */
export function npyBytes(t: Tensor): Buffer {
  const descr = DESCR[t.dtype];
  if (!descr) throw new TypeError(`npyBytes: dtype ${t.dtype} is not supported (only ${Object.keys(DESCR).join(', ')})`);
  const shape = t.shape.length === 1 ? `(${t.shape[0]},)` : `(${t.shape.join(', ')})`;
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${shape}, }`;
  const used = MAGIC.length + 2 + 2 + header.length + 1;
  header += ' '.repeat((64 - (used % 64)) % 64) + '\n';
  const raw = t.rawData();
  const body = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  const len = Buffer.alloc(2);
  len.writeUInt16LE(header.length);
  return Buffer.concat([MAGIC, Buffer.from([1, 0]), len, Buffer.from(header, 'latin1'), body]);
}

/** A tensor from .npy bytes (version 1-3 headers, little-endian, C order); `what` names the source in errors. */
export function fromNpy(buf: Buffer, what = 'npy'): Tensor {
  if (buf.length < 10 || !buf.subarray(0, 6).equals(MAGIC)) throw new Error(`fromNpy: ${what} is not a .npy file`);
  const major = buf[6];
  const hlen = major === 1 ? buf.readUInt16LE(8) : buf.readUInt32LE(8);
  const start = major === 1 ? 10 : 12;
  if (start + hlen > buf.length) throw new Error(`fromNpy: ${what} is truncated (header)`);
  const header = buf.subarray(start, start + hlen).toString('latin1');
  const descr = /'descr':\s*'([^']+)'/.exec(header)?.[1];
  const fortran = /'fortran_order':\s*(True|False)/.exec(header)?.[1];
  const shapeText = /'shape':\s*\(([^)]*)\)/.exec(header)?.[1];
  if (!descr || !fortran || shapeText === undefined) throw new Error(`fromNpy: ${what} has a malformed header ${JSON.stringify(header)}`);
  const dtype = FROM_DESCR[descr];
  if (!dtype) throw new Error(`fromNpy: ${what} has dtype '${descr}', supported: ${Object.values(DESCR).join(', ')}`);
  if (fortran === 'True') throw new Error(`fromNpy: ${what} is in Fortran order; save it C-ordered`);
  const shape = shapeText.split(',').map((s) => s.trim()).filter((s) => s).map(Number);
  const count = shape.reduce((a, b) => a * b, 1);
  const item = Number(descr.slice(2));
  const body = buf.subarray(start + hlen);
  if (body.length !== count * item) throw new Error(`fromNpy: ${what} holds ${body.length} data bytes, shape [${shape.join(', ')}] needs ${count * item}`);
  if (dtype === 'float16') throw new Error(`fromNpy: ${what}: float16 is not supported when reading`);
  const copy = new Uint8Array(body);   // aligned copy for the typed-array view
  const arrays: Record<string, (b: ArrayBuffer) => ArrayBufferView> = {
    float32: (b) => new Float32Array(b), float64: (b) => new Float64Array(b), int64: (b) => new BigInt64Array(b),
    int32: (b) => new Int32Array(b), uint8: (b) => new Uint8Array(b), bool: (b) => new Uint8Array(b),
  };
  let flat = paddle.to_tensor(arrays[dtype](copy.buffer)) as Tensor;
  if (dtype === 'bool') flat = paddle.cast(flat, 'bool') as Tensor;
  return paddle.reshape(flat, shape) as Tensor;
}

/** Writes every tensor of `state` as `<dir>/<key>.npy` (the directory is created). */
export function saveStateNpy(dir: string, state: Record<string, Tensor>): void {
  mkdirSync(dir, { recursive: true });
  for (const [k, t] of Object.entries(state)) writeFileSync(join(dir, `${k}.npy`), npyBytes(t));
}

/** Reads every `<key>.npy` in `dir` into { key: tensor }. */
export function loadStateNpy(dir: string): Record<string, Tensor> {
  const out: Record<string, Tensor> = {};
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.npy')).sort()) out[f.slice(0, -4)] = fromNpy(readFileSync(join(dir, f)), f);
  return out;
}
