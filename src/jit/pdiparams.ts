// Paddle's combined parameter file (`.pdiparams`, written by save_combine): the tensors one after
// another, in the order the model lists them, each as Paddle's DenseTensor stream:
//   uint32 version (0)
//   uint64 lod_level, then per level: uint64 byte size + that many bytes (size_t offsets)
//   uint32 tensor version (0)
//   int32  byte size of a VarType.TensorDesc protobuf, then the message
//          (field 1 data_type: varint enum; field 2 dims: repeated int64, unpacked or packed)
//   raw row-major data, little endian
// The reader checks every size against what is left in the file before allocating, so a
// truncated or hostile file gives an error naming it, never a crash or a huge allocation.
import { native } from '../native.js';
import { DTYPE_CODE, type DType, ITEMSIZE } from '../tensor/dtype.js';
import { Tensor } from '../tensor/tensor.js';

// proto::VarType::Type numbers (framework.proto) for the dtypes Skiff has.
const VARTYPE: Readonly<Record<DType, number>> = { bool: 0, int32: 2, int64: 3, float16: 4, float32: 5, float64: 6, uint8: 20, int8: 21, bfloat16: 22 };
const BY_VARTYPE = new Map<number, DType>(Object.entries(VARTYPE).map(([d, n]) => [n, d as DType]));
// int16 (1) and complex types (23, 24) exist in Paddle but not here: named in the error.
const VARTYPE_NAMES: Record<number, string> = { 1: 'int16', 23: 'complex64', 24: 'complex128' };

/** Raised for a parameter file that cannot be read; the message names the file. */
export class ModelFileError extends Error {
  override name = 'ModelFileError';
}

function varint(out: number[], v: bigint): void {
  let x = BigInt.asUintN(64, v);
  while (x >= 0x80n) { out.push(Number(x & 0x7fn) | 0x80); x >>= 7n; }
  out.push(Number(x));
}

/** The TensorDesc message for dtype and shape (dims unpacked, as proto2 writes them). */
function tensorDesc(dtype: DType, shape: readonly number[]): Uint8Array {
  const b: number[] = [0x08];
  varint(b, BigInt(VARTYPE[dtype]));
  for (const d of shape) { b.push(0x10); varint(b, BigInt(d)); }
  return Uint8Array.from(b);
}

/** Serializes tensors (in the given order) as a .pdiparams byte stream. */
export function encodePdiparams(tensors: readonly Tensor[]): Uint8Array {
  const parts: Uint8Array[] = [];
  let total = 0;
  const push = (u: Uint8Array) => { parts.push(u); total += u.length; };
  for (const t of tensors) {
    const head = new DataView(new ArrayBuffer(4 + 8 + 4));
    head.setUint32(0, 0, true);        // DenseTensor version
    head.setBigUint64(4, 0n, true);    // no LoD levels
    head.setUint32(12, 0, true);       // Tensor version
    push(new Uint8Array(head.buffer));
    const desc = tensorDesc(t.dtype, t.shape);
    const n = new DataView(new ArrayBuffer(4));
    n.setInt32(0, desc.length, true);
    push(new Uint8Array(n.buffer));
    push(desc);
    push(new Uint8Array(native.toBytes(t.h('paddle.jit.save'))));
  }
  const out = new Uint8Array(total);
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return out;
}

/** What the reader expects of one tensor: its name (for errors), dtype and shape. */
export interface ParamSpec { readonly name: string; readonly dtype: DType; readonly shape: readonly number[] }

class Reader {
  pos = 0;
  private readonly view: DataView;
  constructor(readonly bytes: Uint8Array, readonly file: string) { this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength); }
  fail(msg: string): never { throw new ModelFileError(`${this.file}: ${msg} (at byte ${this.pos} of ${this.bytes.length})`); }
  need(n: number, what: string): void { if (n > this.bytes.length - this.pos) this.fail(`truncated: ${what} needs ${n} bytes, ${this.bytes.length - this.pos} left`); }
  u32(what: string): number { this.need(4, what); const v = this.view.getUint32(this.pos, true); this.pos += 4; return v; }
  i32(what: string): number { this.need(4, what); const v = this.view.getInt32(this.pos, true); this.pos += 4; return v; }
  u64(what: string): bigint { this.need(8, what); const v = this.view.getBigUint64(this.pos, true); this.pos += 8; return v; }
  take(n: number, what: string): Uint8Array { this.need(n, what); const s = this.bytes.subarray(this.pos, this.pos + n); this.pos += n; return s; }
}

/** Decodes a TensorDesc message: data_type and dims. */
function decodeDesc(r: Reader, msg: Uint8Array, name: string): { type: number; dims: bigint[] } {
  let p = 0;
  const next = (): bigint => {
    let v = 0n, shift = 0n;
    for (;;) {
      if (p >= msg.length) r.fail(`parameter '${name}': truncated varint in its TensorDesc`);
      const b = msg[p++];
      v |= BigInt(b & 0x7f) << shift;
      if (!(b & 0x80)) return BigInt.asIntN(64, v);
      shift += 7n;
      if (shift > 63n) r.fail(`parameter '${name}': varint longer than 10 bytes in its TensorDesc`);
    }
  };
  let type = -1;
  const dims: bigint[] = [];
  while (p < msg.length) {
    const key = Number(next());
    const field = key >>> 3, wire = key & 7;
    if (field === 1 && wire === 0) type = Number(next());
    else if (field === 2 && wire === 0) dims.push(next());
    else if (field === 2 && wire === 2) {
      const len = Number(next());
      if (len < 0 || len > msg.length - p) r.fail(`parameter '${name}': packed dims overrun its TensorDesc`);
      const end = p + len;
      while (p < end) dims.push(next());
    } else if (wire === 0) next();
    else if (wire === 2) { const len = Number(next()); if (len < 0 || len > msg.length - p) r.fail(`parameter '${name}': field ${field} overruns its TensorDesc`); p += len; }
    else r.fail(`parameter '${name}': unexpected protobuf wire type ${wire} (field ${field}) in its TensorDesc`);
  }
  if (type < 0) r.fail(`parameter '${name}': its TensorDesc has no data_type`);
  return { type, dims };
}

/**
 * Reads a .pdiparams stream holding exactly `specs` (in order), checking each tensor's dtype and
 * shape against its spec. Returns new tensors (the caller owns them).
 */
export function decodePdiparams(bytes: Uint8Array, specs: readonly ParamSpec[], file: string): Tensor[] {
  const r: Reader = new Reader(bytes, file);
  const out: Tensor[] = [];
  try {
    for (const spec of specs) {
      const what = `parameter '${spec.name}'`;
      const version = r.u32(`${what} version`);
      if (version !== 0) r.fail(`${what}: unsupported DenseTensor version ${version}`);
      const levels = r.u64(`${what} LoD level count`);
      if (levels > 16n) r.fail(`${what}: ${levels} LoD levels (a corrupted file?)`);
      for (let l = 0; l < Number(levels); l++) {
        const size = r.u64(`${what} LoD level ${l} size`);
        if (size > BigInt(bytes.length - r.pos)) r.fail(`${what}: LoD level ${l} declares ${size} bytes, more than the file holds`);
        r.take(Number(size), `${what} LoD level ${l}`);
      }
      const tv = r.u32(`${what} tensor version`);
      if (tv !== 0) r.fail(`${what}: unsupported tensor version ${tv}`);
      const descSize = r.i32(`${what} TensorDesc size`);
      if (descSize < 0 || descSize > 4096) r.fail(`${what}: TensorDesc size ${descSize} is out of range`);
      const { type, dims } = decodeDesc(r, r.take(descSize, `${what} TensorDesc`), spec.name);
      const dtype = BY_VARTYPE.get(type);
      if (!dtype) r.fail(`${what}: data type ${VARTYPE_NAMES[type] ?? `#${type}`} is not supported`);
      if (dtype !== spec.dtype) r.fail(`${what} has dtype ${dtype}, the model expects ${spec.dtype}`);
      const shape = dims.map(Number);
      if (shape.length !== spec.shape.length || shape.some((d, i) => d !== spec.shape[i])) {
        r.fail(`${what} has shape [${dims.join(', ')}], the model expects [${spec.shape.join(', ')}]`);
      }
      const n = shape.reduce((a, b) => a * b, 1) * ITEMSIZE[dtype];
      const data = r.take(n, `${what} data (${dtype}[${shape.join(', ')}])`);
      out.push(new Tensor(native.fromBytes(DTYPE_CODE[dtype], shape, data.slice()), dtype, shape));
    }
    if (r.pos !== bytes.length) r.fail(`${bytes.length - r.pos} bytes follow the last of the ${specs.length} parameters the model lists`);
  } catch (e) {
    for (const t of out) t.dispose();
    throw e;
  }
  return out;
}
