// Paddle 2.x inference models: `.pdmodel` (a serialized ProgramDesc) + `.pdiparams` (the
// combined parameter stream) -> a Skiff InferenceModel (PIR program + parameter tensors), as
// Paddle 2.6's ProgramTranslator turns a ProgramDesc into PIR:
//   - feed ops become pd_op.data inputs, in `col` order; fetch ops the outputs, in `col` order;
//   - persistable variables of block 0 (not feed/fetch/raw) are the parameters, read from the
//     parameter file in name-sorted order (what save_inference_model writes and Paddle's
//     load_combine reads), each checked against its VarDesc dtype and dims;
//   - every other op of block 0 goes through the translation table (ops_nn.ts, ops_tensor.ts),
//     which calls Skiff registry ops inside a paddle.static program, so inference goes through
//     the same pruning / folding / verification as paddle.jit.save (buildInferenceModel).
// The file is untrusted: decoding errors, missing or cyclic definitions, unknown ops, bad
// attributes and parameter mismatches all raise a ModelFileError naming the file, the block,
// the op index and type.
import type { TensorLike } from '../../ops/dispatch.js';
import { Attr, type Value } from '../../pir/index.js';
import { data } from '../../static/api.js';
import { program_guard } from '../../static/mode.js';
import { Program } from '../../static/program.js';
import type { DType } from '../../tensor/dtype.js';
import { scope, Tensor, untracked } from '../../tensor/tensor.js';
import { decodePdiparams, ModelFileError, type ParamSpec } from '../pdiparams.js';
import { checkValueSizes } from '../limits.js';
import { buildInferenceModel, type InferenceModel, type TensorInfo } from '../save.js';
import { attrValue, dtypeOfVarType, OpCtx, type Translator } from './context.js';
import { NN_OPS } from './ops_nn.js';
import { TENSOR_OPS } from './ops_tensor.js';
import { decodeProgramDesc, type PdOpDesc, type PdProgramDesc, PdVarType, type PdVarDesc } from './schema.js';

/** Legacy op type -> translator. */
export const PDMODEL_OPS: Readonly<Record<string, Translator>> = { ...NN_OPS, ...TENSOR_OPS };
/** Legacy op types the importer translates (sorted; docs/jit.md lists them). */
export const supportedPdmodelOps = (): string[] => Object.keys(PDMODEL_OPS).sort();

const CONTROL_FLOW = new Set(['conditional_block', 'conditional_block_infer', 'while', 'select_input', 'select_output', 'recurrent', 'pylayer']);
const MAX_MODEL_BYTES = 256 << 20;
const MAX_RANK = 64;
// Program versions: 0 (unversioned builds) or a Paddle release as MAJOR*1e6 + MINOR*1e3 + PATCH.
const MAX_PROGRAM_VERSION = 3_999_999;

const bytewise = (a: string, b: string): number => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

/** A tensor VarDesc's dtype and dims (-1 dims as -1), or an error message. */
function tensorOf(v: PdVarDesc): { dtype: DType; dims: number[] } | string {
  const t = v.type?.lod_tensor?.tensor;
  if (v.type?.type !== PdVarType.LOD_TENSOR || !t) return `variable '${v.name}' is not a dense tensor (VarType ${v.type?.type})`;
  const dt = dtypeOfVarType(t.data_type);
  if (dt.includes(' ')) return `variable '${v.name}': ${dt}`;
  const dims = t.dims ?? [];
  if (dims.length > MAX_RANK) return `variable '${v.name}' has rank ${dims.length}`;
  if (!dims.every((d) => Number.isSafeInteger(d) && d >= -1 && d <= 2 ** 40)) return `variable '${v.name}' has bad dims [${dims.join(', ')}]`;
  return { dtype: dt as DType, dims };
}

function checkVersion(p: PdProgramDesc, file: string): void {
  const v = p.version?.version ?? 0;
  if (!Number.isSafeInteger(v) || v < 0 || v > MAX_PROGRAM_VERSION || (v > 0 && v < 1_000_000)) {
    throw new ModelFileError(`${file}: ProgramDesc version ${v} is not supported (this reader takes Paddle 1.x-3.x programs: 0 or MAJOR*1000000+MINOR*1000+PATCH)`);
  }
}

/** The parsed pieces of a ProgramDesc's block 0 the importer needs. */
interface Plan {
  vars: Map<string, PdVarDesc>;
  feeds: TensorInfo[];
  fetches: string[];
  params: ParamSpec[];
  ops: { op: PdOpDesc; index: number }[];
}

function planOf(p: PdProgramDesc, file: string): Plan {
  const bad = (msg: string): never => { throw new ModelFileError(`${file}: ${msg}`); };
  const blocks = p.blocks ?? [];
  if (!blocks.length) bad('the ProgramDesc has no blocks');
  const b0 = blocks[0];
  if (b0.idx !== 0) bad(`the first block has idx ${b0.idx}, expected 0`);
  const vars = new Map<string, PdVarDesc>();
  for (const v of b0.vars ?? []) {
    if (!v.name) bad('block 0 has a variable with an empty name');
    if (vars.has(v.name)) bad(`block 0 declares variable '${v.name}' twice`);
    vars.set(v.name, v);
  }
  const feeds: { col: number; info: TensorInfo }[] = [];
  const fetches: { col: number; name: string }[] = [];
  const ops: { op: PdOpDesc; index: number }[] = [];
  const where = (i: number, op: PdOpDesc) => `block 0 op ${i} '${op.type}'`;
  (b0.ops ?? []).forEach((op, i) => {
    const colAttr = op.attrs?.find((a) => a.name === 'col');
    const col = colAttr ? attrValue(colAttr) : -1;
    if (op.type === 'feed' || op.type === 'fetch') {
      const slot = op.type === 'feed' ? op.outputs : op.inputs;
      const names = slot?.find((s) => s.parameter === (op.type === 'feed' ? 'Out' : 'X'))?.arguments ?? [];
      if (names.length !== 1) bad(`${where(i, op)} must name one variable, got ${names.length}`);
      if (typeof col !== 'number' || !Number.isSafeInteger(col) || col < 0) bad(`${where(i, op)} has no valid 'col' attribute`);
      if (op.type === 'fetch') { fetches.push({ col: col as number, name: names[0] }); return; }
      const v = vars.get(names[0]);
      if (!v) bad(`${where(i, op)} feeds '${names[0]}', which block 0 does not declare`);
      const t = tensorOf(v!);
      if (typeof t === 'string') bad(`${where(i, op)}: ${t}`);
      const { dtype, dims } = t as { dtype: DType; dims: number[] };
      feeds.push({ col: col as number, info: { name: names[0], dtype, shape: dims } });
      return;
    }
    ops.push({ op, index: i });
  });
  const ordered = <T extends { col: number }>(xs: T[], what: string): T[] => {
    xs.sort((a, b) => a.col - b.col);
    xs.forEach((x, k) => { if (x.col !== k) bad(`${what} columns are not 0..${xs.length - 1} (got ${xs.map((y) => y.col).join(', ')})`); });
    return xs;
  };
  if (!fetches.length) bad('the program has no fetch ops (no outputs)');
  const skip = new Set<number>([PdVarType.FEED_MINIBATCH, PdVarType.FETCH_LIST, 17 /* RAW */]);
  const params: ParamSpec[] = [];
  for (const v of [...vars.values()].filter((x) => x.persistable && !skip.has(x.type?.type)).sort((a, b) => bytewise(a.name, b.name))) {
    const t = tensorOf(v);
    if (typeof t === 'string') bad(`parameter ${t}`);
    const { dtype, dims } = t as { dtype: DType; dims: number[] };
    if (dims.some((d) => d < 0)) bad(`parameter '${v.name}' has an unknown dim [${dims.join(', ')}]`);
    params.push({ name: v.name, dtype, shape: dims });
  }
  return { vars, feeds: ordered(feeds, 'feed').map((f) => f.info), fetches: ordered(fetches, 'fetch').map((f) => f.name), params, ops };
}

/**
 * Translates a ProgramDesc (bytes of `file`) with its parameter stream (bytes of `pfile`, read
 * lazily after the program checks out) into an inference model.
 */
export function importPdmodel(bytes: Uint8Array, paramBytes: Uint8Array | (() => Uint8Array), file: string, pfile: string): InferenceModel {
  if (bytes.length > MAX_MODEL_BYTES) throw new ModelFileError(`${file}: ${bytes.length} bytes is more than a model program may have`);
  let desc: PdProgramDesc;
  try {
    desc = decodeProgramDesc(bytes);
  } catch (e) {
    throw new ModelFileError(`${file}: not a Paddle ProgramDesc (protobuf decoding failed: ${(e as Error).message})`);
  }
  checkVersion(desc, file);
  const plan = planOf(desc, file);
  for (const { op, index } of plan.ops) {
    if (CONTROL_FLOW.has(op.type)) throw new ModelFileError(`${file}: block 0 op ${index} '${op.type}': control flow (sub-blocks) is not supported by the .pdmodel importer`);
    if (!Object.hasOwn(PDMODEL_OPS, op.type)) {
      throw new ModelFileError(`${file}: block 0 op ${index} '${op.type}' is not supported by the .pdmodel importer (supported: ${supportedPdmodelOps().join(', ')})`);
    }
  }
  const pbytes = typeof paramBytes === 'function' ? paramBytes() : paramBytes;
  // The reader checks each tensor's dtype and dims against its VarDesc, and its size against the
  // bytes left, before allocating (VarDesc dims are safe integers, so sizes are never NaN).
  const params = untracked(() => decodePdiparams(pbytes, plan.params, pfile));
  params.forEach((t, i) => { t.name = plan.params[i].name; });
  const prog = new Program();
  try {
    // Ops on parameters alone run eagerly while translating; the scope frees those temporaries
    // (the program holds its own views of what it captured), on failure too.
    const built = scope(() => {
      try { return { ok: program_guard(prog, () => build(prog, plan, params, file)) }; } catch (e) { return { err: e }; }
    });
    if (!built.ok) throw built.err;
    const { feeds, outputs } = built.ok;
    // before the inference pipeline folds (evaluates) anything, no value may be huge
    checkValueSizes(prog.pir, file);
    const m = buildInferenceModel(prog, feeds, outputs, () => undefined, file);
    return renameOutputs(m, plan.fetches);
  } catch (e) {
    if (e instanceof ModelFileError) throw e;
    throw new ModelFileError(`${file}: ${(e as Error).message}`);
  } finally {
    prog.dispose();
    for (const t of params) t.dispose();
  }
}

function build(prog: Program, plan: Plan, params: Tensor[], file: string): { feeds: Value[]; outputs: Value[] } {
  const values = new Map<string, TensorLike>();
  plan.params.forEach((s, i) => values.set(s.name, params[i]));
  const feeds = plan.feeds.map((f) => {
    const v = data(f.name, f.shape.map((d) => (d === -1 ? null : d)), f.dtype);
    values.set(f.name, v);
    return v;
  });
  for (const { op, index } of plan.ops) {
    try {
      PDMODEL_OPS[op.type](new OpCtx(op, values));
    } catch (e) {
      throw new ModelFileError(`${file}: block 0 op ${index} '${op.type}': ${(e as Error).message}`);
    }
  }
  const outputs = plan.fetches.map((n, i) => {
    const v = values.get(n);
    if (!v) throw new ModelFileError(`${file}: fetch ${i} reads variable '${n}', which no op, feed or parameter defines`);
    // an output computed from parameters alone is a tensor already: it becomes a program value
    return v instanceof Tensor ? prog.lift(v) : (v as Value);
  });
  return { feeds, outputs };
}

/** Outputs take their fetch variable names (Paddle's predictor reports those), when unique. */
function renameOutputs(m: InferenceModel, names: readonly string[]): InferenceModel {
  if (new Set(names).size !== names.length) return m;
  const fetchOps = m.program.block.ops.filter((o) => o.name === 'pd_op.fetch');
  fetchOps.forEach((o, i) => o.setAttr('name', Attr.str(names[i])));
  const outputs = m.header.outputs.map((o, i) => ({ ...o, name: names[i] }));
  return { ...m, header: { ...m.header, outputs } };
}
