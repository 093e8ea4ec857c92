// DRR rules through the API: bindings (tensors, attributes, splat constants, named ops),
// repeated names, literal attributes, constraints, computed result attributes, the type check
// and the shared-intermediate check, and rules written in tests running with the greedy driver.
import { describe, expect, it } from 'vitest';
import { type Operation, parseProgram, printProgram, type Program, verify } from '../../src/pir/index.js';
import {
  applyPatternsGreedily, attr, compute, cst, type DrrRule, drrPattern, matchRule, op, t, CANONICALIZE_RULES, FUSE_GEMM_RULES,
} from '../../src/passes/index.js';

const prog = (body: string): Program => parseProgram(`{\n${body}\n}`);
const opNamed = (p: Program, name: string, nth = 0): Operation => p.allOps().filter((o) => o.name === name)[nth];

const X = '(%x) = "pd_op.data" () {name:"x", shape:shape[2, 3], dtype:float32} : () -> tensor<2x3xf32>';

describe('DRR matching', () => {
  it('binds tensors, attributes, constants and named ops', () => {
    const p = prog(`${X}
  (%c) = "builtin.constant" () {value:3.0} : () -> tensor<f32>
  (%a) = "pd_op.transpose" (%x) {perm:i64[1, 0]} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  (%m) = "pd_op.multiply" (%a, %c) {} : (tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>`);
    const rule: DrrRule = {
      name: 'probe', source: op('multiply', [op('transpose', [t('x')], { perm: attr('p') }, { as: 'tr' }), cst('k')]), result: t('x'),
    };
    const m = matchRule(rule, opNamed(p, 'pd_op.multiply'))!;
    expect(m).not.toBeNull();
    expect(m.v.x).toBe(opNamed(p, 'pd_op.data').result(0));
    expect(m.a.p).toEqual([1, 0]);
    expect(m.c.k).toBe(3);
    expect(m.ops.tr).toBe(opNamed(p, 'pd_op.transpose'));
    expect(m.root).toBe(opNamed(p, 'pd_op.multiply'));
  });

  it('a name bound twice must bind the same value; literal attributes must be equal', () => {
    const p = prog(`${X}
  (%y) = "pd_op.data" () {name:"y", shape:shape[2, 3], dtype:float32} : () -> tensor<2x3xf32>
  (%s1) = "pd_op.subtract" (%x, %x) {} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  (%s2) = "pd_op.subtract" (%x, %y) {} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  (%g1) = "pd_op.gelu" (%x) {approximate:true} : (tensor<2x3xf32>) -> tensor<2x3xf32>`);
    const same: DrrRule = { name: 'x_minus_x', source: op('subtract', [t('a'), t('a')]), result: t('a') };
    expect(matchRule(same, opNamed(p, 'pd_op.subtract', 0))).not.toBeNull();
    expect(matchRule(same, opNamed(p, 'pd_op.subtract', 1))).toBeNull();
    const exact: DrrRule = { name: 'gelu_exact', source: op('gelu', [t('x')], { approximate: false }), result: t('x') };
    expect(matchRule(exact, opNamed(p, 'pd_op.gelu'))).toBeNull();
    expect(matchRule({ ...exact, source: op('gelu', [t('x')], { approximate: true }) }, opNamed(p, 'pd_op.gelu'))).not.toBeNull();
  });

  it('constraints can refuse a match', () => {
    const p = prog(`${X}
  (%c) = "builtin.constant" () {value:2.0} : () -> tensor<f32>
  (%m) = "pd_op.multiply" (%x, %c) {} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>`);
    const rule = CANONICALIZE_RULES.find((r) => r.name === 'multiply_one')!;
    expect(matchRule(rule, opNamed(p, 'pd_op.multiply'))).toBeNull();
    expect(matchRule({ ...rule, constraints: [] }, opNamed(p, 'pd_op.multiply'))).not.toBeNull();
  });

  it('intermediate ops with outside users do not match unless the rule allows it', () => {
    const p = prog(`${X}
  (%w) = "builtin.parameter" () {parameter_name:"w"} : () -> tensor<3x4xf32>
  (%b) = "builtin.parameter" () {parameter_name:"b"} : () -> tensor<4xf32>
  (%m) = "pd_op.matmul" (%x, %w) {transpose_x:false, transpose_y:false} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  (%h) = "pd_op.add" (%m, %b) {} : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  () = "pd_op.fetch" (%m) {name:"m", col:0} : (tensor<2x4xf32>) -> ()`);
    const rule = FUSE_GEMM_RULES[0];
    expect(matchRule(rule, opNamed(p, 'pd_op.add'))).toBeNull();
    expect(matchRule({ ...rule, allowSharedIntermediates: true }, opNamed(p, 'pd_op.add'))).not.toBeNull();
  });
});

describe('DRR rewriting', () => {
  it('builds the result with computed attributes and replaces the root', () => {
    const p = prog(`${X}
  (%s) = "pd_op.scale" (%x) {scale:2.0, bias:0.0, bias_after_scale:true} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  (%s2) = "pd_op.scale" (%s) {scale:3.0, bias:0.0, bias_after_scale:true} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  () = "pd_op.fetch" (%s2) {name:"y", col:0} : (tensor<2x3xf32>) -> ()`);
    const rule: DrrRule = {
      name: 'scale_scale',
      source: op('scale', [op('scale', [t('x')], { scale: attr('a'), bias: 0 })], { scale: attr('b'), bias: 0 }),
      result: op('scale', [t('x')], { scale: compute((m) => (m.a.a as number) * (m.a.b as number)) }),
    };
    const r = applyPatternsGreedily(p, [drrPattern(rule)]);
    expect(r.rewrites).toBe(1);
    expect(r.byPattern.get('scale_scale')).toBe(1);
    verify(p);
    expect(printProgram(p)).toContain('"pd_op.scale" (%0) {scale:6.0, bias:0.0, bias_after_scale:true}');
    expect(p.allOps().filter((o) => o.name === 'pd_op.scale').length).toBe(1);
  });

  it('does not rewrite when the replacement type differs from the root type, and leaves no trace', () => {
    const p = prog(`${X}
  (%one) = "builtin.constant" () {value:1.0} : () -> tensor<4x2x3xf32>
  (%m) = "pd_op.multiply" (%x, %one) {} : (tensor<2x3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
  (%e) = "pd_op.exp" (%x) {} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  () = "pd_op.fetch" (%m) {name:"m", col:0} : (tensor<4x2x3xf32>) -> ()
  () = "pd_op.fetch" (%e) {name:"e", col:1} : (tensor<2x3xf32>) -> ()`);
    const before = printProgram(p);
    // A result op whose type differs: exp -> transpose(x) has a different shape.
    const bad: DrrRule = { name: 'exp_to_transpose', source: op('exp', [t('x')]), result: op('transpose', [t('x')], { perm: [1, 0] }) };
    const r = applyPatternsGreedily(p, [...CANONICALIZE_RULES.map(drrPattern), drrPattern(bad)]);
    expect(r.rewrites).toBe(0);
    expect(printProgram(p)).toBe(before);
  });

  it('refuses rules whose result uses unbound names or unknown ops', () => {
    const src = op('exp', [t('x')], {}, { as: 'e' });
    expect(() => drrPattern({ name: 'typo', source: src, result: op('relu', [t('y')]) }))
      .toThrow(/DRR rule 'typo': result uses 'y', which the source does not bind/);
    expect(() => drrPattern({ name: 'bare', source: src, result: t('y') })).toThrow(/result uses 'y'/);
    expect(() => drrPattern({ name: 'attr', source: src, result: op('gelu', [t('x')], { approximate: attr('nope') }) }))
      .toThrow(/result uses attribute 'nope'/);
    expect(() => drrPattern({ name: 'op', source: src, result: op('relu_typo', [t('x')]) })).toThrow(/result op 'pd_op.relu_typo' is not a registered op/);
  });

  it('every canonicalization and fusion is a DRR rule with a unique name', () => {
    const names = [...CANONICALIZE_RULES, ...FUSE_GEMM_RULES].map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.length).toBeGreaterThanOrEqual(20);
  });
});
