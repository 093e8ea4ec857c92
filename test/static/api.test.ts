// paddle.static's surface in TypeScript: modes, program_guard (callback and enter/exit), data
// dims, create_parameter initializers and the global scope, what gets recorded and what runs
// eagerly, Executor feeds (Tensors, nested arrays, typed arrays) and fetches (values, names,
// eager tensors), pruning, the plan cache, clone(for_test), and the errors users meet.
import { afterEach, describe, expect, it } from 'vitest';
import { paddle } from '../../src/paddle.js';
import { Value } from '../../src/pir/index.js';
import { staticExecutorStats } from '../../src/static/index.js';
import { Tensor } from '../../src/tensor/tensor.js';
import { fileCheck } from '../pir/filecheck.js';

const S = paddle.static;
const exe = new S.Executor();

afterEach(() => paddle.disable_static());

describe('modes and guards', () => {
  it('enable_static / disable_static / in_dynamic_mode', () => {
    expect(paddle.in_dynamic_mode()).toBe(true);
    paddle.enable_static();
    expect(paddle.in_dynamic_mode()).toBe(false);
    paddle.disable_static();
    expect(paddle.in_dynamic_mode()).toBe(true);
  });

  it('static mode records into the default main program outside any guard', () => {
    paddle.enable_static();
    const main = S.default_main_program();
    const before = main.num_ops;
    const x = S.data('dm_x', [2]);
    const y = paddle.exp(x);
    expect(y).toBeInstanceOf(Value);
    expect(main.num_ops).toBe(before + 2);
    const [out] = exe.run(null, { feed: { dm_x: [0, 1] }, fetch_list: [y] });
    expect(out.dataSync().map((v: number) => Math.round(Number(v) * 1e4) / 1e4)).toEqual([1, 2.7183]);
  });

  it('program_guard with a callback, with enter/exit, nested', () => {
    const a = new S.Program(), b = new S.Program();
    const g = S.program_guard(a);
    try {
      S.data('x', [3]);
      S.program_guard(b, () => S.data('y', [4]));
      S.data('z', [5]);
    } finally {
      g.exit();
    }
    expect(a.num_ops).toBe(2);
    expect(b.num_ops).toBe(1);
    expect(String(b)).toContain('name:"y"');
    expect(() => S.program_guard(a, () => { S.program_guard(b).enter(); })).toThrow(/innermost first/);
    S.program_guard(b).exit();  // a guard never entered: nothing to do
  });

  it('ops on eager tensors stay eager in static mode; eager operands are captured when mixed', () => {
    paddle.enable_static();
    const main = new S.Program();
    const bias = paddle.to_tensor([1, 2, 3]);
    const y = S.program_guard(main, () => {
      const ones = paddle.ones([3]);
      expect(ones).toBeInstanceOf(Tensor);
      const x = S.data('x', [null, 3]);
      return paddle.add(paddle.multiply(x, 2), paddle.add(bias, ones));
    });
    fileCheck(String(main), `
      // CHECK: "pd_op.data" () {name:"x", shape:shape[s0, 3], dtype:float32}
      // CHECK-NEXT: "builtin.constant" () {value:2.0} : () -> tensor<f32>
      // CHECK-NEXT: "pd_op.multiply"
      // CHECK-NEXT: "builtin.parameter" () {parameter_name:"generated_tensor_{{[0-9]+}}"} : () -> tensor<3xf32>
      // CHECK-NEXT: "pd_op.add"
    `);
    bias.dispose();  // the program holds its own view of captured storage
    const [out] = exe.run(main, { feed: { x: [[1, 1, 1], [0, 0, 0]] }, fetch_list: [y] });
    expect(out.tolist()).toEqual([[4, 5, 6], [2, 3, 4]]);
  });

  it('a value of another program is refused, naming the op', () => {
    const a = new S.Program(), b = new S.Program();
    const x = S.program_guard(a, () => S.data('x', [2]));
    expect(() => S.program_guard(b, () => paddle.exp(x))).toThrow(/exp: input 0 is a value of another program/);
  });
});

describe('data and create_parameter', () => {
  it('None and -1 become fresh symbols; strings name shared symbols', () => {
    const main = new S.Program();
    S.program_guard(main, () => {
      expect(String(S.data('a', [null, 4]).type)).toBe('tensor<s0x4xf32>');
      expect(String(S.data('b', [-1, undefined], 'int64').type)).toBe('tensor<s1xs2xi64>');
      expect(String(S.data('c', ['batch', 2]).type)).toBe('tensor<batchx2xf32>');
      expect(() => S.data('a', [1])).toThrow(/already has a feed named 'a'/);
      expect(() => S.data('d', [1.5])).toThrow(/dim 0 must be a size/);
    });
  });

  it('initializers: default Xavier/zeros, number, array, function; ParamAttr name; the global scope', () => {
    const main = new S.Program();
    const [w, b, c, arr, fn] = S.program_guard(main, () => [
      S.create_parameter([8, 4], 'float32'),
      S.create_parameter([4], 'float32', { is_bias: true }),
      S.create_parameter([2], 'float32', { default_initializer: 0.5, attr: { name: 'init.c' } }),
      S.create_parameter([2, 2], 'float64', 'init.arr', undefined, false, [[1, 2], [3, 4]]),
      S.create_parameter([3], 'float32', { name: 'init.fn', default_initializer: (s: number[]) => paddle.full(s, 7) }),
    ]);
    expect(w.name).toMatch(/^create_parameter_\d+\.w_0$/);
    expect(b.name).toMatch(/^create_parameter_\d+\.b_0$/);
    const wt = S.global_scope().find_var(w.name).get_tensor();
    const limit = Math.sqrt(6 / 12);
    expect(wt.dataSync().every((v: number) => Math.abs(v) <= limit)).toBe(true);
    expect(wt.stop_gradient).toBe(false);
    const [bv, cv, av, fv] = exe.run(main, { fetch_list: [b, 'init.c', arr, fn] });
    expect(bv.tolist()).toEqual([0, 0, 0, 0]);
    expect(cv.tolist()).toEqual([0.5, 0.5]);
    expect([av.dtype, av.tolist()]).toEqual(['float64', [[1, 2], [3, 4]]]);
    expect(fv.tolist()).toEqual([7, 7, 7]);
    expect(() => S.program_guard(main, () => S.create_parameter([2], 'float32', { default_initializer: () => paddle.zeros([3]) })))
      .toThrow(/initializer gave shape \[3\], expected \[2\]/);
  });
});

describe('Executor', () => {
  function program() {
    const main = new S.Program();
    const w = paddle.to_tensor([[1, 0], [0, 2], [1, 1]]);
    const vals = S.program_guard(main, () => {
      const x = S.data('x', [null, 3]);
      const unused = S.data('unused', [4]);
      const y = paddle.matmul(x, w);
      return { x, unused, y, z: paddle.tanh(unused) };
    });
    return { main, ...vals };
  }

  it('feeds Tensors, nested arrays and typed arrays; fetches values, names and eager tensors', () => {
    const { main, y } = program();
    const t = paddle.to_tensor([[1, 2, 3]]);
    const [a, byName, again, eager] = exe.run(main, { feed: { x: t }, fetch_list: [y, y.name, y, t] });
    expect(a.tolist()).toEqual([[4, 7]]);
    expect(byName.tolist()).toEqual([[4, 7]]);
    expect(again).not.toBe(a);
    expect(eager.tolist()).toEqual([[1, 2, 3]]);
    const [b] = exe.run(main, { feed: { x: [[1, 2, 3], [0, 0, 1]] }, fetch_list: [y] });
    expect(b.tolist()).toEqual([[4, 7], [1, 1]]);
    const [c] = exe.run(main, { feed: { x: new Float32Array([1, 2, 3, 0, 0, 1]) }, fetch_list: [y] });
    expect(c.tolist()).toEqual([[4, 7], [1, 1]]);
  });

  it('prunes to what the fetches need: unused feeds are not required', () => {
    const { main, y, z } = program();
    expect(exe.run(main, { feed: { x: [[0, 0, 1]] }, fetch_list: [y] })[0].tolist()).toEqual([[1, 1]]);
    expect(() => exe.run(main, { feed: { x: [[0, 0, 1]] }, fetch_list: [y, z] })).toThrow(/feed 'unused' is missing/);
    expect(exe.run(main, { fetch_list: [] })).toEqual([]);
  });

  it('caches one plan per fetch list and recompiles when the program grows', () => {
    const { main, x, y } = program();
    const c0 = staticExecutorStats.compiled, r0 = staticExecutorStats.reused;
    for (const n of [1, 2, 3]) exe.run(main, { feed: { x: paddle.ones([n, 3]) }, fetch_list: [y] });
    expect([staticExecutorStats.compiled - c0, staticExecutorStats.reused - r0]).toEqual([1, 2]);
    const y2 = S.program_guard(main, () => paddle.add(y, x.sum(-1, { keepdim: true })));
    const [out] = exe.run(main, { feed: { x: paddle.ones([1, 3]) }, fetch_list: [y2] });
    expect(out.tolist()).toEqual([[5, 6]]);
    expect(staticExecutorStats.compiled - c0).toBe(2);
  });

  it('errors name the feed or fetch', () => {
    const { main, y } = program();
    const other = S.program_guard(new S.Program(), () => S.data('q', [1]));
    expect(() => exe.run(main, { feed: { x: [[1, 2, 3]], nope: [1] }, fetch_list: [y] })).toThrow(/feed 'nope' is not a paddle.static.data/);
    expect(() => exe.run(main, { feed: { x: paddle.to_tensor([[1, 2, 3]], 'int64') }, fetch_list: [y] })).toThrow(/feed 'x' has dtype int64, but paddle.static.data\('x'\) is float32/);
    expect(() => exe.run(main, { feed: { x: [[1, 2]] }, fetch_list: [y] })).toThrow(/feed 'x' has shape \[1, 2\], but paddle.static.data\('x'\) has shape \[s0, 3\]/);
    expect(() => exe.run(main, { feed: { x: new Float32Array(4) }, fetch_list: [y] })).toThrow(/4 values, which do not fill/);
    expect(() => exe.run(main, { feed: { x: [[1, 2, 3]] }, fetch_list: ['no_such'] })).toThrow(/fetch_list\[0\] names 'no_such'/);
    expect(() => exe.run(main, { feed: { x: [[1, 2, 3]] }, fetch_list: [other] })).toThrow(/fetch_list\[0\] is not a value of this program/);
  });

  it('the startup program is empty and runs to nothing', () => {
    paddle.enable_static();
    expect(exe.run(S.default_startup_program())).toEqual([]);
  });

  it('clone(for_test) switches dropout to inference', () => {
    const main = new S.Program();
    const y = S.program_guard(main, () => paddle.nn.functional.dropout(S.data('x', [2, 8]), 0.5));
    const test = main.clone(true);
    expect(String(main)).toContain('training:true');
    expect(String(test)).toContain('training:false');
    const x = paddle.ones([2, 8]);
    expect(exe.run(test, { feed: { x }, fetch_list: [y.name] })[0].tolist()).toEqual(x.tolist());
    const train = exe.run(main, { feed: { x }, fetch_list: [y] })[0].dataSync();
    expect(train.every((v: number) => v === 0 || v === 2)).toBe(true);
  });
});
