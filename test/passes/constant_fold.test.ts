// Constant folding through the API: the size bound, evaluation while a program is being
// recorded (the recorder must neither see the evaluation nor be lost), and ops whose kernel
// refuses the constant inputs (left for run time to report).
import { describe, expect, it } from 'vitest';
import { getStaticRecorder, setStaticRecorder } from '../../src/ops/dispatch.js';
import { Builder, parseProgram, printProgram, Program, ProgramRecorder } from '../../src/pir/index.js';
import { constantFoldPass } from '../../src/passes/index.js';

const SRC = `{
  (%a) = "builtin.constant" () {value:f64[1.0, 2.0, 3.0]} : () -> tensor<3xf32>
  (%e) = "pd_op.exp" (%a) {} : (tensor<3xf32>) -> tensor<3xf32>
  () = "pd_op.fetch" (%e) {name:"e", col:0} : (tensor<3xf32>) -> ()
}`;

describe('constant folding', () => {
  it('respects maxElements', () => {
    const small = parseProgram(SRC);
    expect(constantFoldPass({ maxElements: 2 }).run(small)).toBe(0);
    expect(printProgram(small)).toContain('pd_op.exp');
    const big = parseProgram(SRC);
    expect(constantFoldPass({ maxElements: 3 }).run(big)).toBeGreaterThan(0);
    expect(printProgram(big)).not.toContain('pd_op.exp');
  });

  it('evaluates eagerly while a program is being recorded, and keeps the recorder', () => {
    const recording = new Program();
    const rec = new ProgramRecorder(new Builder(recording));
    const prev = setStaticRecorder(rec);
    try {
      const p = parseProgram(SRC);
      constantFoldPass().run(p);
      expect(printProgram(p)).toContain('{value:f64[2.7182817459106445, 7.389056205749512, 20.08553695678711]}');
      expect(getStaticRecorder()).toBe(rec);
      expect(recording.block.ops.length).toBe(0);
    } finally {
      setStaticRecorder(prev);
    }
  });

  it('leaves an op whose kernel rejects the constants for run time', () => {
    const p = parseProgram(`{
  (%x) = "builtin.constant" () {value:f64[1.0, 2.0, 3.0]} : () -> tensor<3xf32>
  (%i) = "builtin.constant" () {value:i64[5]} : () -> tensor<1xi64>
  (%g) = "pd_op.gather" (%x, %i) {axis:0} : (tensor<3xf32>, tensor<1xi64>) -> tensor<1xf32>
  () = "pd_op.fetch" (%g) {name:"g", col:0} : (tensor<1xf32>) -> ()
}`);
    constantFoldPass().run(p);
    expect(printProgram(p)).toContain('pd_op.gather');
  });

  it('folds view ops (transpose, slice) in logical element order', () => {
    const p = parseProgram(`{
  (%a) = "builtin.constant" () {value:f64[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]} : () -> tensor<2x3xf32>
  (%t) = "pd_op.transpose" (%a) {perm:i64[1, 0]} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  (%s) = "pd_op.slice" (%a) {axes:i64[1], starts:i64[1], ends:i64[3]} : (tensor<2x3xf32>) -> tensor<2x2xf32>
  () = "pd_op.fetch" (%t) {name:"t", col:0} : (tensor<3x2xf32>) -> ()
  () = "pd_op.fetch" (%s) {name:"s", col:1} : (tensor<2x2xf32>) -> ()
}`);
    constantFoldPass().run(p);
    const out = printProgram(p);
    expect(out).toContain('{value:f64[1.0, 4.0, 2.0, 5.0, 3.0, 6.0]} : () -> tensor<3x2xf32>');
    expect(out).toContain('{value:f64[2.0, 3.0, 5.0, 6.0]} : () -> tensor<2x2xf32>');
  });
});
