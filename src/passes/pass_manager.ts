// Passes, named pipelines and the pass manager (Paddle PIR's PassManager, MLIR's OpPassManager).
// A Pass transforms a Program in place and says how many rewrites it made; the manager runs a
// list of them, records per-pass statistics (ops before/after, rewrites, time), and in checking
// mode verifies the program before the first pass and after every pass, so a broken IR is
// blamed on the pass that produced it.
import type { Program } from '../pir/core.js';
import { isVerifyMode, PirVerifyError, verifyProgram } from '../pir/verify.js';
import { canonicalizePatterns } from './canonicalize.js';
import { constantFoldPattern, type ConstantFoldOptions } from './constant_fold.js';
import { eliminateCommonSubexpressions } from './cse.js';
import { eliminateDeadCode } from './dce.js';
import { fuseGemmPatterns } from './fuse_gemm.js';
import { fuseConvActPatterns } from './fuse_conv_act.js';
import { fuseAttentionPatterns } from './fuse_attention.js';
import { type FoldConvBnOptions, foldConvBnPatterns } from './fold_conv_bn.js';
import { type FoldParamsOptions, foldParametersPattern } from './fold_params.js';
import type { ParamLookup } from './param_values.js';
import { fuseLayerNormPatterns, residualLayerNormPattern } from './fuse_layer_norm.js';
import { fuseSoftmaxMaskPatterns, type SoftmaxMaskOptions } from './fuse_softmax_mask.js';
import { fuseDropoutAddPatterns, fuseLinearGradPatterns } from './fuse_training.js';
import { applyPatternsGreedily, FrozenPatternSet, type GreedyOptions } from './greedy.js';
import type { RewritePattern } from './rewriter.js';

export interface Pass {
  readonly name: string;
  /** Transforms `program` in place; returns the number of rewrites (0: unchanged). */
  run(program: Program): number;
}

export interface PassStat {
  readonly pass: string;
  readonly opsBefore: number;
  readonly opsAfter: number;
  readonly rewrites: number;
  readonly ms: number;
}

/** A pass failed, or (checking mode) left the program invalid; `pass` names it. */
export class PassError extends Error {
  override name = 'PassError';
  constructor(readonly pass: string, message: string, override readonly cause?: unknown) { super(message); }
}

// ---- pass constructors ----

/** A pass applying `patterns` with the greedy driver to a fixed point. */
export function patternPass(name: string, patterns: readonly RewritePattern[], opts: GreedyOptions = {}): Pass {
  const set = new FrozenPatternSet(patterns);
  return { name, run: (p) => { const r = applyPatternsGreedily(p, set, opts); return r.rewrites + r.erasedDead; } };
}
export const canonicalizePass = (opts?: GreedyOptions): Pass => patternPass('canonicalize', canonicalizePatterns(), opts);
export const constantFoldPass = (opts: ConstantFoldOptions & GreedyOptions = {}): Pass => patternPass('constant_fold', [constantFoldPattern(opts)], opts);
export const fuseGemmPass = (opts?: GreedyOptions): Pass => patternPass('fuse_gemm_epilogue', fuseGemmPatterns(), opts);
export const fuseConvActPass = (opts?: GreedyOptions): Pass => patternPass('fuse_conv_act', fuseConvActPatterns(), opts);
export const fuseDropoutAddPass = (opts?: GreedyOptions): Pass => patternPass('fuse_dropout_add', fuseDropoutAddPatterns(), opts);
export const fuseLinearGradPass = (opts?: GreedyOptions): Pass => patternPass('fuse_linear_param_grad_add', fuseLinearGradPatterns(), opts);
export const fuseSoftmaxMaskPass = (opts: SoftmaxMaskOptions & GreedyOptions = {}): Pass => patternPass('fuse_softmax_mask', fuseSoftmaxMaskPatterns(opts), opts);
export const foldConvBnPass = (opts: FoldConvBnOptions & GreedyOptions = {}): Pass => patternPass('fold_conv_bn', foldConvBnPatterns(opts), opts);
/** Parameter-only computations evaluated with the given parameter values into new constants. */
export const foldParametersPass = (params: ParamLookup, opts: FoldParamsOptions & GreedyOptions = {}): Pass => patternPass('fold_parameters', [foldParametersPattern(params, opts)], opts);
export const fuseLayerNormPass = (opts?: GreedyOptions): Pass => patternPass('fuse_layer_norm', fuseLayerNormPatterns(), opts);
export const fuseResidualLayerNormPass = (opts?: GreedyOptions): Pass => patternPass('fuse_residual_layer_norm', [residualLayerNormPattern], opts);
export const fuseAttentionPass = (opts?: GreedyOptions): Pass => patternPass('fuse_attention', fuseAttentionPatterns(), opts);
export const csePass = (): Pass => ({ name: 'cse', run: eliminateCommonSubexpressions });
export const dcePass = (): Pass => ({ name: 'dce', run: eliminateDeadCode });

const passFactories = new Map<string, () => Pass>([
  ['canonicalize', () => canonicalizePass()],
  ['constant_fold', () => constantFoldPass()],
  ['fuse_gemm_epilogue', () => fuseGemmPass()],
  ['fuse_conv_act', () => fuseConvActPass()],
  ['fuse_dropout_add', () => fuseDropoutAddPass()],
  ['fuse_linear_param_grad_add', () => fuseLinearGradPass()],
  ['fuse_softmax_mask', () => fuseSoftmaxMaskPass()],
  ['fold_conv_bn', () => foldConvBnPass()],
  ['fuse_layer_norm', () => fuseLayerNormPass()],
  ['fuse_residual_layer_norm', () => fuseResidualLayerNormPass()],
  ['fuse_attention', () => fuseAttentionPass()],
  ['cse', csePass],
  ['dce', dcePass],
]);
/** Makes a pass known by name (for pipelines). */
export function registerPass(name: string, make: () => Pass): void {
  if (passFactories.has(name)) throw new Error(`pass '${name}' is registered twice`);
  passFactories.set(name, make);
}
export function createPass(name: string): Pass {
  const f = passFactories.get(name);
  if (!f) throw new Error(`unknown pass '${name}' (known: ${[...passFactories.keys()].join(', ')})`);
  return f();
}

// `inference`: conv+bn folding first (its weight transform then meets constant folding), the
// layer_norm, causal-softmax and attention fusions before canonicalize (which cancels the
// transposes attention fusion leaves), then the gemm epilogue and conv + activation (after
// fold_conv_bn has removed the batch_norm between them). `training` keeps the fusions
// whose ops differentiate and fit training programs (no conv+bn folding: batch_norm trains on
// batch statistics; no gemm epilogue or attention, so the forward keeps the ops whose
// intermediates the backward reads), plus the training-only dropout+add and weight-gradient
// accumulation fusions.
const pipelines = new Map<string, readonly string[]>([
  ['inference', ['canonicalize', 'fold_conv_bn', 'constant_fold', 'canonicalize', 'fuse_layer_norm', 'fuse_residual_layer_norm', 'fuse_softmax_mask',
    'fuse_attention', 'canonicalize', 'fuse_gemm_epilogue', 'fuse_conv_act', 'cse', 'dce']],
  ['training', ['canonicalize', 'constant_fold', 'canonicalize', 'fuse_layer_norm', 'fuse_softmax_mask', 'fuse_dropout_add',
    'fuse_linear_param_grad_add', 'cse', 'dce']],
]);
export function registerPipeline(name: string, passes: readonly string[]): void {
  if (pipelines.has(name)) throw new Error(`pipeline '${name}' is registered twice`);
  pipelines.set(name, [...passes]);
}
export const pipelineNames = (): string[] => [...pipelines.keys()];
export function pipelinePasses(name: string): readonly string[] {
  const l = pipelines.get(name);
  if (!l) throw new Error(`unknown pipeline '${name}' (known: ${[...pipelines.keys()].join(', ')})`);
  return l;
}

// ---- the manager ----

export interface PassManagerOptions {
  /** Verify before the first pass and after each one (default: checking mode, SKIFF_PIR_VERIFY=1). */
  verify?: boolean;
}

export class PassManager {
  readonly passes: Pass[] = [];
  /** Statistics of the last run. */
  stats: PassStat[] = [];
  constructor(passes: readonly (Pass | string)[] = [], readonly opts: PassManagerOptions = {}) {
    for (const p of passes) this.add(p);
  }
  /** The manager for a named pipeline (`inference`, `training`). */
  static pipeline(name: string, opts: PassManagerOptions = {}): PassManager { return new PassManager(pipelinePasses(name), opts); }

  add(p: Pass | string): this { this.passes.push(typeof p === 'string' ? createPass(p) : p); return this; }

  /** Runs every pass in order on `program` (in place); returns the per-pass statistics. */
  run(program: Program): PassStat[] {
    const check = this.opts.verify ?? isVerifyMode();
    this.stats = [];
    if (check) this.check(program, null);
    for (const pass of this.passes) {
      const opsBefore = program.allOps().length;
      const t0 = performance.now();
      let rewrites: number;
      try {
        rewrites = pass.run(program);
      } catch (e) {
        const msg = e instanceof Error ? e.message : String(e);
        throw new PassError(pass.name, `pass '${pass.name}' failed: ${msg}`, e);
      }
      this.stats.push({ pass: pass.name, opsBefore, opsAfter: program.allOps().length, rewrites, ms: performance.now() - t0 });
      if (check) this.check(program, pass.name);
    }
    return this.stats;
  }

  private check(program: Program, pass: string | null): void {
    const issues = verifyProgram(program);
    if (!issues.length) return;
    const err = new PirVerifyError(issues, pass ? `after pass '${pass}'` : 'before the first pass');
    throw new PassError(pass ?? '<input>', pass ? `pass '${pass}' broke the IR: ${err.message}` : `the input program is invalid: ${err.message}`, err);
  }
}

/** Runs the named pipeline on `program`; returns its statistics. */
export function runPipeline(program: Program, name: string, opts: PassManagerOptions = {}): PassStat[] {
  return PassManager.pipeline(name, opts).run(program);
}

/** The statistics as a fixed-width table (for logs and benches). */
export function formatPassStats(stats: readonly PassStat[]): string {
  const rows = stats.map((s) => `${s.pass.padEnd(20)} ${String(s.opsBefore).padStart(6)} -> ${String(s.opsAfter).padEnd(6)} ${String(s.rewrites).padStart(6)} ${s.ms.toFixed(2).padStart(9)} ms`);
  return [`${'pass'.padEnd(20)} ${'ops before -> after'.padEnd(16)} rewrites      time`, ...rows].join('\n');
}
