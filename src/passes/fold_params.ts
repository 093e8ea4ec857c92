// Compile-time evaluation of parameter-only computations (Paddle's inference
// constant_folding_pass over persistable values): given the parameter values (a scope lookup),
// a pure registry op whose operands are all constants or bound parameters is evaluated with
// its own kernel and replaced by a new builtin.constant. The parameters themselves are never
// written, and stay in the program while other ops use them (DCE drops them otherwise).
// fold_conv_bn evaluates its weight transform with it; foldParametersPass (pass_manager.ts)
// applies it to a whole program.
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
import { type ParamLookup, parameterName, staticShape } from './param_values.js';
import { constantData } from './constant_fold.js';
import type { RewritePattern } from './rewriter.js';

export interface FoldParamsOptions {
  /** Largest number of elements of any input or output (default 1 << 22: a folded weight is stored in the IR). */
  maxElements?: number;
  /**
   * Where large results go (more than LARGE_RESULT elements). Given, the folded tensor is handed
   * over (the callee owns it) and becomes a builtin.parameter of the returned name, so weights
   * never round-trip through JS number arrays or the IR text (a folded ResNet-50 is 25M floats);
   * without it, every result becomes a builtin.constant.
   */
  bind?: (t: Tensor) => string;
}

const LARGE_RESULT = 64;

const numel = (s: number[]): number => s.reduce((a, b) => a * b, 1);

/** The tensor of a constant or bound parameter operand (owned: true when made here), or null. */
function operandTensor(v: Value, params: ParamLookup): { t: Tensor; owned: boolean } | null {
  const name = parameterName(v);
  if (name !== null) {
    const t = params(name);
    const ty = v.type as TensorType;
    if (!t || t.dtype !== ty.dtype || t.shape.join() !== (ty.shape as number[]).join()) return null;
    return { t, owned: false };
  }
  const data = constantData(v);
  const shape = staticShape(v);
  if (!data || !shape) return null;
  const dt = (v.type as TensorType).dtype;
  return { t: new Tensor(native.fromBytes(DTYPE_CODE[dt], shape, encodeValues(data, dt)), dt, shape), owned: true };
}

function toConstant(b: { create: (n: string, ins: Value[], attrs: [string, Attribute][], types: TensorType[]) => Operation }, data: number[], type: TensorType): Value | null {
  if (!isFloating(type.dtype) && !data.every((x) => Number.isSafeInteger(x))) return null;
  const splat = data.length > 0 && data.every((x) => Object.is(x, data[0]));
  const value = isFloating(type.dtype) ? (splat ? Attr.float(data[0]) : Attr.floats(data)) : type.dtype === 'bool' ? (splat ? Attr.bool(data[0] !== 0) : Attr.ints(data.map((x) => (x ? 1 : 0)))) : (splat ? Attr.int(data[0]) : Attr.ints(data));
  return b.create('builtin.constant', [], [['value', value]], [type]).result(0);
}

export function foldParametersPattern(params: ParamLookup, opts: FoldParamsOptions = {}): RewritePattern {
  const max = opts.maxElements ?? 1 << 22;
  return {
    name: 'fold_parameters',
    benefit: 0,
    matchAndRewrite(op, rw) {
      const def = op.def;
      if (!def || op.name !== `${PD}.${def.name}` || !op.hasTrait(Pure) || op.hasTrait(Random) || op.regions.length || hasListOutput(def)) return false;
      if (op.results.some((r) => { const s = staticShape(r); return !s || numel(s) > max; })) return false;
      let flat: (Value | null)[];
      try { flat = flatInputs(op); } catch { return false; }
      // Constants alone are folded too: a transform's later steps read its earlier, folded ones.
      if (!flat.some((v) => v)) return false;
      const ins: ({ t: Tensor; owned: boolean } | null)[] = [];
      try {
        for (const v of flat) {
          if (!v) { ins.push(null); continue; }
          const s = staticShape(v);
          const got = s && numel(s) <= max ? operandTensor(v, params) : null;
          if (!got) return false;
          ins.push(got);
        }
        const rec = setStaticRecorder(null), ag = setAutogradHook(null);
        let outs: Tensor[] = [];
        let data: (number[] | null)[];
        // Results handed to opts.bind (kept alive) vs read back as constants (disposed below).
        const keep = new Set<Tensor>();
        try {
          outs = runOpDef(def, ins.map((x) => x?.t ?? null), pdAttrs(op)) as Tensor[];
          data = outs.map((o) => {
            if (opts.bind && o.size > LARGE_RESULT && !ins.some((x) => x?.t === o)) { keep.add(o); return null; }
            return o.dataSync().map(Number);
          });
        } catch {
          keep.clear();
          return false;  // the kernel refuses: leave the op for run time to report
        } finally {
          setStaticRecorder(rec); setAutogradHook(ag);
          for (const o of outs) if (!keep.has(o) && !ins.some((x) => x?.t === o)) o.dispose();
        }
        const made: Value[] = [];
        for (let i = 0; i < op.numResults; i++) {
          const type = op.results[i].type as TensorType;
          const d = data[i];
          const c = d ? toConstant(rw, d, type) : rw.create('builtin.parameter', [], [['parameter_name', Attr.str(opts.bind!(outs[i]))]], [type]).result(0);
          if (!c) { for (const v of made.reverse()) rw.eraseOp(v.definingOp!); return false; }
          made.push(c);
        }
        rw.replaceOp(op, made);
        return true;
      } finally {
        for (const x of ins) if (x?.owned) x.t.dispose();
      }
    },
  };
}
