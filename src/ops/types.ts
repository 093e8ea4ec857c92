// The shape of an op definition. One file per op (or small family) in src/ops/defs/ exports
// OpDefs; everything else (TS API, Tensor methods, Python API, PIR pd_op dialect) is derived.
import type { DType } from '../tensor/dtype.js';
import type { Shape } from '../tensor/shape.js';
import type { GradOps } from './grad_kit.js';

export interface TensorMeta { readonly dtype: DType; readonly shape: Shape }

export type AttrType =
  | 'int' | 'float' | 'bool' | 'str' | 'dtype'
  | 'int[]' | 'float[]'
  | 'scalar';  // a number that takes the dtype of the op (e.g. full's fill value)
export type AttrValue = number | boolean | string | readonly number[] | null;
export type Attrs = Readonly<Record<string, AttrValue>>;

export interface AttrSpec {
  readonly name: string;
  readonly type: AttrType;
  /** undefined: required. null: optional with no value (e.g. axis=None). */
  readonly default?: AttrValue;
}

export interface InputSpec {
  readonly name: string;
  /** A list of tensors (concat, stack, add_n). At most one variadic input per op. */
  readonly variadic?: boolean;
  readonly optional?: boolean;
}

/** Where a view op's result lives in its input's storage (element strides and offset). */
export interface ViewSpec { readonly shape: number[]; readonly strides: number[]; readonly offset: number }
export interface StridedMeta extends TensorMeta { readonly shape: readonly number[]; readonly strides: readonly number[]; readonly offset: number }

/** Gradient context handed to an op's grad rule (filled by src/autograd; issue 7). */
export interface GradContext<T> {
  readonly inputs: readonly (T | null)[];
  readonly outputs: readonly T[];
  readonly outGrads: readonly (T | null)[];
  readonly attrs: Attrs;
  /** Which inputs want a gradient (rules may skip the others' work and return null for them). */
  readonly needsGrad: readonly boolean[];
}

export interface OpDef {
  /** Paddle's op name, verbatim; its PIR op is `pd_op.<name>`. */
  readonly name: string;
  readonly inputs: readonly InputSpec[];
  readonly attrs: readonly AttrSpec[];
  readonly outputs: readonly string[];
  /** Output dtypes and shapes from input metas (dims may be symbols) and attributes. Throws ShapeError/TypeError naming the op. */
  infer(ins: readonly TensorMeta[], attrs: Attrs): TensorMeta[];
  /** Native kernel name (defaults to `name`). Absent with `view` set: the op is a pure view. */
  readonly kernel?: string;
  /** Flat numeric attribute layout for the native kernel (defaults to attrs in declaration order). */
  encode?(attrs: Attrs, ins: readonly TensorMeta[]): number[];
  /** For ops that can alias their input: the view, or null when a copy is needed (then `kernel` runs). */
  view?(input: StridedMeta, attrs: Attrs): ViewSpec | null;
  /** Gradient rule: grads of inputs from grads of outputs, written with public ops so it serves eager and PIR autodiff. */
  grad?<T>(ctx: GradContext<T>, ops: GradOps<T>): (T | null)[];
  /**
   * Which inputs/outputs the grad rule reads the values of; it sees the others as dtype and shape
   * only, and the tape does not keep their storage alive. Absent: every input and output.
   */
  readonly gradReads?: { readonly inputs?: readonly number[]; readonly outputs?: readonly number[] };
  /**
   * The op has an inplace variant `<name>_` that returns x (input `inplaceInput`, default 0):
   * - true: the same kernel writes its output over x (it must read and write the same index; the
   *   executor also uses this to write a result over its dying input 0);
   * - 'assign': the functional result (x's shape and dtype) is copied into x's storage by
   *   set_value — for kernels that cannot alias (scans, softmax) and composites (addmm, renorm);
   * - 'rebind': x takes over the result's metadata and storage, as Paddle's inplace view ops
   *   (reshape_, squeeze_, transpose_) and dtype-changing ones (equal_, logical_and_: x becomes bool).
   */
  readonly inplace?: boolean | 'assign' | 'rebind';
  /** Which input an inplace variant writes (where_(condition, x, y) writes x). Default 0. */
  readonly inplaceInput?: number;
  /**
   * The kernel writes through a strided output (set_value). Then an inplace call on a
   * non-contiguous x writes into it directly; otherwise it runs into a temporary copied back.
   */
  readonly writesViews?: boolean;
  /** Random ops consume the generator; never CSE'd or constant-folded. */
  readonly random?: boolean;
  /**
   * Data-dependent output shapes (masked_select, nonzero, unique, bincount): `infer` gives such
   * dims as fresh symbols (`dataDim(op)` in src/ops/infer.ts), checking everything else as usual.
   * Eager dispatch passes those dims to the kernel as -1 (a placeholder output without storage);
   * the kernel validates its inputs, computes the real shape from their values and calls
   * `c.alloc_output(i, shape)` (native/src/kernel.h); dispatch then reads the shape back. So the
   * op costs one native call and no upper-bound buffer (bincount's bound is not knowable from
   * metas anyway). Graph consumers refuse such ops: the executor throws naming the op, SOT takes
   * a graph break (SOT011) so the op runs eagerly; a program being built gets the symbolic dim.
   */
  readonly dynamicShape?: boolean;
  /** Number of outputs when it depends on attributes (split, unbind). */
  numOutputs?(ins: readonly TensorMeta[], attrs: Attrs): number;
  /** Public surface; absent means `paddle.<name>` plus a Tensor method of the same name. */
  readonly api?: ApiSpec;
}

/**
 * How an op appears in the public API. Parameters are the op's inputs then its attributes, in
 * declaration order (Paddle's argument order); a trailing plain object may name any of them.
 */
export interface ApiSpec {
  /** Dotted public paths below `paddle`: 'add', 'nn.functional.relu', 'linalg.norm'. Empty: internal op. */
  readonly names?: readonly string[];
  /** Tensor method names (x.add(y)); defaults to [name] when `names` is absent. */
  readonly methods?: readonly string[];
  /** Extra accepted keyword aliases: { keep_dim: 'keepdim' }. */
  readonly aliases?: Readonly<Record<string, string>>;
  /**
   * Tensor inputs get the promoted dtype of all tensor inputs (and JS/Python scalars become
   * 0-dim tensors of it). Used by elementwise binary ops.
   */
  readonly promote?: boolean;
  /** Output index returned to users when the op has several outputs but the API returns one. */
  readonly returnOutput?: number;
  /**
   * With a variable output count (numOutputs): return a lone output as itself, several as a list
   * (max_pool2d: out, or [out, mask] with return_mask). Without it such ops always return a list (split).
   */
  readonly unwrapSingle?: boolean;
}
