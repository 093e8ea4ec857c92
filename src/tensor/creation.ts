// paddle.to_tensor: JS data (numbers, booleans, nested arrays, typed arrays, bigint) -> Tensor.
import { native } from '../native.js';
import { DTYPE_CODE, type DType, toDType, typedArrayFor } from './dtype.js';
import { numberToBf16, numberToF16 } from './half.js';
import { shapeStr } from './shape.js';
import { Tensor } from './tensor.js';

export type TensorData = number | boolean | bigint | TensorData[] | ArrayBufferView | Tensor;

function typedArrayDType(a: ArrayBufferView): DType | null {
  if (a instanceof Float32Array) return 'float32';
  if (a instanceof Float64Array) return 'float64';
  if (a instanceof Int32Array) return 'int32';
  if (a instanceof BigInt64Array) return 'int64';
  if (a instanceof Int8Array) return 'int8';
  if (a instanceof Uint8Array) return 'uint8';
  return null;
}

/** Shape and flat values of nested arrays; throws on ragged input naming the position. */
function flatten(data: TensorData, shape: number[], flat: (number | boolean | bigint)[], depth: number, path: string): void {
  if (Array.isArray(data)) {
    if (shape.length === depth) shape.push(data.length);
    else if (shape[depth] !== data.length) throw new Error(`to_tensor: ragged nested list at ${path || 'top'}: expected length ${shape[depth]}, got ${data.length}`);
    data.forEach((d, i) => flatten(d, shape, flat, depth + 1, `${path}[${i}]`));
    return;
  }
  if (shape.length > depth) throw new Error(`to_tensor: ragged nested list at ${path}: expected a list of length ${shape[depth]}, got a scalar`);
  if (ArrayBuffer.isView(data)) {
    const view = data as unknown as ArrayLike<number>;
    for (let i = 0; i < view.length; i++) flat.push(view[i]);
    if (depth === shape.length) shape.push((data as unknown as ArrayLike<number>).length);
    return;
  }
  if (typeof data === 'number' || typeof data === 'boolean' || typeof data === 'bigint') { flat.push(data); return; }
  if (data instanceof Tensor) { for (const v of data.dataSync()) flat.push(v); shape.push(...data.shape); return; }
  throw new TypeError(`to_tensor: unsupported element ${String(data)} at ${path || 'top'}`);
}

/** Encodes values into a dtype's storage bytes. */
export function encodeValues(values: ArrayLike<number | boolean | bigint>, dtype: DType): ArrayBufferView {
  const C = typedArrayFor(dtype);
  const out = new C(values.length) as unknown as { [i: number]: number | bigint };
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    switch (dtype) {
      case 'int64': out[i] = typeof v === 'bigint' ? v : BigInt(Math.trunc(Number(v))); break;
      case 'float16': out[i] = numberToF16(Number(v)); break;
      case 'bfloat16': out[i] = numberToBf16(Number(v)); break;
      case 'bool': out[i] = v ? 1 : 0; break;
      case 'int32': case 'int8': case 'uint8': out[i] = Math.trunc(Number(v)); break;
      default: out[i] = Number(v);
    }
  }
  return out as unknown as ArrayBufferView;
}

export interface ToTensorOptions { dtype?: DType | string | null; place?: unknown; stop_gradient?: boolean }

/**
 * Creates a tensor from JS data, as paddle.to_tensor does.
 * Default dtypes: JS numbers -> float32 (JS cannot tell 1 from 1.0; pass 'int64' or BigInts for
 * integers), bigint -> int64, booleans -> bool, typed arrays keep their element type.
 * The Python bridge passes ints and floats apart and gets Paddle's int64/float32 defaults.
 * Like every Skiff API, trailing arguments may come as one options object instead.
 * @example const x = paddle.to_tensor([[1, 2], [3, 4]], 'float32');
 * @example const w = paddle.to_tensor([1, 2], { dtype: 'float64', stop_gradient: false });
 */
export function to_tensor(data: TensorData, dtype?: DType | string | null | ToTensorOptions, _place?: unknown, stop_gradient = true): Tensor {
  if (dtype !== null && typeof dtype === 'object') {
    const o = dtype;
    for (const k of Object.keys(o)) if (!['dtype', 'place', 'stop_gradient'].includes(k)) throw new TypeError(`to_tensor() got an unexpected keyword argument '${k}'`);
    return to_tensor(data, o.dtype ?? null, o.place, o.stop_gradient ?? true);
  }
  let dt: DType | null = dtype ? toDType(dtype) : null;
  let t: Tensor;
  if (data instanceof Tensor && (!dt || dt === data.dtype)) {
    t = new Tensor(native.fromBytes(DTYPE_CODE[data.dtype], data.shape, native.toBytes(data.h('to_tensor'))), data.dtype, [...data.shape]);
  } else if (ArrayBuffer.isView(data) && typedArrayDType(data) && (!dt || dt === typedArrayDType(data))) {
    const d = typedArrayDType(data)!;
    const n = (data as unknown as ArrayLike<number>).length;
    t = new Tensor(native.fromBytes(DTYPE_CODE[d], [n], data), d, [n]);
  } else {
    const shape: number[] = [];
    const flat: (number | boolean | bigint)[] = [];
    flatten(data, shape, flat, 0, '');
    if (!dt) {
      if (flat.length === 0) dt = 'float32';
      else if (flat.every((v) => typeof v === 'boolean')) dt = 'bool';
      else if (flat.every((v) => typeof v === 'bigint')) dt = 'int64';
      else dt = 'float32';
    }
    const bytes = encodeValues(flat, dt);
    const count = shape.reduce((a, b) => a * b, 1);
    if (count !== flat.length) throw new Error(`to_tensor: ${flat.length} values for shape ${shapeStr(shape)}`);
    t = new Tensor(native.fromBytes(DTYPE_CODE[dt], shape, bytes), dt, shape);
  }
  t.stop_gradient = stop_gradient;
  return t;
}

