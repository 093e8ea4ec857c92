// The greedy driver and the pass manager: fixed point, both caps with errors naming the
// patterns, dead-op erasure, statistics, named pipelines, and checking mode blaming the pass
// that broke the IR.
import { describe, expect, it } from 'vitest';
import { Attr, type Operation, parseProgram, type Program, setVerifyMode, tensorType } from '../../src/pir/index.js';
import {
  applyPatternsGreedily, formatPassStats, GreedyRewriteError, type Pass, PassError, PassManager, pipelinePasses, type RewritePattern,
} from '../../src/passes/index.js';

const prog = (body: string): Program => parseProgram(`{\n${body}\n}`);
const GELU = `  (%x) = "pd_op.data" () {name:"x", shape:shape[2, 3], dtype:float32} : () -> tensor<2x3xf32>
  (%g) = "pd_op.gelu" (%x) {approximate:false} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  () = "pd_op.fetch" (%g) {name:"g", col:0} : (tensor<2x3xf32>) -> ()`;

/** Flips gelu's approximate flag: never reaches a fixed point. */
const flip = (notify: boolean): RewritePattern => ({
  name: notify ? 'flip_gelu' : 'flip_gelu_silently',
  rootNames: ['pd_op.gelu'],
  matchAndRewrite(op: Operation, rw) {
    const a = op.attr('approximate');
    const set = () => op.setAttr('approximate', Attr.bool(!(a?.kind === 'bool' && a.value)));
    if (notify) rw.modifyOp(op, set); else set();
    return true;
  },
});

describe('greedy driver', () => {
  it('stops at the fixed point and reports rewrites per pattern', () => {
    const p = prog(`  (%x) = "pd_op.data" () {name:"x", shape:shape[2, 3], dtype:float32} : () -> tensor<2x3xf32>
  (%a) = "pd_op.exp" (%x) {} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  (%b) = "pd_op.exp" (%a) {} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  () = "pd_op.fetch" (%b) {name:"b", col:0} : (tensor<2x3xf32>) -> ()`);
    // exp -> relu, once per op: converges after one productive sweep and one quiet one.
    const toRelu: RewritePattern = {
      name: 'exp_to_relu', rootNames: ['pd_op.exp'],
      matchAndRewrite(op, rw) { rw.replaceOp(op, rw.pd('relu', [op.operand(0)!])); return true; },
    };
    const r = applyPatternsGreedily(p, [toRelu]);
    expect(r.rewrites).toBe(2);
    expect(r.byPattern.get('exp_to_relu')).toBe(2);
    expect(r.iterations).toBe(2);
    expect(p.allOps().map((o) => o.name)).toEqual(['pd_op.data', 'pd_op.relu', 'pd_op.relu', 'pd_op.fetch']);
  });

  it('erases ops that become dead, but not feeds or effects', () => {
    const p = prog(`  (%x) = "pd_op.data" () {name:"x", shape:shape[2], dtype:float32} : () -> tensor<2xf32>
  (%a) = "pd_op.exp" (%x) {} : (tensor<2xf32>) -> tensor<2xf32>
  (%r) = "pd_op.uniform" () {shape:i64[2], dtype:float32, min:-1.0, max:1.0, seed:0} : () -> tensor<2xf32>`);
    const r = applyPatternsGreedily(p, []);
    expect(r.erasedDead).toBe(1);
    expect(p.allOps().map((o) => o.name)).toEqual(['pd_op.data', 'pd_op.uniform']);
  });

  it('caps rewrites within a sweep (patterns that keep requeueing) with an error naming them', () => {
    const p = prog(GELU);
    expect(() => applyPatternsGreedily(p, [flip(true)], { maxRewritesPerIteration: 50 }))
      .toThrow(/did not converge: more than 50 rewrites in sweep 1 \(last patterns applied: flip_gelu/);
    expect(() => applyPatternsGreedily(p, [flip(true)])).toThrow(GreedyRewriteError);
  });

  it('caps the number of sweeps', () => {
    const p = prog(GELU);
    // Succeeds on every other call: each sweep changes the program once, then goes quiet, so
    // the sweeps (not the per-sweep cap) never reach a fixed point.
    const inner = flip(false);
    let calls = 0;
    const everyOther: RewritePattern = { ...inner, matchAndRewrite: (op, rw) => calls++ % 2 === 0 && inner.matchAndRewrite(op, rw) };
    expect(() => applyPatternsGreedily(p, [everyOther], { maxIterations: 4 }))
      .toThrow(/did not converge within 4 iterations \(4 rewrites; by pattern: flip_gelu_silently x4\)/);
  });
});

/** Breaks the IR on purpose: gives the first relu's result a wrong shape. */
const breaker: Pass = {
  name: 'broken_pass',
  run(p) {
    const relu = p.allOps().find((o) => o.name === 'pd_op.relu')!;
    relu.result(0).type = tensorType('float32', [7]);
    return 1;
  },
};

const MLP = `  (%x) = "pd_op.data" () {name:"x", shape:shape[s0, 8], dtype:float32} : () -> tensor<s0x8xf32>
  (%w) = "builtin.parameter" () {parameter_name:"w"} : () -> tensor<8x4xf32>
  (%b) = "builtin.parameter" () {parameter_name:"b"} : () -> tensor<4xf32>
  (%one) = "builtin.constant" () {value:1.0} : () -> tensor<f32>
  (%xs) = "pd_op.multiply" (%x, %one) {} : (tensor<s0x8xf32>, tensor<f32>) -> tensor<s0x8xf32>
  (%m) = "pd_op.matmul" (%xs, %w) {transpose_x:false, transpose_y:false} : (tensor<s0x8xf32>, tensor<8x4xf32>) -> tensor<s0x4xf32>
  (%h) = "pd_op.add" (%m, %b) {} : (tensor<s0x4xf32>, tensor<4xf32>) -> tensor<s0x4xf32>
  (%r) = "pd_op.relu" (%h) {} : (tensor<s0x4xf32>) -> tensor<s0x4xf32>
  () = "pd_op.fetch" (%r) {name:"out", col:0} : (tensor<s0x4xf32>) -> ()`;

describe('pass manager', () => {
  it('runs a named pipeline and records per-pass statistics', () => {
    const p = prog(MLP);
    const pm = PassManager.pipeline('inference', { verify: true });
    const stats = pm.run(p);
    expect(stats.map((s) => s.pass)).toEqual([...pipelinePasses('inference')]);
    expect(stats[0]).toMatchObject({ pass: 'canonicalize', opsBefore: 9, opsAfter: 7, rewrites: 2 });
    const fuse = stats.find((s) => s.pass === 'fuse_gemm_epilogue')!;
    expect(fuse.opsAfter).toBe(5);
    expect(fuse.rewrites).toBeGreaterThanOrEqual(2);
    for (const s of stats) expect(s.ms).toBeGreaterThanOrEqual(0);
    expect(formatPassStats(stats)).toMatch(/fuse_gemm_epilogue\s+7 -> 5/);
  });

  it('the training pipeline does not fuse (the fused op has no grad rule)', () => {
    expect(pipelinePasses('training')).not.toContain('fuse_gemm_epilogue');
    const p = prog(MLP);
    PassManager.pipeline('training').run(p);
    expect(p.allOps().map((o) => o.name)).toContain('pd_op.matmul');
    expect(p.allOps().map((o) => o.name)).not.toContain('pd_op.fused_gemm_epilogue');
  });

  it('checking mode names the pass that broke the IR', () => {
    const p = prog(MLP);
    const pm = new PassManager(['canonicalize', breaker, 'dce'], { verify: true });
    let err: unknown;
    try { pm.run(p); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(PassError);
    expect((err as PassError).pass).toBe('broken_pass');
    expect((err as Error).message).toMatch(/pass 'broken_pass' broke the IR: after pass 'broken_pass': PIR verification failed with 1 error\(s\):\n\s+op #\d+ "pd_op.relu": result 0 has type tensor<7xf32> but infer-meta gives tensor<s0x4xf32>/);
    expect(pm.stats.map((s) => s.pass)).toEqual(['canonicalize', 'broken_pass']);
  });

  it('checking mode follows SKIFF_PIR_VERIFY / setVerifyMode, and is off otherwise', () => {
    const run = () => new PassManager([breaker]).run(prog(MLP));
    const prev = setVerifyMode(false);
    try {
      expect(run).not.toThrow();
      setVerifyMode(true);
      expect(run).toThrow(/broken_pass/);
    } finally { setVerifyMode(prev); }
  });

  it('blames the input when it is invalid before any pass', () => {
    const p = prog(MLP);
    breaker.run(p);
    expect(() => new PassManager(['dce'], { verify: true }).run(p)).toThrow(/the input program is invalid: before the first pass/);
  });

  it('names a pass that throws, and unknown passes and pipelines', () => {
    const thrower: Pass = { name: 'thrower', run: () => { throw new Error('boom'); } };
    expect(() => new PassManager([thrower]).run(prog(MLP))).toThrow(/pass 'thrower' failed: boom/);
    expect(() => new PassManager(['nope'])).toThrow(/unknown pass 'nope' \(known: canonicalize, constant_fold/);
    expect(() => PassManager.pipeline('nope')).toThrow(/unknown pipeline 'nope' \(known: inference, training\)/);
  });
});
