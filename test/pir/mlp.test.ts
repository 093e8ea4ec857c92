// Symbolic shapes through a small MLP: x: tensor<s0x784xf32> -> matmul -> add -> relu ->
// matmul -> add -> softmax, built twice: with the Builder, and by calling registry ops on PIR
// values through the ProgramRecorder (the path the translator takes). Both print the same.
import { describe, expect, it } from 'vitest';
import { callOp, getOp, hasOp, runOp, setStaticRecorder } from '../../src/ops/index.js';
import { registerOp } from '../../src/ops/registry.js';
import type { TensorMeta } from '../../src/ops/types.js';
import { Builder, parseProgram, printProgram, Program, ProgramRecorder, tensorType, type Value, verify } from '../../src/pir/index.js';
import { ShapeError, shapeStr, sym } from '../../src/tensor/shape.js';
import { fileCheck } from './filecheck.js';

// Stand-ins for ops other engineers are adding to the registry; used only when absent, with
// Paddle's names and defaults (this file runs in its own process, so the registry is private).
if (!hasOp('matmul')) {
  registerOp({
    name: 'matmul',
    inputs: [{ name: 'x' }, { name: 'y' }],
    attrs: [{ name: 'transpose_x', type: 'bool', default: false }, { name: 'transpose_y', type: 'bool', default: false }],
    outputs: ['out'],
    infer: ([x, y]: readonly TensorMeta[]) => {
      if (x.shape.length !== 2 || y.shape.length !== 2 || (typeof x.shape[1] === 'number' && typeof y.shape[0] === 'number' && x.shape[1] !== y.shape[0])) {
        throw new ShapeError(`matmul: cannot multiply ${shapeStr(x.shape)} by ${shapeStr(y.shape)}`);
      }
      return [{ dtype: x.dtype, shape: [x.shape[0], y.shape[1]] }];
    },
  });
}
if (!hasOp('relu')) {
  registerOp({ name: 'relu', inputs: [{ name: 'x' }], attrs: [], outputs: ['out'], infer: ([x]) => [{ dtype: x.dtype, shape: x.shape }] });
}

const f32 = (shape: (number | ReturnType<typeof sym>)[]) => tensorType('float32', shape);

function mlpWithBuilder(): Program {
  const p = new Program();
  const b = new Builder(p);
  const x = b.data('x', [sym('s0'), 784], 'float32');
  const w1 = b.parameter('linear_0.w_0', f32([784, 128]));
  const b1 = b.parameter('linear_0.b_0', f32([128]));
  const w2 = b.parameter('linear_1.w_0', f32([128, 10]));
  const b2 = b.parameter('linear_1.b_0', f32([10]));
  const [h] = b.pd('matmul', [x, w1]);
  const [h1] = b.pd('add', [h, b1]);
  const [a] = b.pd('relu', [h1]);
  const [o] = b.pd('matmul', [a, w2]);
  const [o1] = b.pd('add', [o, b2]);
  const [y] = b.pd('softmax', [o1]);
  b.fetch(y, 'out');
  return p;
}

function mlpWithRecorder(): Program {
  const p = new Program();
  const b = new Builder(p);
  const prev = setStaticRecorder(new ProgramRecorder(b));
  try {
    const x = b.data('x', [sym('s0'), 784], 'float32');
    const ws = [['linear_0.w_0', [784, 128]], ['linear_0.b_0', [128]], ['linear_1.w_0', [128, 10]], ['linear_1.b_0', [10]]] as const;
    const [w1, b1, w2, b2] = ws.map(([n, s]) => b.parameter(n, f32([...s])));
    const op = (name: string, ...ins: Value[]): Value => runOp(name, ins)[0] as Value;
    const y = op('softmax', op('add', op('matmul', op('relu', op('add', op('matmul', x, w1), b1)), w2), b2));
    b.fetch(y, 'out');
  } finally {
    setStaticRecorder(prev);
  }
  return p;
}

describe('a symbolic MLP', () => {
  it('keeps the batch symbol through every op', () => {
    const p = mlpWithBuilder();
    verify(p);
    const text = printProgram(p);
    fileCheck(text, `
      // CHECK-LABEL: {
      // CHECK-NEXT: (%0) = "pd_op.data" () {name:"x", shape:shape[s0, 784], dtype:float32} : () -> tensor<s0x784xf32>
      // CHECK: (%4) = "builtin.parameter" () {parameter_name:"linear_1.b_0"} : () -> tensor<10xf32>
      // CHECK-NEXT: (%5) = "pd_op.matmul" (%0, %1) {transpose_x:false, transpose_y:false} : (tensor<s0x784xf32>, tensor<784x128xf32>) -> tensor<s0x128xf32>
      // CHECK-NEXT: (%6) = "pd_op.add" (%5, %2) {} : (tensor<s0x128xf32>, tensor<128xf32>) -> tensor<s0x128xf32>
      // CHECK-NEXT: (%7) = "pd_op.relu" (%6) {} : (tensor<s0x128xf32>) -> tensor<s0x128xf32>
      // CHECK-NEXT: (%8) = "pd_op.matmul" (%7, %3) {{.*}} -> tensor<s0x10xf32>
      // CHECK-NEXT: (%9) = "pd_op.add" (%8, %4) {} : (tensor<s0x10xf32>, tensor<10xf32>) -> tensor<s0x10xf32>
      // CHECK-NEXT: (%10) = "pd_op.softmax" (%9) {{.*}} -> tensor<s0x10xf32>
      // CHECK-NEXT: () = "pd_op.fetch" (%10) {name:"out", col:0} : (tensor<s0x10xf32>) -> ()
      // CHECK-NOT: tensor<?
    `);
    expect(printProgram(parseProgram(text))).toBe(text);
    verify(parseProgram(text));
  });

  it('records the same program when registry ops are called on PIR values', () => {
    expect(printProgram(mlpWithRecorder())).toBe(printProgram(mlpWithBuilder()));
  });

  it('public API calls with JS scalars and dtype promotion record full and cast ops', () => {
    const p = new Program();
    const b = new Builder(p);
    const prev = setStaticRecorder(new ProgramRecorder(b));
    try {
      const x = b.data('x', [sym('s0'), 4], 'float32');
      const i = b.data('i', [4], 'int32');
      b.fetch(callOp(getOp('add'), [callOp(getOp('add'), [x, 2]), i]) as Value, 'out');
    } finally {
      setStaticRecorder(prev);
    }
    verify(p);
    fileCheck(printProgram(p), `
      // CHECK: (%2) = "pd_op.full" () {shape:i64[], fill_value:2, dtype:float32} : () -> tensor<f32>
      // CHECK-NEXT: (%3) = "pd_op.add" (%0, %2) {} : (tensor<s0x4xf32>, tensor<f32>) -> tensor<s0x4xf32>
      // CHECK-NEXT: (%4) = "pd_op.cast" (%1) {dtype:float32} : (tensor<4xi32>) -> tensor<4xf32>
      // CHECK-NEXT: (%5) = "pd_op.add" (%3, %4)
    `);
  });

  it('an unknown batch (-1) stays unknown, and a wrong width is caught by the verifier', () => {
    const p = new Program();
    const b = new Builder(p);
    const x = b.data('x', [-1, 784], 'float32');
    const [h] = b.pd('matmul', [x, b.parameter('w', f32([784, 16]))]);
    expect(String(h.type)).toBe('tensor<?x16xf32>');
    const bad = b.parameter('w2', f32([15, 4]));
    expect(() => b.pd('matmul', [h, bad])).toThrow(/matmul/);
    verify(p);
  });
});
