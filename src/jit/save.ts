// paddle.jit.save: captures a layer's (or function's) forward for inference and writes
// `path.pir` + `path.pdiparams`.
//
// Capture goes through paddle.static program building: every InputSpec becomes a pd_op.data
// (None / -1 dims stay symbols), the forward runs once on those values with the layer in eval
// mode, and the eager parameters it touches become builtin.parameter values (Program.lift).
// Anything that needs a value while tracing (`.numpy()`, `.item()`, Python `if` on a tensor)
// fails there, and jit.save reports it: a model is complete or not written at all.
//
// The program is then pruned to the outputs (feeds are all kept, even unused ones, so the
// loaded model takes the same arguments; parameter updates are dropped: inference never
// writes state), run through the 'inference' pipeline, parameter-only computations (conv+bn
// folding's weight transforms) are folded, and large folded constants go back into the
// parameter file rather than the text.
//
// `path.pir` is one header line, `#skiff-pir-model {json}` (format version, inputs with
// dtype/shape, outputs, parameters with dtype/shape in file order), then the PIR text.
import { writeFileSync } from 'node:fs';
import { native } from '../native.js';
import type { Layer } from '../nn/layer.js';
import { dcePass, foldConvBnPass, foldParametersPass, runPipeline } from '../passes/index.js';
import { Builder, capturedValues, type Operation, Program as PirProgram, printProgram, type TensorType, type Value, verify } from '../pir/index.js';
import { Program } from '../static/program.js';
import { program_guard } from '../static/mode.js';
import { global_scope, ownedView } from '../static/scope.js';
import { data } from '../static/api.js';
import { DTYPE_CODE, type DType, toDType } from '../tensor/dtype.js';
import { encodeValues } from '../tensor/creation.js';
import { Tensor, untracked } from '../tensor/tensor.js';
import { constantData } from '../passes/constant_fold.js';
import { encodePdiparams } from './pdiparams.js';

export const MODEL_FORMAT_VERSION = 1;
export const HEADER_PREFIX = '#skiff-pir-model ';

/** paddle.static.InputSpec / paddle.jit.InputSpec: shape (None / -1 dims are symbolic), dtype, name. */
export class InputSpec {
  readonly shape: (number | null)[];
  readonly dtype: DType;
  constructor(shape: readonly (number | null)[] = [], dtype: DType | string = 'float32', readonly name: string | null = null, readonly stop_gradient = false) {
    if (!Array.isArray(shape)) throw new TypeError(`InputSpec: shape must be a list of dims, got ${String(shape)}`);
    this.shape = shape.map((d, i) => {
      if (d === null || d === -1) return null;
      if (!Number.isInteger(d) || d < 0) throw new TypeError(`InputSpec: dim ${i} must be a size >= 0, -1 or None, got ${JSON.stringify(d)}`);
      return d;
    });
    this.dtype = toDType(dtype);
  }
  toString(): string { return `InputSpec(shape=[${this.shape.map((d) => d ?? 'None').join(', ')}], dtype=${this.dtype}, name=${this.name})`; }
}

/** One feed or fetch of a saved model, as the header lists it (-1 for a symbolic dim). */
export interface TensorInfo { readonly name: string; readonly dtype: DType; readonly shape: readonly number[] }
export interface ModelHeader {
  readonly format: 'skiff-pir-model';
  readonly version: number;
  readonly inputs: readonly TensorInfo[];
  readonly outputs: readonly TensorInfo[];
  readonly params: readonly TensorInfo[];
}

/** An inference model in memory: the program (data, parameters, ops, fetches), its header and parameter tensors. */
export interface InferenceModel {
  readonly program: PirProgram;
  readonly header: ModelHeader;
  /** In header.params order. */
  readonly params: readonly Tensor[];
}

const infoOf = (name: string, v: Value): TensorInfo => {
  const t = v.type as TensorType;
  return { name, dtype: t.dtype, shape: t.shape.map((d) => (typeof d === 'number' ? d : -1)) };
};

/**
 * Builds the inference model of a captured static program: `feeds` are its pd_op.data values in
 * argument order, `outputs` the values to fetch; parameters are read from the program's captured
 * tensors, else `lookup` (default: the global scope).
 */
export function buildInferenceModel(prog: Program, feeds: readonly Value[], outputs: readonly Value[],
  lookup: (name: string) => Tensor | undefined = (n) => global_scope().get(n), who = 'paddle.jit.save'): InferenceModel {
  if (!outputs.length) throw new Error(`${who}: the forward returned no tensors to save`);
  const pir = pruneForInference(prog.pir, feeds, outputs, who);
  const created = new Map<string, Tensor>();
  const find = (n: string): Tensor | undefined => created.get(n) ?? prog.boundTensor(n) ?? lookup(n);
  // Folded weights become parameters of the model (never JS arrays or IR text).
  const bind = (t: Tensor): string => {
    let name = `folded_param_${created.size}`;
    for (let k = created.size + 1; created.has(name) || prog.boundTensor(name) || lookup(name); k++) name = `folded_param_${k}`;
    t._adoptByGC();
    created.set(name, t);
    return name;
  };
  try {
    // conv+bn folding needs the parameter values (the pipeline alone folds only constants); the
    // pipeline then fuses and cleans up, and parameter-only leftovers are evaluated once here.
    foldConvBnPass({ params: find, bind }).run(pir);
    runPipeline(pir, 'inference');
    foldParametersPass(find, { bind }).run(pir);
    liftLargeConstants(pir, created);
    dcePass().run(pir);
    verify(pir, who);
    const paramOps = new Map<string, Value>();
    for (const op of pir.block.ops) {
      if (op.name !== 'builtin.parameter') continue;
      const name = strAttr(op, 'parameter_name');
      if (!paramOps.has(name)) paramOps.set(name, op.result(0));
    }
    const names = [...paramOps.keys()].sort();
    const params = names.map((n) => {
      const t = created.get(n) ?? find(n);
      if (!t) throw new Error(`${who}: parameter '${n}' has no value (it is neither captured nor in the scope)`);
      const want = paramOps.get(n)!.type as TensorType;
      if (t.dtype !== want.dtype || t.shape.join() !== want.shape.join()) {
        throw new Error(`${who}: parameter '${n}' is ${t.dtype}[${t.shape.join(', ')}] but the program uses it as ${String(want)}`);
      }
      return t;
    });
    const inputs = pir.block.ops.filter((o) => o.name === 'pd_op.data').map((o) => infoOf(strAttr(o, 'name'), o.result(0)));
    const outs = pir.block.ops.filter((o) => o.name === 'pd_op.fetch').map((o) => infoOf(strAttr(o, 'name'), o.operand(0)!));
    const header: ModelHeader = { format: 'skiff-pir-model', version: MODEL_FORMAT_VERSION, inputs, outputs: outs, params: names.map((n) => infoOf(n, paramOps.get(n)!)) };
    // The model owns its tensors: views of the captured ones (the program may be disposed first).
    return { program: pir, header, params: params.map((t, i) => (created.get(names[i]) === t ? t : ownedView(t))) };
  } catch (e) {
    for (const t of created.values()) t.dispose();
    throw e;
  }
}

/** The model's file text: header line then PIR. */
export function modelText(m: InferenceModel): string {
  return `${HEADER_PREFIX}${JSON.stringify(m.header)}\n${printProgram(m.program)}`;
}

/** Writes `path.pir` and `path.pdiparams`. */
export function writeModel(m: InferenceModel, path: string): void {
  const params = encodePdiparams(m.params);
  writeFileSync(`${path}.pdiparams`, params);
  writeFileSync(`${path}.pir`, modelText(m));
}

/** A copy of the ops the outputs need, every feed kept (in order), parameter updates dropped, fetches appended. */
function pruneForInference(program: PirProgram, feeds: readonly Value[], outputs: readonly Value[], who: string): PirProgram {
  const ops = program.block.ops;
  const live = new Set<Value>(outputs);
  const keep = new Set<Operation>();
  for (let i = ops.length - 1; i >= 0; i--) {
    const op = ops[i];
    if (op.name !== 'shape.tie_product_equal' && !op.results.some((r) => live.has(r))) continue;
    keep.add(op);
    for (const v of op.operandValues()) if (v) live.add(v);
    if (op.regions.length) for (const v of capturedValues(op)) live.add(v);
  }
  const out = new PirProgram();
  const mapping = new Map<Value, Value>();
  // Feeds first, in argument order, so the loaded model takes the saved function's arguments.
  for (const f of feeds) {
    const d = f.definingOp;
    if (d?.name !== 'pd_op.data' || d.parent !== program.block) throw new Error(`${who}: input is not a feed of the captured program`);
    out.block.append(d.clone(mapping));
  }
  for (const op of ops) if (keep.has(op) && op.name !== 'pd_op.data') out.block.append(op.clone(mapping));
  const b = new Builder(out);
  outputs.forEach((v, i) => {
    const m = mapping.get(v);
    if (!m) throw new Error(`${who}: output ${i} is not a value of the captured program`);
    b.fetch(m, `output_${i}`, i);
  });
  return out;
}

const strAttr = (op: Operation, name: string): string => {
  const a = op.attr(name);
  if (a?.kind !== 'str') throw new Error(`paddle.jit: "${op.name}" has no string attribute '${name}'`);
  return a.value;
};

/** Constants with more than this many elements are stored in the parameter file, not the text. */
const MAX_TEXT_CONSTANT = 64;

function liftLargeConstants(pir: PirProgram, created: Map<string, Tensor>): void {
  let k = 0;
  for (const op of [...pir.block.ops]) {
    if (op.name !== 'builtin.constant') continue;
    const v = op.result(0);
    const t = v.type as TensorType;
    if (t.kind !== 'tensor' || !t.isStatic) continue;
    const shape = t.shape as number[];
    if (shape.reduce((a, b) => a * b, 1) <= MAX_TEXT_CONSTANT) continue;
    const data = constantData(v);
    if (!data) continue;
    let name = `folded_constant_${k++}`;
    while (created.has(name)) name = `folded_constant_${k++}`;
    const tensor = untracked(() => new Tensor(native.fromBytes(DTYPE_CODE[t.dtype], shape, encodeValues(data, t.dtype)), t.dtype, [...shape]));
    tensor._adoptByGC();
    created.set(name, tensor);
    const p = new Builder(pir).parameter(name, t);
    p.definingOp!.moveBefore(op);
    v.replaceUsesWithIf(p, () => true);
    op.erase();
  }
}

/** What the forward may return: a tensor value, or (nested) lists/tuples/objects of them. */
function flattenOutputs(out: unknown, who: string): Value[] {
  const vals: Value[] = [];
  const visit = (x: unknown, path: string): void => {
    if (x && typeof x === 'object' && 'definingOp' in x) { vals.push(x as Value); return; }
    if (Array.isArray(x)) { x.forEach((e, i) => visit(e, `${path}[${i}]`)); return; }
    if (x instanceof Tensor) throw new Error(`${who}: output ${path} does not depend on the inputs (a constant tensor); saving it is not supported`);
    if (x && typeof x === 'object') { for (const [k, e] of Object.entries(x)) visit(e, `${path}.${k}`); return; }
    throw new Error(`${who}: output ${path} is ${x === null ? 'null' : typeof x}, not a tensor`);
  };
  visit(out, 'out');
  return vals;
}

export interface SaveConfigs {
  readonly input_spec?: readonly (InputSpec | { shape: readonly (number | null)[]; dtype?: string; name?: string | null })[];
}

/** Unique feed names: spec names, else x0, x1 ... (Paddle names them after the arguments; TS has no names). */
function feedNames(specs: readonly { name?: string | null }[]): string[] {
  const used = new Set<string>();
  return specs.map((s, i) => {
    let n = s.name || `x${i}`;
    for (let k = 1; used.has(n); k++) n = `${s.name || `x${i}`}_${k}`;
    used.add(n);
    return n;
  });
}

/**
 * Captures `layer` (its forward, in eval mode) or a function for inference and writes
 * `path.pir` and `path.pdiparams`.
 * @example
 *   paddle.jit.save(model, '/tmp/lenet', { input_spec: [new paddle.jit.InputSpec([null, 1, 28, 28], 'float32', 'x')] });
 *   const loaded = paddle.jit.load('/tmp/lenet');
 */
export function save(layerOrFn: Layer | ((...args: any[]) => unknown), path: string, configs: SaveConfigs = {}): void {
  const model = capture(layerOrFn, configs);
  try { writeModel(model, path); } finally { disposeModel(model); }
}

/** Frees the model's tensors (views of the layer's parameters, and folded constants). */
export function disposeModel(m: InferenceModel): void {
  for (const t of m.params) t.dispose();
}

/** The inference model of `layerOrFn` (see save). */
export function capture(layerOrFn: Layer | ((...args: any[]) => unknown), configs: SaveConfigs = {}): InferenceModel {
  const who = 'paddle.jit.save';
  const specs = configs.input_spec;
  if (!Array.isArray(specs) || !specs.length) throw new TypeError(`${who}: input_spec must be a non-empty list of InputSpec (one per forward argument)`);
  const norm = specs.map((s, i) => {
    if (s instanceof InputSpec) return s;
    if (s && typeof s === 'object' && Array.isArray(s.shape)) return new InputSpec(s.shape, s.dtype ?? 'float32', s.name ?? null);
    throw new TypeError(`${who}: input_spec[${i}] must be an InputSpec, got ${String(s)}`);
  });
  const isLayer = typeof layerOrFn === 'object' && layerOrFn !== null && typeof (layerOrFn as Layer).forward === 'function';
  if (!isLayer && typeof layerOrFn !== 'function') throw new TypeError(`${who}: expected a Layer or a function, got ${typeof layerOrFn}`);
  const layer = isLayer ? (layerOrFn as Layer) : null;
  const modes = layer ? layer.sublayers(true).map((l) => [l, l.training] as const) : [];
  layer?.eval();
  const prog = new Program();
  try {
    const names = feedNames(norm);
    const { feeds, outputs } = program_guard(prog, () => {
      const feeds = norm.map((s, i) => data(names[i], s.shape, s.dtype));
      let out: unknown;
      try {
        out = layer ? layer.call(...feeds) : (layerOrFn as (...a: unknown[]) => unknown)(...feeds);
      } catch (e) {
        const msg = e instanceof Error ? e.message : String(e);
        const at = e instanceof Error ? userFrame(e.stack) : '';
        throw new Error(`${who}: the forward cannot be captured as one graph (no model was written):\n  ${msg}${at ? `\n  at ${at}` : ''}`);
      }
      return { feeds, outputs: flattenOutputs(out, who) };
    });
    return buildInferenceModel(prog, feeds, outputs, undefined, who);
  } finally {
    for (const [l, t] of modes) l.training = t;
    prog.dispose();
  }
}

/** The first stack frame outside Skiff's own sources (the user's line that broke capture). */
function userFrame(stack: string | undefined): string {
  for (const line of (stack ?? '').split('\n').slice(1)) {
    const m = /\(?((?:file:\/\/)?[^\s()]+:\d+:\d+)\)?$/.exec(line.trim());
    if (m && !/[/\\](src|node_modules)[/\\]/.test(m[1])) return m[1];
  }
  return '';
}
