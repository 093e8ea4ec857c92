// (g) Bad graphs, bad inputs and bad programs raise clear errors, never crash, and leave no
// suspended run or leaked memory. The native runner validates on its own, so the last group
// calls it directly with handles and wire-format programs the TypeScript side would never make.
import { describe, expect, it } from 'vitest';
import { randTensor } from './helpers.js';
import { checkGraph, compile, encodeProgram, GraphBuilder, type ExecGraph, type LoweredProgram } from '../../src/executor/index.js';
import { native, type NativeProgramDesc } from '../../src/native.js';
import { sym } from '../../src/tensor/shape.js';
import { memoryStats } from '../../src/tensor/tensor.js';

function twoInputGraph(): ExecGraph {
  const b = new GraphBuilder();
  const x = b.input('float32', [sym('s0'), 4]);
  const y = b.input('float32', [sym('s0'), 4]);
  const s = b.op1('add', [x, y]);
  b.output(b.op1('cast', [s], { dtype: 'float64' }));
  return b.build();
}

describe('(g) errors from graphs and fed inputs', () => {
  it('rejects malformed graphs, naming the node and value', () => {
    const v = (id: number) => ({ id, dtype: 'float32' as const, shape: [2] });
    const base = { values: [v(0), v(1), v(2)], inputs: [0], params: [], outputs: [2] };
    expect(() => checkGraph({ ...base, nodes: [{ op: 'add', inputs: [0, 1], outputs: [2] }, { op: 'add', inputs: [0, 0], outputs: [1] }] }))
      .toThrow(/node 0 \(add\) input 1 uses %1 before it is defined \(by node 1: the nodes are not in topological order\)/);
    expect(() => checkGraph({ ...base, nodes: [{ op: 'add', inputs: [0, 7], outputs: [2] }] })).toThrow(/node 0 \(add\) input 1 refers to undeclared value %7/);
    expect(() => checkGraph({ ...base, nodes: [{ op: 'no_such_op', inputs: [0], outputs: [2] }] })).toThrow(/node 0 \(no_such_op\): unknown op 'no_such_op'/);
    expect(() => checkGraph({ ...base, nodes: [{ op: 'add', inputs: [0, 0], outputs: [0] }] })).toThrow(/defines %0, which is already defined/);
    expect(() => checkGraph({ ...base, nodes: [] })).toThrow(/output 0 \(%2\) is never defined/);
    expect(() => checkGraph({ ...base, params: [1], updates: [{ param: 2, value: 1 }], nodes: [{ op: 'add', inputs: [0, 1], outputs: [2] }] }))
      .toThrow(/update target %2 is not a param/);
  });

  it('rejects fed inputs of the wrong dtype, rank, dims or symbol binding', () => {
    const exe = compile(twoInputGraph());
    const a = randTensor([3, 4], 1);
    expect(() => exe.run([a, randTensor([3, 4], 2, 'float64')])).toThrow(/input 1 \(%1\) has dtype float64; the graph declares float32/);
    expect(() => exe.run([a, randTensor([3, 4, 1], 2)])).toThrow(/input 1 \(%1\) has shape \[3, 4, 1\]; the graph declares \[s0, 4\]: rank 3 != 2/);
    expect(() => exe.run([a, randTensor([3, 5], 2)])).toThrow(/input 1 \(%1\) has shape \[3, 5\]; the graph declares \[s0, 4\]: dim 1 must be 4/);
    expect(() => exe.run([a, randTensor([2, 4], 2)])).toThrow(/input 1 \(%1\) has shape \[2, 4\]; the graph declares \[s0, 4\]: dim 0 is s0, already bound to 3 by input 0 \(%0\) dim 0/);
    expect(() => exe.run([a])).toThrow(/the graph takes 2 inputs, got 1/);
    expect(() => exe.run([a, 5 as never])).toThrow(/input 1 is not a Tensor/);
    const gone = randTensor([3, 4], 3);
    gone.dispose();
    expect(() => exe.run([a, gone])).toThrow(/executor input 1: tensor .* has been disposed/);
    expect(exe.run([a, randTensor([3, 4], 4)])[0].shape).toEqual([3, 4]);
  });

  it('checks compound symbolic dims once their symbols are bound', () => {
    const b = new GraphBuilder();
    const x = b.input('float32', [sym('s0'), 4]);
    const y = b.input('float32', [sym('s0*2'), 4]);
    b.output(x, y);
    const exe = compile(b.build());
    expect(exe.run([randTensor([3, 4], 1), randTensor([6, 4], 2)]).length).toBe(2);
    expect(() => exe.run([randTensor([3, 4], 1), randTensor([5, 4], 2)])).toThrow(/input 1 \(%1\) .*: dim 0 is s0\*2 = 6/);
  });

  it('names the node when inference fails on the concrete shapes', () => {
    const b = new GraphBuilder();
    const x = b.input('float32', [sym('s0'), 4]);
    const y = b.input('float32', [sym('s1'), 4]);
    b.output(b.op1('add', [x, y]));            // s0 vs s1 is assumed broadcastable symbolically
    const exe = compile(b.build());
    expect(() => exe.run([randTensor([3, 4], 1), randTensor([2, 4], 2)])).toThrow(/node 0 \(add\) on float32\[3, 4\], float32\[2, 4\]: add: shapes \[3, 4\] and \[2, 4\] cannot be broadcast/);
  });
});

describe('(g) the native runner validates on its own', () => {
  const lowered = (): { p: LoweredProgram; desc: NativeProgramDesc } => {
    const exe = compile(twoInputGraph());
    const p = exe.plan([randTensor([3, 4], 1), randTensor([3, 4], 2)]);
    return { p, desc: encodeProgram(p) };
  };
  const outs = (n = 1): Int32Array => new Int32Array(n);

  it('checks bound handles: freed, wrong dtype, wrong shape, wrong counts', () => {
    const { desc } = lowered();
    const id = native.programCreate(desc);
    const a = randTensor([3, 4], 1), b = randTensor([3, 4], 2);
    const none = new Int32Array(0);
    const freed = randTensor([3, 4], 3);
    const fh = freed.handle;
    freed.dispose();
    expect(() => native.programRun(id, Int32Array.of(a.handle, fh), none, outs())).toThrow(/program \d+: input 1 \(%1\): invalid or freed tensor handle/);
    expect(() => native.programRun(id, Int32Array.of(a.handle, 999999), none, outs())).toThrow(/input 1 \(%1\): invalid or freed tensor handle 999999/);
    expect(() => native.programRun(id, Int32Array.of(a.handle, randTensor([3, 4], 4, 'float64').handle), none, outs())).toThrow(/input 1 \(%1\): dtype float64 does not match the program's float32/);
    expect(() => native.programRun(id, Int32Array.of(a.handle, randTensor([3, 5], 4).handle), none, outs())).toThrow(/input 1 \(%1\): shape \[3, 5\] does not match the program's \[3, 4\]/);
    expect(() => native.programRun(id, Int32Array.of(a.handle), none, outs())).toThrow(/expected 2 inputs, got 1/);
    expect(() => native.programRun(id, Int32Array.of(a.handle, b.handle), none, outs(2))).toThrow(/output array holds 2 handles, the program has 1 outputs/);
    expect(() => native.programRun(id, [a.handle, b.handle] as never, none, outs())).toThrow(/inputs must be an Int32Array/);
    expect(() => native.programRun(424242, none, none, outs())).toThrow(/unknown or freed program 424242/);
    expect(() => native.programResume(424242, none, outs())).toThrow(/no suspended run 424242/);
    const o = outs();
    expect(native.programRun(id, Int32Array.of(a.handle, b.handle), none, o)).toBe(0);
    expect(native.meta(o[0]).shape).toEqual([3, 4]);
    native.release(o[0]);
    expect(native.programFree(id)).toBe(true);
    expect(() => native.programRun(id, Int32Array.of(a.handle, b.handle), none, outs())).toThrow(/unknown or freed program/);
  });

  it('names the op and instruction index when a kernel fails during a run', () => {
    const { desc } = lowered();
    const attrs = Float64Array.from(desc.attrs);
    attrs[attrs.length - 1] = 99;              // cast's target dtype code
    const id = native.programCreate({ ...desc, attrs });
    const a = randTensor([3, 4], 1), b = randTensor([3, 4], 2);
    const m0 = memoryStats();
    expect(() => native.programRun(id, Int32Array.of(a.handle, b.handle), new Int32Array(0), outs())).toThrow(/^cast: instruction 1 of program \d+: invalid target dtype code 99/);
    expect(memoryStats().liveBytes).toBe(m0.liveBytes);
    native.programFree(id);
  });

  it('rejects malformed or unsafe plans at creation', () => {
    const { p, desc } = lowered();
    const bad = (patch: Partial<NativeProgramDesc>, err: RegExp): void => {
      expect(() => native.programCreate({ ...desc, ...patch })).toThrow(err);
    };
    const instrs = (f: (a: Int32Array) => void): Int32Array => { const a = Int32Array.from(desc.instrs); f(a); return a; };
    const slots = (f: (a: Int32Array) => void): Int32Array => { const a = Int32Array.from(desc.slots); f(a); return a; };
    const args = (f: (a: Int32Array) => void): Int32Array => { const a = Int32Array.from(desc.args); f(a); return a; };
    // instruction 0 is add(in0, in1) -> slot 2, instruction 1 is cast(slot 2) -> slot 3
    bad({ args: args((a) => { a[desc.instrs[2]] = 77; }) }, /instruction 0 \(add\): input slot 77 out of range/);
    bad({ instrs: instrs((a) => { a.copyWithin(0, 10, 20); a.set(desc.instrs.subarray(0, 10), 10); }), names: ['cast', 'add'] }, /instruction 0 \(cast\): reads %2 before it is defined/);
    bad({ instrs: instrs((a) => { a[1] = 100000; }) }, /unknown kernel id 100000/);
    bad({ args: args((a) => { a[desc.instrs[4]] = 0; }) }, /kernel output %0 is not a buffer slot/);
    bad({ slots: slots((a) => { a[3 * 7 + 1] = a[2 * 7 + 1]; }), buffers: Float64Array.of(...desc.buffers, 0) }, /needs 96 bytes but buffer 0 has 48|writes buffer 0 into %3 while another value still uses it/);
    bad({ outputs: Int32Array.of(2) }, /output %2 is not live at the end/);
    bad({ slots: slots((a) => { a[2] = 42; }) }, /slot 0 \(%0\): invalid dtype code 42/);
    bad({ nInputs: 3 }, /input 2 has no slot/);
    bad({ buffers: Float64Array.of(4) }, /needs 48 bytes but buffer 0 has 4/);
    bad({ slots: new Int32Array(5) }, /'slots' length is not a multiple of 7/);
    bad({ names: [] }, /0 names for 2 instructions/);
    expect(p.instrs.length).toBe(2);
  });

  it('rejects plans that would overwrite live values, inputs or immutable parameters', () => {
    const b = new GraphBuilder();
    const x = b.input('float32', [4]);
    const w = b.param('float32', [4]);
    const a1 = b.op1('add', [x, w]);
    const a2 = b.op1('add', [x, x]);
    b.output(b.op1('add', [a1, a2]));
    const p = compile(b.build(), { params: [randTensor([4], 1)] }).plan([randTensor([4], 2)]);
    const desc = encodeProgram(p);
    const slotOf = (v: number): number => p.slots.findIndex((s) => s.value === v);
    const patchSlot = (slot: number, field: number, value: number): Int32Array => { const a = Int32Array.from(desc.slots); a[slot * 7 + field] = value; return a; };
    // a2 in a1's buffer while a1 is still live
    const shared = patchSlot(slotOf(a2), 1, p.slots[slotOf(a1)].index);
    expect(() => native.programCreate({ ...desc, slots: shared })).toThrow(/instruction 1 \(add\): writes buffer \d+ into %3 while another value still uses it/);
    // a1 written into the (immutable) parameter w
    const alias = patchSlot(slotOf(a1), 0, 5);
    alias[slotOf(a1) * 7 + 1] = slotOf(w);
    expect(() => native.programCreate({ ...desc, slots: alias })).toThrow(/slot 2 \(%2\): writes parameter %1, which is not mutable/);
    // an output dropped before the end
    const args = Int32Array.from(desc.args);
    const k0 = Int32Array.from(desc.instrs);
    const last = p.instrs.length - 1;
    const frees = args.subarray(k0[last * 10 + 8], k0[last * 10 + 8] + k0[last * 10 + 9]);
    k0[last * 10 + 8] = args.length; k0[last * 10 + 9] = frees.length + 1;
    expect(() => native.programCreate({ ...desc, instrs: k0, args: Int32Array.of(...args, ...frees, p.outputSlots[0]) })).toThrow(/output %4 is not live at the end/);
    // a view slot redefined as a kernel output, or a host slot with no host function
    expect(() => native.programCreate({ ...desc, slots: patchSlot(slotOf(a1), 0, 3) })).toThrow(/kernel output %2 is not a buffer slot/);
    expect(() => native.programCreate({ ...desc, instrs: Int32Array.from(desc.instrs, (v, i) => (i === 0 ? 2 : v)) })).toThrow(/host function \d+ out of range/);
  });
});
