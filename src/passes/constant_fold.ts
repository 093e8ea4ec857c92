// Constant folding: a pd op whose operands are all compile-time constants (builtin.constant, or
// lists of them) is evaluated now, with the op registry's own native kernel through runOpDef,
// and replaced by a builtin.constant. Written as a RewritePattern so the greedy driver folds
// chains (constants feed constants) in one pass.
//
// Not folded: random ops (they advance the generator), inplace and non-registry ops, ops with
// regions, symbolic or unknown shapes, list outputs, and anything whose inputs or outputs hold
// more than `maxElements` elements (a splat output is kept as one number, any size within the
// bound; a dense one is stored in the IR, so the bound keeps programs small).
import { native } from '../native.js';
import { Attr, type Attribute } from '../pir/attributes.js';
import { runOpDef, setAutogradHook, setStaticRecorder } from '../ops/dispatch.js';
import type { Operation, Value } from '../pir/core.js';
import { flatInputs, hasListOutput, pdAttrs, PD } from '../pir/dialects/pd_op.js';
import { Pure, Random } from '../pir/opkind.js';
import type { TensorType } from '../pir/types.js';
import { DTYPE_CODE, isFloating } from '../tensor/dtype.js';
import { encodeValues } from '../tensor/creation.js';
import { Tensor } from '../tensor/tensor.js';
import type { PatternRewriter, RewritePattern } from './rewriter.js';

export interface ConstantFoldOptions {
  /** Largest number of elements of any input or output (default 4096). */
  maxElements?: number;
}

const numel = (t: TensorType): number => (t.shape as number[]).reduce((a, b) => a * b, 1);
const staticTensor = (v: Value | null): TensorType | null => (v && v.type.kind === 'tensor' && v.type.isStatic ? v.type : null);

/** The data of a builtin.constant result (splats expanded), or null when v is not one. */
export function constantData(v: Value): number[] | null {
  const d = v.definingOp;
  const t = staticTensor(v);
  if (d?.name !== 'builtin.constant' || !t) return null;
  const a = d.attr('value');
  const n = numel(t);
  if (a?.kind === 'int' || a?.kind === 'float') return new Array<number>(n).fill(a.value);
  if (a?.kind === 'bool') return new Array<number>(n).fill(a.value ? 1 : 0);
  if (a?.kind === 'ints' || a?.kind === 'floats') return [...a.value];
  return null;
}

/** Why `op` cannot be folded, or null when it can (inputs are constants within the bound). */
function foldBlocker(op: Operation, max: number): string | null {
  const def = op.def;
  if (!def || op.name !== `${PD}.${def.name}`) return 'not a functional registry op';
  if (!op.hasTrait(Pure) || op.hasTrait(Random) || op.regions.length) return 'has effects';
  if (hasListOutput(def)) return 'list output';
  for (const r of op.results) { const t = staticTensor(r); if (!t || numel(t) > max) return 'result too large or not static'; }
  let flat: (Value | null)[];
  try { flat = flatInputs(op); } catch { return 'bad list operand'; }
  for (const v of flat) {
    if (!v) continue;
    const t = staticTensor(v);
    if (!t || v.definingOp?.name !== 'builtin.constant' || numel(t) > max) return 'operand not a small constant';
  }
  return null;
}

function toTensor(v: Value): Tensor {
  const t = v.type as TensorType;
  const shape = t.shape as number[];
  return new Tensor(native.fromBytes(DTYPE_CODE[t.dtype], shape, encodeValues(constantData(v)!, t.dtype)), t.dtype, [...shape]);
}

/** Evaluates op on its constant operands; one flat data array per result, or null if it fails. */
export function evaluateOp(op: Operation): number[][] | null {
  const def = op.def!;
  const ins = flatInputs(op).map((v) => (v ? toTensor(v) : null));
  // Evaluation is eager even while a program is being recorded or gradients are taped.
  const rec = setStaticRecorder(null), ag = setAutogradHook(null);
  let outs: Tensor[] = [];
  try {
    outs = runOpDef(def, ins, pdAttrs(op)) as Tensor[];
    return outs.map((o) => o.dataSync().map(Number));
  } catch {
    return null;  // the kernel refuses these inputs: leave the op for run time to report
  } finally {
    setStaticRecorder(rec);
    setAutogradHook(ag);
    for (const t of ins) t?.dispose();
    for (const t of outs) if (!ins.includes(t)) t.dispose();
  }
}

/**
 * The builtin.constant for `data` of `type`: a splat when every element is equal; float dtypes
 * get float attributes (so `2.0` prints as a float). Null when an integer is not exact in a double.
 */
function makeConstant(rw: PatternRewriter, data: number[], type: TensorType): Value | null {
  const splat = data.length > 0 && data.every((x) => Object.is(x, data[0]));
  let value: Attribute;
  if (type.dtype === 'bool') value = splat ? Attr.bool(data[0] !== 0) : Attr.ints(data.map((x) => (x ? 1 : 0)));
  else if (isFloating(type.dtype)) value = splat ? Attr.float(data[0]) : Attr.floats(data);
  else if (data.every((x) => Number.isSafeInteger(x))) value = splat ? Attr.int(data[0]) : Attr.ints(data);
  else return null;
  return rw.create('builtin.constant', [], [['value', value]], [type]).result(0);
}

export function constantFoldPattern(opts: ConstantFoldOptions = {}): RewritePattern {
  const max = opts.maxElements ?? 4096;
  return {
    name: 'constant_fold',
    benefit: 0,  // after the named patterns: canonicalizing first is cheaper than evaluating
    matchAndRewrite(op, rw) {
      if (foldBlocker(op, max)) return false;
      const data = evaluateOp(op);
      if (!data) return false;
      const made: Value[] = [];
      for (let i = 0; i < op.numResults; i++) {
        const c = makeConstant(rw, data[i], op.results[i].type as TensorType);
        if (!c) { for (const v of made.reverse()) rw.eraseOp(v.definingOp!); return false; }
        made.push(c);
      }
      rw.replaceOp(op, made);
      return true;
    },
  };
}
