// The subset of Paddle's framework.proto (proto2, package paddle.framework.proto) that inference
// models (`.pdmodel`, a serialized ProgramDesc) use, as a protobufjs JSON descriptor. Written from
// the published framework.proto; field numbers, types and enum values must match it exactly,
// since the files are decoded by number. Kept in code (not a .proto read at run time) so the
// bundled CLI needs no schema file. Messages inference never reads (OpProto, VarDesc attrs,
// reader/tuple descs) are left out; the decoder skips unknown fields.
import protobuf from 'protobufjs';

// proto2 repeated scalars are unpacked unless the .proto says [packed = true] (it never does here).
const UNPACKED = { packed: false } as const;

const descriptor = {
  nested: {
    paddle: {
      nested: {
        framework: {
          nested: {
            proto: {
              nested: {
                Version: { fields: { version: { type: 'int64', id: 1 } } },
                AttrType: {
                  values: {
                    INT: 0, FLOAT: 1, STRING: 2, INTS: 3, FLOATS: 4, STRINGS: 5, BOOLEAN: 6, BOOLEANS: 7, BLOCK: 8,
                    LONG: 9, BLOCKS: 10, LONGS: 11, FLOAT64S: 12, VAR: 13, VARS: 14, FLOAT64: 15, SCALAR: 16, SCALARS: 17,
                  },
                },
                Complex: { fields: { r: { rule: 'required', type: 'double', id: 1 }, i: { rule: 'required', type: 'double', id: 2 } } },
                Scalar: {
                  fields: {
                    type: { rule: 'required', type: 'Type', id: 1 },
                    b: { type: 'bool', id: 2 },
                    i: { type: 'int64', id: 3 },
                    r: { type: 'double', id: 4 },
                    c: { type: 'Complex', id: 5 },
                  },
                  nested: { Type: { values: { BOOLEAN: 1, LONG: 2, FLOAT64: 3, COMPLEX128: 4 } } },
                },
                OpDesc: {
                  fields: {
                    type: { rule: 'required', type: 'string', id: 3 },
                    inputs: { rule: 'repeated', type: 'Var', id: 1 },
                    outputs: { rule: 'repeated', type: 'Var', id: 2 },
                    attrs: { rule: 'repeated', type: 'Attr', id: 4 },
                    is_target: { type: 'bool', id: 5 },
                  },
                  nested: {
                    Attr: {
                      fields: {
                        name: { rule: 'required', type: 'string', id: 1 },
                        type: { rule: 'required', type: 'AttrType', id: 2 },
                        i: { type: 'int32', id: 3 },
                        f: { type: 'float', id: 4 },
                        s: { type: 'string', id: 5 },
                        ints: { rule: 'repeated', type: 'int32', id: 6, options: UNPACKED },
                        floats: { rule: 'repeated', type: 'float', id: 7, options: UNPACKED },
                        strings: { rule: 'repeated', type: 'string', id: 8 },
                        b: { type: 'bool', id: 10 },
                        bools: { rule: 'repeated', type: 'bool', id: 11, options: UNPACKED },
                        block_idx: { type: 'int32', id: 12 },
                        l: { type: 'int64', id: 13 },
                        blocks_idx: { rule: 'repeated', type: 'int32', id: 14, options: UNPACKED },
                        longs: { rule: 'repeated', type: 'int64', id: 15, options: UNPACKED },
                        float64s: { rule: 'repeated', type: 'double', id: 16, options: UNPACKED },
                        var_name: { type: 'string', id: 17 },
                        vars_name: { rule: 'repeated', type: 'string', id: 18 },
                        float64: { type: 'double', id: 19 },
                        scalar: { type: 'Scalar', id: 20 },
                        scalars: { rule: 'repeated', type: 'Scalar', id: 21 },
                      },
                    },
                    Var: {
                      fields: {
                        parameter: { rule: 'required', type: 'string', id: 1 },
                        arguments: { rule: 'repeated', type: 'string', id: 2 },
                      },
                    },
                  },
                },
                VarType: {
                  fields: {
                    type: { rule: 'required', type: 'Type', id: 1 },
                    selected_rows: { type: 'TensorDesc', id: 2 },
                    lod_tensor: { type: 'LoDTensorDesc', id: 3 },
                    tensor_array: { type: 'LoDTensorArrayDesc', id: 4 },
                  },
                  nested: {
                    Type: {
                      values: {
                        BOOL: 0, INT16: 1, INT32: 2, INT64: 3, FP16: 4, FP32: 5, FP64: 6, SIZE_T: 19, UINT8: 20, INT8: 21,
                        BF16: 22, COMPLEX64: 23, COMPLEX128: 24,
                        LOD_TENSOR: 7, SELECTED_ROWS: 8, FEED_MINIBATCH: 9, FETCH_LIST: 10, STEP_SCOPES: 11,
                        LOD_RANK_TABLE: 12, LOD_TENSOR_ARRAY: 13, PLACE_LIST: 14, READER: 15, RAW: 17, TUPLE: 18,
                        STRING: 25, STRINGS: 26, VOCAB: 27, FEED_LIST: 28, PSTRING: 29, SPARSE_COO: 30, SPARSE_CSR: 31,
                      },
                    },
                    TensorDesc: {
                      fields: {
                        data_type: { rule: 'required', type: 'Type', id: 1 },
                        dims: { rule: 'repeated', type: 'int64', id: 2, options: UNPACKED },
                      },
                    },
                    LoDTensorDesc: {
                      fields: { tensor: { rule: 'required', type: 'TensorDesc', id: 1 }, lod_level: { type: 'int32', id: 2 } },
                    },
                    LoDTensorArrayDesc: {
                      fields: { tensor: { rule: 'required', type: 'TensorDesc', id: 1 }, lod_level: { type: 'int32', id: 2 } },
                    },
                  },
                },
                VarDesc: {
                  fields: {
                    name: { rule: 'required', type: 'string', id: 1 },
                    type: { rule: 'required', type: 'VarType', id: 2 },
                    persistable: { type: 'bool', id: 3 },
                    need_check_feed: { type: 'bool', id: 4 },
                    is_parameter: { type: 'bool', id: 5 },
                    stop_gradient: { type: 'bool', id: 6 },
                  },
                },
                BlockDesc: {
                  fields: {
                    idx: { rule: 'required', type: 'int32', id: 1 },
                    parent_idx: { rule: 'required', type: 'int32', id: 2 },
                    vars: { rule: 'repeated', type: 'VarDesc', id: 3 },
                    ops: { rule: 'repeated', type: 'OpDesc', id: 4 },
                    forward_block_idx: { type: 'int32', id: 5, options: { default: -1 } },
                  },
                },
                OpVersion: { fields: { version: { rule: 'required', type: 'int32', id: 1 } } },
                OpVersionMap: {
                  fields: { pair: { rule: 'repeated', type: 'OpVersionPair', id: 1 } },
                  nested: {
                    OpVersionPair: {
                      fields: {
                        op_name: { rule: 'required', type: 'string', id: 1 },
                        op_version: { rule: 'required', type: 'OpVersion', id: 2 },
                      },
                    },
                  },
                },
                ProgramDesc: {
                  // fields 2 and 3 are reserved (the pre-2.0 op_compatible_map was 3)
                  fields: {
                    blocks: { rule: 'repeated', type: 'BlockDesc', id: 1 },
                    version: { type: 'Version', id: 4 },
                    op_version_map: { type: 'OpVersionMap', id: 5 },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
};

export const pdRoot = protobuf.Root.fromJSON(descriptor);
export const ProgramDescType = pdRoot.lookupType('paddle.framework.proto.ProgramDesc');

/** AttrType values. */
export const PdAttrType = {
  INT: 0, FLOAT: 1, STRING: 2, INTS: 3, FLOATS: 4, STRINGS: 5, BOOLEAN: 6, BOOLEANS: 7, BLOCK: 8,
  LONG: 9, BLOCKS: 10, LONGS: 11, FLOAT64S: 12, VAR: 13, VARS: 14, FLOAT64: 15, SCALAR: 16, SCALARS: 17,
} as const;

/** VarType.Type values used by the importer. */
export const PdVarType = {
  BOOL: 0, INT16: 1, INT32: 2, INT64: 3, FP16: 4, FP32: 5, FP64: 6, UINT8: 20, INT8: 21, BF16: 22,
  COMPLEX64: 23, COMPLEX128: 24, LOD_TENSOR: 7, FEED_MINIBATCH: 9, FETCH_LIST: 10, LOD_TENSOR_ARRAY: 13,
} as const;

// --- plain-object shapes of the decoded messages (toObject with longs: Number, enums: Number) ---
export interface PdScalar { type: number; b?: boolean; i?: number; r?: number; c?: { r: number; i: number } }
export interface PdAttr {
  name: string; type: number; i?: number; f?: number; s?: string; ints?: number[]; floats?: number[]; strings?: string[];
  b?: boolean; bools?: boolean[]; block_idx?: number; l?: number; blocks_idx?: number[]; longs?: number[];
  float64s?: number[]; var_name?: string; vars_name?: string[]; float64?: number; scalar?: PdScalar; scalars?: PdScalar[];
}
export interface PdOpVar { parameter: string; arguments?: string[] }
export interface PdOpDesc { type: string; inputs?: PdOpVar[]; outputs?: PdOpVar[]; attrs?: PdAttr[]; is_target?: boolean }
export interface PdTensorDesc { data_type: number; dims?: number[] }
export interface PdVarType { type: number; lod_tensor?: { tensor: PdTensorDesc; lod_level?: number }; selected_rows?: PdTensorDesc; tensor_array?: { tensor: PdTensorDesc } }
export interface PdVarDesc { name: string; type: PdVarType; persistable?: boolean; need_check_feed?: boolean; is_parameter?: boolean; stop_gradient?: boolean }
export interface PdBlockDesc { idx: number; parent_idx: number; vars?: PdVarDesc[]; ops?: PdOpDesc[]; forward_block_idx?: number }
export interface PdProgramDesc { blocks?: PdBlockDesc[]; version?: { version?: number }; op_version_map?: { pair?: { op_name: string; op_version: { version: number } }[] } }

/** Decodes ProgramDesc bytes (throws protobufjs errors on malformed input; callers wrap them). */
export function decodeProgramDesc(bytes: Uint8Array): PdProgramDesc {
  return ProgramDescType.toObject(ProgramDescType.decode(bytes), { longs: Number, enums: Number, defaults: false }) as PdProgramDesc;
}

/** Encodes a ProgramDesc given as a plain object (fields named as in framework.proto); used by tests and tools. */
export function encodeProgramDesc(p: PdProgramDesc): Uint8Array {
  const err = ProgramDescType.verify(p);
  if (err) throw new Error(`ProgramDesc: ${err}`);
  const out = ProgramDescType.encode(ProgramDescType.fromObject(p)).finish();
  return out.constructor === Uint8Array ? out : new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}
