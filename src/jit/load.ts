// paddle.jit.load: reads `path.pir` + `path.pdiparams` (save.ts) and returns a TranslatedLayer
// that runs the program on the native executor; no source of the original model is needed.
//
// Files are untrusted: the header is validated field by field, the PIR text goes through the
// parser and the verifier (SSA, types, op signatures), the program's feeds/parameters/fetches
// must be exactly the header's, and the parameter file is read with every size checked before
// allocating (pdiparams.ts). Every error names the file.
import { existsSync, readFileSync } from 'node:fs';
import { compile, type Executable, type PlanProfile } from '../executor/index.js';
import { fromPir } from '../executor/from_pir.js';
import { type Operation, parseProgram, type Program as PirProgram, type TensorType, verify } from '../pir/index.js';
import { type DType, isDType } from '../tensor/dtype.js';
import { Tensor, untracked } from '../tensor/tensor.js';
import { decodePdiparams, ModelFileError } from './pdiparams.js';
import { importPdmodel } from './pdmodel/import.js';
import { checkValueSizes } from './limits.js';
import { HEADER_PREFIX, type InferenceModel, MODEL_FORMAT_VERSION, type ModelHeader, type TensorInfo } from './save.js';

export { ModelFileError } from './pdiparams.js';

/** A model file is read whole; anything larger than this is refused before reading. */
const MAX_TEXT_BYTES = 256 << 20;

function readFile(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (e) {
    throw new ModelFileError(`${file}: cannot read the file (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}

function tensorInfos(x: unknown, what: string, file: string, allowSymbolic: boolean): TensorInfo[] {
  const bad = (msg: string): never => { throw new ModelFileError(`${file}: header ${what}: ${msg}`); };
  if (!Array.isArray(x)) bad('must be a list');
  const seen = new Set<string>();
  return (x as unknown[]).map((e, i) => {
    if (!e || typeof e !== 'object') bad(`entry ${i} is not an object`);
    const { name, dtype, shape } = e as Record<string, unknown>;
    if (typeof name !== 'string' || !name) bad(`entry ${i} has no name`);
    if (seen.has(name as string)) bad(`name '${name}' appears twice`);
    seen.add(name as string);
    if (!isDType(dtype)) bad(`'${name}' has unknown dtype ${JSON.stringify(dtype)}`);
    if (!Array.isArray(shape) || shape.length > 64 || !shape.every((d) => Number.isSafeInteger(d) && (d >= 0 || (allowSymbolic && d === -1)))) {
      bad(`'${name}' has a bad shape ${JSON.stringify(shape)}`);
    }
    return { name: name as string, dtype: dtype as DType, shape: shape as number[] };
  });
}

/** Parses and checks a model text (header line + PIR) read from `file`. */
export function parseModelText(text: string, file: string): { header: ModelHeader; program: PirProgram } {
  const nl = text.indexOf('\n');
  const first = nl < 0 ? text : text.slice(0, nl);
  if (!first.startsWith(HEADER_PREFIX)) throw new ModelFileError(`${file}: not a Skiff model (the first line must start with '${HEADER_PREFIX.trim()}')`);
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(first.slice(HEADER_PREFIX.length)) as Record<string, unknown>;
  } catch (e) {
    throw new ModelFileError(`${file}: the header is not valid JSON (${(e as Error).message})`);
  }
  if (!raw || typeof raw !== 'object' || raw.format !== 'skiff-pir-model') throw new ModelFileError(`${file}: the header has no format 'skiff-pir-model'`);
  if (raw.version !== MODEL_FORMAT_VERSION) throw new ModelFileError(`${file}: model format version ${JSON.stringify(raw.version)} is not supported (this Skiff reads version ${MODEL_FORMAT_VERSION})`);
  const header: ModelHeader = {
    format: 'skiff-pir-model', version: MODEL_FORMAT_VERSION,
    inputs: tensorInfos(raw.inputs, 'inputs', file, true),
    outputs: tensorInfos(raw.outputs, 'outputs', file, true),
    params: tensorInfos(raw.params, 'params', file, false),
  };
  if (!header.outputs.length) throw new ModelFileError(`${file}: the model has no outputs`);
  let program: PirProgram;
  try {
    program = parseProgram(nl < 0 ? '' : text.slice(nl + 1));
    verify(program, file);
  } catch (e) {
    throw new ModelFileError(`${file}: invalid program: ${(e as Error).message}`);
  }
  checkBoundary(program, header, file);
  checkValueSizes(program, file);
  return { header, program };
}

/** The program's feeds, parameters and fetches must be exactly the header's. */
function checkBoundary(program: PirProgram, header: ModelHeader, file: string): void {
  const bad = (msg: string): never => { throw new ModelFileError(`${file}: ${msg}`); };
  const str = (op: Operation, n: string): string => {
    const a = op.attr(n);
    return a?.kind === 'str' ? a.value : bad(`"${op.name}" has no string attribute '${n}'`);
  };
  const sameType = (info: TensorInfo, t: TensorType): boolean =>
    t.kind === 'tensor' && t.dtype === info.dtype && t.shape.length === info.shape.length
    && t.shape.every((d, i) => (typeof d === 'number' && d >= 0 ? d === info.shape[i] : info.shape[i] === -1));
  const ops = program.block.ops;
  const datas = ops.filter((o) => o.name === 'pd_op.data');
  if (datas.length !== header.inputs.length) bad(`the program has ${datas.length} feeds, the header lists ${header.inputs.length}`);
  datas.forEach((o, i) => {
    const info = header.inputs[i];
    if (str(o, 'name') !== info.name) bad(`feed ${i} is '${str(o, 'name')}', the header lists '${info.name}'`);
    if (!sameType(info, o.result(0).type as TensorType)) bad(`feed '${info.name}' is ${String(o.result(0).type)}, the header says ${info.dtype}[${info.shape.join(', ')}]`);
  });
  const fetches = ops.filter((o) => o.name === 'pd_op.fetch');
  if (fetches.length !== header.outputs.length) bad(`the program has ${fetches.length} fetches, the header lists ${header.outputs.length}`);
  const declared = new Map(header.params.map((p) => [p.name, p]));
  for (const o of ops) {
    if (o.name === 'builtin.set_parameter') bad(`an inference model must not write parameters ('${str(o, 'parameter_name')}')`);
    if (o.name !== 'builtin.parameter') continue;
    const n = str(o, 'parameter_name');
    const info = declared.get(n);
    if (!info) bad(`the program uses parameter '${n}', which the header does not list`);
    if (!sameType(info!, o.result(0).type as TensorType)) bad(`parameter '${n}' is ${String(o.result(0).type)} in the program, the header says ${info!.dtype}[${info!.shape.join(', ')}]`);
  }
}

/**
 * The program and parameter files of a model path: `m.pir` / `m.pdmodel` (Paddle's ProgramDesc)
 * as given, or a prefix: `prefix.pir`, else `prefix.pdmodel` when only that exists.
 */
export function resolveModelFiles(path: string, paramsFile?: string): { file: string; pfile: string } {
  let file = path;
  if (paramsFile === undefined && !path.endsWith('.pir') && !path.endsWith('.pdmodel')) {
    file = !existsSync(`${path}.pir`) && existsSync(`${path}.pdmodel`) ? `${path}.pdmodel` : `${path}.pir`;
  }
  const stem = file.endsWith('.pdmodel') ? file.slice(0, -'.pdmodel'.length) : file.endsWith('.pir') ? file.slice(0, -'.pir'.length) : file;
  return { file, pfile: paramsFile ?? `${stem}.pdiparams` };
}

/** Reads a saved model (path prefix, or explicit files) into memory; `.pdmodel` files are translated (pdmodel/import.ts). */
export function readModel(path: string, paramsFile?: string): InferenceModel {
  const { file, pfile } = resolveModelFiles(path, paramsFile);
  const bytes = readFile(file);
  if (bytes.length > MAX_TEXT_BYTES) throw new ModelFileError(`${file}: ${bytes.length} bytes is more than a model text may have`);
  if (file.endsWith('.pdmodel')) return importPdmodel(bytes, () => readFile(pfile), file, pfile);
  return modelFromBytes(bytes.toString('utf8'), () => readFile(pfile), file, pfile);
}

/** A model from its text and parameter bytes (read lazily, after the text checks out); file names are for errors. */
export function modelFromBytes(text: string, paramBytes: Uint8Array | (() => Uint8Array), file: string, pfile: string): InferenceModel {
  const { header, program } = parseModelText(text, file);
  const bytes = typeof paramBytes === 'function' ? paramBytes() : paramBytes;
  const params = untracked(() => decodePdiparams(bytes, header.params, pfile));
  for (const p of params) p._adoptByGC();
  return { header, program, params };
}

const sigOf = (ts: readonly Tensor[]): string => ts.map((t) => `${t.dtype}[${t.shape.join(',')}]`).join(';');

/**
 * A loaded inference model: call it (or `forward`) with one tensor per input; returns one tensor
 * or a list (several outputs). Compiled once; the executor keeps one plan per input-shape signature.
 */
export class TranslatedLayer {
  readonly header: ModelHeader;
  training = false;
  private readonly exe: Executable;
  private readonly bound: Tensor[];
  private readonly feedOrder: number[];
  private readonly signatures = new Set<string>();

  constructor(readonly model: InferenceModel, private readonly file = 'model') {
    this.header = model.header;
    let g: ReturnType<typeof fromPir>;
    try {
      g = untracked(() => fromPir(model.program));
    } catch (e) {
      // a verified program can still hold ops the executor has no kernel for (a damaged op name)
      throw new ModelFileError(`${file}: the program cannot be executed: ${(e as Error).message}`);
    }
    for (const c of g.constants) c._adoptByGC();
    const byName = new Map(model.header.params.map((p, i) => [p.name, model.params[i]]));
    this.bound = [...g.params.map((n) => byName.get(n)!), ...g.constants];
    this.feedOrder = model.header.inputs.map((info) => g.feeds.indexOf(info.name));
    try {
      // The parameters are this layer's own and never written: GEMM weights are packed once.
      this.exe = compile(g.graph, { hostFns: g.hostFns, constantParams: true });
    } catch (e) {
      throw new ModelFileError(`${file}: the program cannot be compiled: ${(e as Error).message}`);
    }
  }

  /** Input / output names, as Paddle's predictor reports them. */
  get input_names(): string[] { return this.header.inputs.map((i) => i.name); }
  get output_names(): string[] { return this.header.outputs.map((o) => o.name); }
  /** Number of distinct input signatures run so far (one compiled plan each). */
  get planCount(): number { return this.signatures.size; }

  /** Runs the model; outputs in header order. */
  run(inputs: readonly Tensor[]): Tensor[] {
    const ins = this.header.inputs;
    if (inputs.length !== ins.length) throw new TypeError(`${this.file}: the model takes ${ins.length} inputs (${ins.map((i) => i.name).join(', ')}), got ${inputs.length}`);
    inputs.forEach((t, i) => {
      const info = ins[i];
      if (!(t instanceof Tensor)) throw new TypeError(`${this.file}: input '${info.name}' must be a Tensor`);
      if (t.dtype !== info.dtype) throw new TypeError(`${this.file}: input '${info.name}' must be ${info.dtype}, got ${t.dtype}`);
      const ok = t.shape.length === info.shape.length && info.shape.every((d, k) => d === -1 || d === t.shape[k]);
      if (!ok) throw new RangeError(`${this.file}: input '${info.name}' must have shape [${info.shape.map((d) => (d === -1 ? 'None' : d)).join(', ')}], got [${t.shape.join(', ')}]`);
    });
    const ordered = new Array<Tensor>(inputs.length);
    this.feedOrder.forEach((k, i) => { ordered[k] = inputs[i]; });
    this.signatures.add(sigOf(inputs));
    try {
      return this.exe.run(ordered, this.bound);
    } catch (e) {
      // A model whose shapes only hold for some inputs fails here: say which model.
      if (e instanceof Error && !e.message.startsWith(`${this.file}:`)) e.message = `${this.file}: ${e.message}`;
      throw e;
    }
  }

  /** Per-instruction timing of the plan for these inputs over `runs` runs (Executable.profile). */
  profile(inputs: readonly Tensor[], runs = 10): PlanProfile {
    const ordered = new Array<Tensor>(inputs.length);
    this.feedOrder.forEach((k, i) => { ordered[k] = inputs[i]; });
    return this.exe.profile(ordered, runs, this.bound);
  }

  forward(...inputs: Tensor[]): Tensor | Tensor[] {
    const outs = this.run(inputs);
    return outs.length === 1 ? outs[0] : outs;
  }
  call(...inputs: Tensor[]): Tensor | Tensor[] { return this.forward(...inputs); }
  /** Accepted for compatibility: a loaded model only does inference. */
  eval(): this { this.training = false; return this; }
  train(): this { throw new Error(`${this.file}: a loaded inference model cannot be trained (paddle.jit.load gives an inference program)`); }
  /** The program text. */
  program(): PirProgram { return this.model.program; }

  dispose(): void {
    this.exe.dispose();
    for (const t of this.bound) t.dispose();
  }
}

/**
 * Loads a model saved by paddle.jit.save (`path` is the prefix given to save, or the .pir file),
 * or a Paddle 2.x inference model (`prefix` of / the `.pdmodel` file, with its `.pdiparams`).
 * @example const layer = paddle.jit.load('/tmp/lenet'); const y = layer.call(x);
 */
export function load(path: string): TranslatedLayer {
  if (typeof path !== 'string' || !path) throw new TypeError('paddle.jit.load: path must be a non-empty string');
  const m = readModel(path);
  return new TranslatedLayer(m, resolveModelFiles(path).file);
}
