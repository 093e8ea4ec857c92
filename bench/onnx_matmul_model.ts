// A minimal ONNX model holding one MatMul node (Y = A x B, float32), serialised by hand:
// protobufjs is not a dependency, and the handful of fields needed here are easy to write.
// Field numbers are those of onnx.proto (ModelProto, GraphProto, NodeProto, ValueInfoProto,
// TypeProto, TensorShapeProto, TensorProto, OperatorSetIdProto).

/** Protobuf writer for the wire types used here: varint (0) and length-delimited (2). */
export class PbWriter {
  private bytes: number[] = [];

  private varint(v: number | bigint): void {
    let x = BigInt(v);
    if (x < 0n) x += 1n << 64n;  // int64 negatives are 10-byte two's complement varints
    while (x >= 0x80n) {
      this.bytes.push(Number(x & 0x7fn) | 0x80);
      x >>= 7n;
    }
    this.bytes.push(Number(x));
  }

  private key(field: number, wire: 0 | 2): void {
    this.varint((field << 3) | wire);
  }

  int(field: number, v: number | bigint): this {
    this.key(field, 0);
    this.varint(v);
    return this;
  }

  bytesField(field: number, data: Uint8Array): this {
    this.key(field, 2);
    this.varint(data.length);
    for (let i = 0; i < data.length; i++) this.bytes.push(data[i]);
    return this;
  }

  string(field: number, s: string): this {
    return this.bytesField(field, new TextEncoder().encode(s));
  }

  message(field: number, w: PbWriter): this {
    return this.bytesField(field, w.finish());
  }

  finish(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }
}

const FLOAT = 1;  // TensorProto.DataType.FLOAT

export function valueInfo(name: string, dims: readonly number[]): PbWriter {
  const shape = new PbWriter();
  for (const d of dims) shape.message(1, new PbWriter().int(1, d));  // TensorShapeProto.dim.dim_value
  const tensorType = new PbWriter().int(1, FLOAT).message(2, shape);  // TypeProto.Tensor
  const type = new PbWriter().message(1, tensorType);                 // TypeProto.tensor_type
  return new PbWriter().string(1, name).message(2, type);             // ValueInfoProto
}

export function initializer(name: string, dims: readonly number[], data: Float32Array): PbWriter {
  const t = new PbWriter();
  for (const d of dims) t.int(1, d);  // TensorProto.dims
  t.int(2, FLOAT);                    // data_type
  t.string(8, name);                  // name
  t.bytesField(9, new Uint8Array(data.buffer, data.byteOffset, data.byteLength));  // raw_data (little endian)
  return t;
}

export interface MatMulModelOptions {
  /** Bake B in as an initializer (ORT then pre-packs it once at session creation). */
  constB?: Float32Array;
}

/**
 * ONNX bytes (IR 8, opset 17) for Y[m,n] = A[m,k] x B[k,n]. Inputs "A" and, unless constB is
 * given, "B"; output "Y".
 */
export function matmulModel(m: number, k: number, n: number, opts: MatMulModelOptions = {}): Uint8Array {
  const node = new PbWriter().string(1, 'A').string(1, 'B').string(2, 'Y').string(3, 'matmul').string(4, 'MatMul');
  const graph = new PbWriter().message(1, node).string(2, 'gemm_bench');
  if (opts.constB) {
    if (opts.constB.length !== k * n) throw new Error(`constB has ${opts.constB.length} values, expected ${k * n}`);
    graph.message(5, initializer('B', [k, n], opts.constB));
  }
  graph.message(11, valueInfo('A', [m, k]));
  if (!opts.constB) graph.message(11, valueInfo('B', [k, n]));
  graph.message(12, valueInfo('Y', [m, n]));
  const opset = new PbWriter().string(1, '').int(2, 17);
  return new PbWriter().int(1, 8).string(2, 'skiff-bench').message(7, graph).message(8, opset).finish();
}
