// PIR program -> ONNX ModelProto. Feeds (pd_op.data) become graph inputs with symbolic dims as
// dim_param, parameters (builtin.parameter) and constants become initializers, fetches become
// graph outputs, and every other op goes through the converter registered for its Paddle name
// (convert_*.ts). An op without a converter fails the export naming it: a model is never
// written partially.
import { IF, Program as PirProgram, type Operation, type TensorType, type Value, WHILE } from '../../pir/index.js';
import { Program as StaticProgram } from '../../static/program.js';
import { global_scope } from '../../static/scope.js';
import type { Tensor } from '../../tensor/tensor.js';
import { converters, OpContext } from './context.js';
import { convertIf, convertWhile } from './control_flow.js';
import { encodeValues, OnnxGraph, onnxDType, valueInfo } from './graph.js';
import { encodeModel, IR_VERSION } from './schema.js';
import './convert_math.js';
import './convert_nn.js';
import './convert_shape.js';
import './convert_extra.js';

export interface ExportOnnxOptions {
  /** ONNX opset of the default domain (13..18; 17 by default). */
  opset?: number;
  /** Feed names in graph-input order (default: the program's pd_op.data ops, in order). */
  inputs?: readonly string[];
  /**
   * Graph outputs: fetch names of the program's pd_op.fetch ops, or values to output (named
   * `output_<i>`). Default: every fetch, in col order.
   */
  outputs?: readonly (string | Value)[];
  /** The tensor of a parameter (default: the static Program's captured tensors, then global_scope()). */
  params?: (name: string) => Tensor | undefined;
  /** ModelProto.graph.name */
  graphName?: string;
}

const MIN_OPSET = 13, MAX_OPSET = 18;

function tensorTypeOf(v: Value, where: string): TensorType {
  if (v.type.kind !== 'tensor') throw new Error(`onnx export: ${where}: ${String(v.type)} is not a tensor`);
  return v.type;
}


/** Raw little-endian bytes of a tensor's elements (row-major). */
function tensorBytes(t: Tensor): Uint8Array {
  const raw = t.rawData() as unknown as ArrayBufferView;
  if (t.dtype === 'bool') return Uint8Array.from(raw as unknown as ArrayLike<number>, (x) => (x ? 1 : 0));
  return new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength);
}

/** Values of a builtin.constant as a flat list (a splat `value` repeats). */
function constantValues(op: Operation, t: TensorType): (number | boolean)[] {
  const a = op.attr('value');
  if (!t.isStatic) throw new Error(`onnx export: builtin.constant: shape ${String(t)} must be static`);
  const n = (t.shape as number[]).reduce((x, y) => x * y, 1);
  if (!a) throw new Error('onnx export: builtin.constant without a value');
  if (a.kind === 'ints' || a.kind === 'floats') return [...a.value];
  if (a.kind === 'int' || a.kind === 'float' || a.kind === 'bool') return new Array(n).fill(a.value);
  throw new Error(`onnx export: builtin.constant: unsupported value kind ${a.kind}`);
}

/**
 * Converts a PIR program to ONNX bytes.
 * @example
 *   const bytes = exportOnnx(program, { opset: 17 });
 *   writeFileSync('model.onnx', bytes);
 */
export function exportOnnx(program: PirProgram | StaticProgram, opts: ExportOnnxOptions = {}): Uint8Array {
  const opset = opts.opset ?? 17;
  if (!Number.isInteger(opset) || opset < MIN_OPSET || opset > MAX_OPSET) throw new RangeError(`onnx export: opset ${opset} is not supported (${MIN_OPSET}..${MAX_OPSET})`);
  const wrapper = program instanceof StaticProgram ? program : undefined;
  const pir = program instanceof StaticProgram ? program.pir : program;
  const lookup = opts.params ?? ((n: string) => wrapper?.boundTensor(n) ?? global_scope().get(n));

  const g = new OnnxGraph();
  const feeds = new Map<string, Value>();
  const fetches: { name: string; col: number; value: Value }[] = [];
  for (const op of pir.block.ops) {
    if (op.name === 'pd_op.data') {
      const a = op.attr('name');
      const name = a?.kind === 'str' ? a.value : `input_${feeds.size}`;
      feeds.set(name, op.result(0));
    } else if (op.name === 'pd_op.fetch') {
      const a = op.attr('name'), col = op.attr('col');
      fetches.push({ name: a?.kind === 'str' ? a.value : `fetch_${fetches.length}`, col: col?.kind === 'int' ? col.value : fetches.length, value: op.operand(0)! });
    }
  }

  // Graph inputs keep their feed names, so ORT callers feed by Paddle's names.
  const inputNames = opts.inputs ? [...opts.inputs] : [...feeds.keys()];
  for (const n of inputNames) if (!feeds.has(n)) throw new Error(`onnx export: the program has no feed named '${n}' (feeds: ${[...feeds.keys()].join(', ') || 'none'})`);
  for (const n of inputNames) { g.reserve(n); g.bind(feeds.get(n)!, n); }

  let outputs: { name: string; value: Value }[];
  if (opts.outputs) {
    outputs = opts.outputs.map((o, i) => {
      if (typeof o !== 'string') return { name: `output_${i}`, value: o };
      const f = fetches.find((x) => x.name === o);
      if (!f) throw new Error(`onnx export: the program has no fetch named '${o}' (fetches: ${fetches.map((x) => x.name).join(', ') || 'none'})`);
      return { name: f.name, value: f.value };
    });
  } else {
    outputs = [...fetches].sort((a, b) => a.col - b.col).map((f) => ({ name: f.name, value: f.value }));
  }
  if (!outputs.length) throw new Error('onnx export: the program has no outputs (no pd_op.fetch and no outputs option)');
  for (const o of outputs) g.reserve(o.name);

  // Only the ops the outputs depend on are converted (training-only branches are left out);
  // a control-flow op needs every outer value its regions read.
  const needed = new Set<Operation>();
  const stack = outputs.map((o) => o.value);
  const visit = (op: Operation): void => {
    for (const x of op.operandValues()) if (x) stack.push(x);
    for (const r of op.regions) for (const b of r.blocks) for (const inner of b.ops) visit(inner);
  };
  while (stack.length) {
    const v = stack.pop()!;
    const d = v.definingOp;
    if (!d || needed.has(d)) continue;
    needed.add(d);
    visit(d);
  }

  const ctx: ConvertCtx = { g, opset, lookup, convertOps: (ops) => { for (const op of ops) convertOp(op, ctx); } };
  ctx.convertOps(pir.block.ops.filter((op) => needed.has(op)));

  const graphOutputs = outputs.map((o) => {
    g.node('Identity', [g.name(o.value, `output '${o.name}'`)], {}, [o.name]);
    return valueInfo(o.name, tensorTypeOf(o.value, o.name));
  });
  const model = {
    ir_version: IR_VERSION,
    producer_name: 'skiff',
    producer_version: '0.1.0',
    opset_import: [{ domain: '', version: opset }],
    graph: {
      name: opts.graphName ?? 'skiff_graph',
      node: g.nodes,
      initializer: g.initializers,
      input: inputNames.map((n) => valueInfo(n, tensorTypeOf(feeds.get(n)!, n))),
      output: graphOutputs,
    },
  };
  return encodeModel(model);
}

/** What converting one op needs (regions convert their ops through convertOps). */
export interface ConvertCtx {
  g: OnnxGraph;
  opset: number;
  lookup: (name: string) => Tensor | undefined;
  convertOps: (ops: readonly Operation[]) => void;
}

function convertOp(op: Operation, ctx: ConvertCtx): void {
  const { g, opset, lookup } = ctx;
  if (op.name === IF) { convertIf(op, ctx); return; }
  if (op.name === WHILE) { convertWhile(op, ctx); return; }
  if (op.regions.length) throw new Error(`onnx export: ${op.name}: this control-flow op has no ONNX conversion`);
  switch (op.name) {
    case 'pd_op.data': {
      const a = op.attr('name');
      if (!g.has(op.result(0))) throw new Error(`onnx export: feed '${a?.kind === 'str' ? a.value : '?'}' is used but not among the inputs`);
      return;
    }
    case 'builtin.parameter': {
      const a = op.attr('parameter_name');
      const pname = a?.kind === 'str' ? a.value : '';
      const t = tensorTypeOf(op.result(0), pname);
      const tensor = lookup(pname);
      if (!tensor) throw new Error(`onnx export: parameter '${pname}' has no tensor (not captured by the program nor in the global scope)`);
      if (tensor.shape.length !== t.shape.length || tensor.shape.some((d, i) => d !== t.shape[i]) || tensor.dtype !== t.dtype) {
        throw new Error(`onnx export: parameter '${pname}' is ${tensor.dtype}[${tensor.shape.join(', ')}] but the program declares ${String(t)}`);
      }
      const name = g.fresh(pname);
      g.initializers.push({ name, dims: [...tensor.shape], data_type: onnxDType(tensor.dtype, pname), raw_data: tensorBytes(tensor) });
      g.bind(op.result(0), name);
      return;
    }
    case 'builtin.constant': {
      const t = tensorTypeOf(op.result(0), 'builtin.constant');
      const name = g.constant(t.dtype, t.shape as number[], encodeValues(t.dtype, constantValues(op, t)), 'constant');
      g.bind(op.result(0), name);
      return;
    }
    case 'builtin.combine':
      g.bind(op.result(0), op.operandValues().map((v) => g.name(v!, 'builtin.combine')));
      return;
    case 'builtin.split': {
      const names = g.list(op.operand(0)!, 'builtin.split');
      op.results.forEach((r, i) => g.bind(r, names[i]));
      return;
    }
    default: break;
  }
  const key = op.name.startsWith('pd_op.') ? op.name.slice(6) : op.name;
  const conv = converters.get(key);
  if (!conv) throw new Error(`onnx export: op '${key}' has no ONNX converter`);
  conv(new OpContext(op, g, opset));
  for (const r of op.results) {
    if (!g.has(r) && r.hasUses) throw new Error(`onnx export: ${key}: result ${r.index} was not converted`);
  }
}

/** Paddle op names that have an ONNX converter (for docs and error hints). */
export const onnxConvertibleOps = (): string[] => [...converters.keys()].sort();
