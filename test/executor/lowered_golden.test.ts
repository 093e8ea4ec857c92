// Golden files of the lowered form (formatLowered): the instruction list, slots, buffer plan,
// inplace writes and host calls the executor builds for PIR programs: the MLP, LeNet and
// transformer block of test/passes/models.ts at batch 2, and a program with pd_op.if and
// pd_op.while. Each file holds the program (PIR text) and then its lowered form; the test
// fails when either changes. Update with `npx vitest run test/executor/lowered_golden.test.ts -u`
// after checking the diff.
import { describe, expect, it } from 'vitest';
import { paddle } from '../../src/paddle.js';
import { compile, decodeAttrs, formatLowered, fromPir } from '../../src/executor/index.js';
import { encodeAttrs, resolveAttrs } from '../../src/ops/dispatch.js';
import { getOp } from '../../src/ops/registry.js';
import { Builder, type Program, printProgram, type Value } from '../../src/pir/index.js';
import { scope, type Tensor } from '../../src/tensor/tensor.js';
import { buildModel, MODELS } from '../passes/models.js';
import { randTensor } from './helpers.js';

type T = any;

/** The lowered form of `program` for feeds of `shapes` (params: seeded tensors of their declared shapes). */
function lowered(program: Program, shapes: Record<string, { shape: number[]; dtype?: string }>): string {
  const g = fromPir(program);
  const meta = new Map(g.graph.values.map((v) => [v.id, v]));
  const params = [
    ...g.params.map((_, i) => randTensor(meta.get(g.graph.params[i])!.shape as number[], i + 1)),
    ...g.constants,
  ];
  const inputs = g.feeds.map((name, i) => {
    const s = shapes[name];
    return s.dtype && s.dtype !== 'float32' ? paddle.zeros(s.shape, s.dtype) as Tensor : randTensor(s.shape, 100 + i);
  });
  const exe = compile(g.graph, { params, hostFns: g.hostFns });
  const text = formatLowered(exe.plan(inputs));
  // Deterministic: lowering the same program again prints the same text.
  expect(formatLowered(compile(fromPir(program).graph, { params, hostFns: g.hostFns }).plan(inputs))).toBe(text);
  exe.dispose();
  return `// program\n${printProgram(program)}// lowered\n${text}`;
}

function controlFlowProgram(): Program {
  const prog = new paddle.static.Program();
  paddle.static.program_guard(prog, () => {
    const x = paddle.static.data('x', [null, 3], 'float32') as T;
    const n = paddle.static.data('n', [1], 'int64') as T;
    const y = paddle.static.nn.cond(paddle.greater_than(paddle.sum(x), paddle.to_tensor(0)) as T,
      () => paddle.exp(x), () => paddle.scale(x, -2, 1)) as T;
    const [i, s] = paddle.static.nn.while_loop(
      (i: T) => paddle.less_than(i, n),
      (i: T, s: T) => [paddle.add(i, paddle.to_tensor([1], 'int64')), paddle.add(paddle.multiply(s, paddle.to_tensor(0.5)), y)],
      [paddle.to_tensor([0], 'int64'), paddle.zeros_like(y)]) as Value[];
    const out = paddle.nn.functional.relu(paddle.add(s as T, x)) as Value;
    const b = new Builder(prog.pir);
    b.fetch(out, 'out', 0);
    b.fetch(i, 'i', 1);
  });
  return prog.pir;
}

describe('lowered-program golden files', () => {
  for (const spec of MODELS) {
    it(spec.name, async () => {
      const text = scope(() => lowered(buildModel(spec), { x: { shape: [2, ...spec.inTail] } }));
      await expect(text).toMatchFileSnapshot(`./golden/${spec.name}.txt`);
    });
  }
  it('control_flow', async () => {
    const text = scope(() => lowered(controlFlowProgram(), { x: { shape: [2, 3] }, n: { shape: [1], dtype: 'int64' } }));
    expect(text).toContain('skiff.host_call:pd_op.if');
    expect(text).toContain('skiff.host_call:pd_op.while');
    await expect(text).toMatchFileSnapshot('./golden/control_flow.txt');
  });
  it('decodes default-layout kernel attributes back to names', () => {
    const enc = (op: string, attrs: Record<string, unknown>) => {
      const def = getOp(op);
      return decodeAttrs(def, encodeAttrs(def, resolveAttrs(def, attrs), []));
    };
    expect(enc('transpose', { perm: [0, 2, 1, 3] })).toEqual(['perm=[0, 2, 1, 3]']);
    expect(enc('matmul', { transpose_y: true })).toEqual(['transpose_x=false', 'transpose_y=true']);
    expect(enc('scale', { scale: 0.5 })).toEqual(['scale=0.5', 'bias=0', 'bias_after_scale=true']);
    // An op with its own encode keeps its numbers.
    expect(decodeAttrs(getOp('conv2d'), [1, 1])).toBeNull();
  });
});
