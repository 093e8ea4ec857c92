// The IR API the passes and the executor use: builder insertion points, use lists, rewrites
// (replaceAllUsesWith, erase with use checks, move), traits and interfaces, verifier errors for
// IR built through the API, and the checking mode.
import { afterEach, describe, expect, it } from 'vitest';
import {
  Builder, ConstantLike, flatInputs, InferMetaInterface, Inplace, InplaceInterface, maybeVerify, Operation, pdAttrs, PirVerifyError,
  printProgram, Program, Pure, ReadOnly, setVerifyMode, tensorType, verify, verifyProgram,
} from '../../src/pir/index.js';
import { sym } from '../../src/tensor/shape.js';
import './test_dialect.js';

const t = (...shape: number[]) => tensorType('float32', shape);

function small(): { p: Program; b: Builder; x: ReturnType<Builder['data']>; y: ReturnType<Builder['data']> } {
  const p = new Program();
  const b = new Builder(p);
  return { p, b, x: b.data('x', [3], 'float32'), y: b.data('y', [3], 'float32') };
}

const initialMode = setVerifyMode(false);
setVerifyMode(initialMode);
afterEach(() => { setVerifyMode(initialMode); });

describe('building', () => {
  it('inserts at the end, at the start, before and after an op', () => {
    const { p, b, x, y } = small();
    const [s] = b.pd('add', [x, y]);
    b.setInsertionPointBefore(s.definingOp!);
    const [c] = b.pd('cast', [x], { dtype: 'float64' });
    b.setInsertionPointAfter(s.definingOp!);
    b.pd('full', [], { shape: [1], fill_value: 0 });
    b.pd('full', [], { shape: [2], fill_value: 0 });
    b.setInsertionPointToStart(p.block);
    b.scalar(1, 'int64');
    expect(p.block.ops.map((o) => o.name)).toEqual(['builtin.constant', 'pd_op.data', 'pd_op.data', 'pd_op.cast', 'pd_op.add', 'pd_op.full', 'pd_op.full']);
    expect(p.block.ops[5].attr('shape')).toEqual({ kind: 'ints', value: [1] });  // successive inserts keep their order
    expect(c.users).toEqual([]);
    expect(x.users.map((o) => o.name)).toEqual(['pd_op.add', 'pd_op.cast']);
    verify(p);
  });

  it('resolves registry attributes and rejects bad calls naming the op', () => {
    const { b, x, y } = small();
    const op = b.pdOp('pd_op.full', [], { shape: [2, 2], fill_value: 0.5 });
    expect(pdAttrs(op)).toEqual({ shape: [2, 2], fill_value: 0.5, dtype: 'float32' });
    expect(() => b.pd('add', [x])).toThrow(/add: expects 2 input\(s\) \(x, y\), got 1/);
    expect(() => b.pd('cast', [x], { dtype: 'float32', colour: 1 })).toThrow(/cast: unexpected attribute 'colour'/);
    expect(() => b.pd('cast', [x])).toThrow(/cast: missing required attribute 'dtype'/);
    expect(() => b.pd('no_such_op', [x])).toThrow(/unknown op 'no_such_op'/);
    expect(() => b.pd('add', [x, b.data('z', [4], 'float32')])).toThrow(/add: shapes \[3\] and \[4\] cannot be broadcast/);
    expect(() => b.pd('add', [[x, y], y])).toThrow(/add: input 'x' takes one tensor, got a list/);
  });

  it('variadic inputs go through builtin.combine and flatten back for the executor', () => {
    const { b, x, y } = small();
    const op = b.pdOp('concat', [[x, y, x]], { axis: 0 });
    expect(op.operand(0)!.definingOp!.name).toBe('builtin.combine');
    expect(flatInputs(op)).toEqual([x, y, x]);
    expect(String(op.result().type)).toBe('tensor<9xf32>');
  });

  it('exposes traits and interfaces per op kind', () => {
    const { b, x, y } = small();
    const add = b.pdOp('add', [x, y]);
    const addInplace = b.pdOp('add_', [x, y]);
    expect(add.hasTrait(Pure)).toBe(true);
    expect(addInplace.hasTrait(Inplace) && !addInplace.hasTrait(Pure)).toBe(true);
    expect(addInplace.getInterface(InplaceInterface)).toEqual({ functional: 'pd_op.add', aliases: [[0, 0]] });
    expect(addInplace.def).toBe(add.def);
    expect(x.definingOp!.hasTrait(ReadOnly)).toBe(true);
    expect(b.scalar(1, 'float32').definingOp!.hasTrait(ConstantLike)).toBe(true);
    const types = add.getInterface(InferMetaInterface)!.inferTypes([t(2, 1), t(1, 5)], add.attributes);
    expect(types.map(String)).toEqual(['tensor<2x5xf32>']);
    expect(new Operation('gen.unknown', [], [], []).kind.registered).toBe(false);
  });
});

describe('rewriting', () => {
  it('replaceAllUsesWith moves every use; erase refuses while uses remain', () => {
    const { p, b, x, y } = small();
    const [s] = b.pd('add', [x, y]);
    const [u] = b.pd('add', [s, s]);
    b.fetch(u, 'out');
    expect(s.uses.length).toBe(2);
    expect(() => s.definingOp!.erase()).toThrow(/cannot erase .*"pd_op.add".*still has 2 use\(s\), first in "pd_op.add"/);
    s.replaceAllUsesWith(x);
    expect(s.hasUses).toBe(false);
    expect(x.uses.length).toBe(3);
    s.definingOp!.erase();
    expect(y.uses.length).toBe(0);  // the erased op dropped its operands
    expect(p.block.ops.map((o) => o.name)).toEqual(['pd_op.data', 'pd_op.data', 'pd_op.add', 'pd_op.fetch']);
    verify(p);
  });

  it('moves ops and keeps SSA checks honest', () => {
    const { p, b, x, y } = small();
    const [s] = b.pd('add', [x, y]);
    const [u] = b.pd('cast', [s], { dtype: 'float64' });
    u.definingOp!.moveBefore(s.definingOp!);
    expect(verifyProgram(p).map((i) => i.message)).toEqual(['operand 0 (%3) is used before its definition']);
    u.definingOp!.moveAfter(s.definingOp!);
    verify(p);
    const loop = b.create('test.loop', [s], {}, [s.type], 1);
    const body = loop.regions[0].addBlock();
    u.definingOp!.moveToEnd(body);
    new Builder(body).yield([u]);
    expect(verifyProgram(p)).toEqual([]);  // s is defined above the loop, so the moved cast may use it
    s.definingOp!.moveToEnd(p.block);
    expect(verifyProgram(p).map((i) => i.message)).toEqual(['operand 0 (%4) is used before its definition', 'operand 0 (%4) is used before its definition']);
  });

  it('setOperand and block arguments update use lists', () => {
    const { p, b, x, y } = small();
    const op = b.pdOp('add', [x, x]);
    op.setOperand(1, y);
    expect(x.uses.length).toBe(1);
    expect(y.users).toEqual([op]);
    const loop = b.create('test.loop', [], {}, [], 1);
    const blk = loop.regions[0].addBlock();
    const a = blk.addArgument(t(3));
    new Builder(blk).yield([a]);
    expect(() => blk.eraseArgument(0)).toThrow(/has 1 use/);
    verify(p);
  });
});

describe('cloning', () => {
  it('copies a program with regions, sharing no values', () => {
    const { p, b, x, y } = small();
    const loop = b.create('test.loop', [x], {}, [x.type], 1);
    const blk = loop.regions[0].addBlock();
    const a = blk.addArgument(x.type);
    const ib = new Builder(blk);
    ib.yield(ib.pd('add', [a, y]));
    b.fetch(loop.result(), 'out');
    const q = p.clone();
    expect(printProgram(q)).toBe(printProgram(p));
    verify(q);
    const used = new Set(q.allOps().flatMap((o) => o.operandValues()));
    expect(used.has(x) || used.has(y) || used.has(a)).toBe(false);
    expect(x.uses.length).toBe(1);
  });
});

describe('verifier on IR built through the API', () => {
  it('reports a declared type that infer disagrees with, naming op and position', () => {
    const { p, b, x, y } = small();
    const [s] = b.pd('add', [x, y]);
    s.type = t(4);
    let err: unknown;
    try { verify(p, 'after my-pass'); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(PirVerifyError);
    expect((err as Error).message).toContain('after my-pass: PIR verification failed with 1 error(s)');
    expect((err as Error).message).toContain('op #2 "pd_op.add": result 0 has type tensor<4xf32> but infer-meta gives tensor<3xf32>');
    expect((err as Error).message).toContain('at: (%2) = "pd_op.add" (%0, %1) {} : (tensor<3xf32>, tensor<3xf32>) -> tensor<4xf32>');
  });

  it('reports a wrong operand count and a use before its definition', () => {
    const { p, b, x } = small();
    b.insert(new Operation('pd_op.add', [x], [], [t(3)]));
    const late = b.data('late', [3], 'float32');
    b.setInsertionPointToStart(p.block);
    b.pd('add', [late, late]);
    const msgs = verifyProgram(p).map((i) => `#${i.index} ${i.message}`);
    expect(msgs).toEqual([
      '#0 operand 0 (%4) is used before its definition',
      '#0 operand 1 (%4) is used before its definition',
      '#3 expects 2 operand(s) (x, y), got 1',
    ]);
  });

  it('accepts refined unknown dims both ways', () => {
    const p = new Program();
    const b = new Builder(p);
    const x = b.data('x', [-1, sym('n')], 'float32');
    const [s] = b.pd('add', [x, x]);
    s.type = tensorType('float32', [8, sym('n')]);
    verify(p);
    s.type = tensorType('float32', [8, 9]);
    expect(verifyProgram(p)).toHaveLength(1);
  });
});

describe('checking mode', () => {
  it('verifies each op as it is built and programs wherever passes ask', () => {
    const { p, b, x } = small();
    setVerifyMode(true);
    expect(() => b.insert(new Operation('pd_op.add', [x], [], [t(3)]))).toThrow(PirVerifyError);
    expect(() => maybeVerify(p, 'dce')).toThrow(/^dce: PIR verification failed/);
    setVerifyMode(false);
    expect(() => maybeVerify(p, 'dce')).not.toThrow();
    expect(printProgram(p)).toContain('"pd_op.add" (%0) {}');
  });
});
