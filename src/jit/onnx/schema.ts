// The subset of ONNX's onnx.proto (proto2, package onnx) that the exporter writes, as a
// protobufjs JSON descriptor. Written from the ONNX IR specification; field numbers and enum
// values must match onnx.proto exactly, since ONNX Runtime and onnx.checker decode by number.
// Kept as a TS module (not a .proto read at run time) so the bundled CLI needs no schema file.
// Messages and fields that Skiff never emits (training info, functions, sparse tensors, maps,
// sequences) are left out; decoders skip unknown fields, so this stays wire-compatible.
import protobuf from 'protobufjs';

// proto2 repeated scalars are unpacked unless onnx.proto says [packed = true].
const UNPACKED = { packed: false } as const;

const descriptor = {
  nested: {
    onnx: {
      nested: {
        /** TensorProto.DataType */
        DataType: {
          values: {
            UNDEFINED: 0, FLOAT: 1, UINT8: 2, INT8: 3, UINT16: 4, INT16: 5, INT32: 6, INT64: 7, STRING: 8, BOOL: 9,
            FLOAT16: 10, DOUBLE: 11, UINT32: 12, UINT64: 13, COMPLEX64: 14, COMPLEX128: 15, BFLOAT16: 16,
          },
        },
        AttributeType: {
          values: { UNDEFINED: 0, FLOAT: 1, INT: 2, STRING: 3, TENSOR: 4, GRAPH: 5, FLOATS: 6, INTS: 7, STRINGS: 8, TENSORS: 9, GRAPHS: 10 },
        },
        AttributeProto: {
          fields: {
            name: { type: 'string', id: 1 },
            f: { type: 'float', id: 2 },
            i: { type: 'int64', id: 3 },
            s: { type: 'bytes', id: 4 },
            t: { type: 'TensorProto', id: 5 },
            g: { type: 'GraphProto', id: 6 },
            floats: { rule: 'repeated', type: 'float', id: 7, options: UNPACKED },
            ints: { rule: 'repeated', type: 'int64', id: 8, options: UNPACKED },
            strings: { rule: 'repeated', type: 'bytes', id: 9 },
            tensors: { rule: 'repeated', type: 'TensorProto', id: 10 },
            graphs: { rule: 'repeated', type: 'GraphProto', id: 11 },
            doc_string: { type: 'string', id: 13 },
            type: { type: 'AttributeType', id: 20 },
          },
        },
        ValueInfoProto: {
          fields: { name: { type: 'string', id: 1 }, type: { type: 'TypeProto', id: 2 }, doc_string: { type: 'string', id: 3 } },
        },
        NodeProto: {
          fields: {
            input: { rule: 'repeated', type: 'string', id: 1 },
            output: { rule: 'repeated', type: 'string', id: 2 },
            name: { type: 'string', id: 3 },
            op_type: { type: 'string', id: 4 },
            attribute: { rule: 'repeated', type: 'AttributeProto', id: 5 },
            doc_string: { type: 'string', id: 6 },
            domain: { type: 'string', id: 7 },
          },
        },
        StringStringEntryProto: { fields: { key: { type: 'string', id: 1 }, value: { type: 'string', id: 2 } } },
        OperatorSetIdProto: { fields: { domain: { type: 'string', id: 1 }, version: { type: 'int64', id: 2 } } },
        ModelProto: {
          fields: {
            ir_version: { type: 'int64', id: 1 },
            producer_name: { type: 'string', id: 2 },
            producer_version: { type: 'string', id: 3 },
            domain: { type: 'string', id: 4 },
            model_version: { type: 'int64', id: 5 },
            doc_string: { type: 'string', id: 6 },
            graph: { type: 'GraphProto', id: 7 },
            opset_import: { rule: 'repeated', type: 'OperatorSetIdProto', id: 8 },
            metadata_props: { rule: 'repeated', type: 'StringStringEntryProto', id: 14 },
          },
        },
        GraphProto: {
          fields: {
            node: { rule: 'repeated', type: 'NodeProto', id: 1 },
            name: { type: 'string', id: 2 },
            initializer: { rule: 'repeated', type: 'TensorProto', id: 5 },
            doc_string: { type: 'string', id: 10 },
            input: { rule: 'repeated', type: 'ValueInfoProto', id: 11 },
            output: { rule: 'repeated', type: 'ValueInfoProto', id: 12 },
            value_info: { rule: 'repeated', type: 'ValueInfoProto', id: 13 },
          },
        },
        TensorProto: {
          fields: {
            dims: { rule: 'repeated', type: 'int64', id: 1, options: UNPACKED },
            data_type: { type: 'int32', id: 2 },
            float_data: { rule: 'repeated', type: 'float', id: 4, options: { packed: true } },
            int32_data: { rule: 'repeated', type: 'int32', id: 5, options: { packed: true } },
            int64_data: { rule: 'repeated', type: 'int64', id: 7, options: { packed: true } },
            name: { type: 'string', id: 8 },
            raw_data: { type: 'bytes', id: 9 },
            double_data: { rule: 'repeated', type: 'double', id: 10, options: { packed: true } },
            doc_string: { type: 'string', id: 12 },
          },
        },
        TensorShapeProto: {
          fields: { dim: { rule: 'repeated', type: 'Dimension', id: 1 } },
          nested: {
            Dimension: {
              oneofs: { value: { oneof: ['dim_value', 'dim_param'] } },
              fields: { dim_value: { type: 'int64', id: 1 }, dim_param: { type: 'string', id: 2 }, denotation: { type: 'string', id: 3 } },
            },
          },
        },
        TypeProto: {
          oneofs: { value: { oneof: ['tensor_type'] } },
          fields: { tensor_type: { type: 'Tensor', id: 1 }, denotation: { type: 'string', id: 6 } },
          nested: {
            Tensor: { fields: { elem_type: { type: 'int32', id: 1 }, shape: { type: 'TensorShapeProto', id: 2 } } },
          },
        },
      },
    },
  },
};

export const onnxRoot = protobuf.Root.fromJSON(descriptor);
export const ModelProto = onnxRoot.lookupType('onnx.ModelProto');

/** TensorProto.DataType values. */
export const OnnxDType = {
  FLOAT: 1, UINT8: 2, INT8: 3, INT32: 6, INT64: 7, BOOL: 9, FLOAT16: 10, DOUBLE: 11, BFLOAT16: 16,
} as const;

/** AttributeProto.AttributeType values. */
export const AttrType = { FLOAT: 1, INT: 2, STRING: 3, TENSOR: 4, GRAPH: 5, FLOATS: 6, INTS: 7 } as const;

/** The IR version that goes with opsets 17 and 18 (ONNX 1.12 / 1.13). */
export const IR_VERSION = 8;

/** Encodes a ModelProto given as a plain object (fields named as in onnx.proto). */
export function encodeModel(model: Record<string, unknown>): Uint8Array {
  const err = ModelProto.verify(model);
  if (err) throw new Error(`onnx export: invalid ModelProto: ${err}`);
  const out = ModelProto.encode(ModelProto.fromObject(model)).finish();
  // protobufjs hands back a Node Buffer; callers (Pyodide, ORT) want a plain Uint8Array.
  return out.constructor === Uint8Array ? out : new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}

/** Decodes ModelProto bytes to a plain object (int64 as numbers, bytes as Uint8Array). */
export function decodeModel(bytes: Uint8Array): Record<string, any> {
  return ModelProto.toObject(ModelProto.decode(bytes), { longs: Number, defaults: false });
}
