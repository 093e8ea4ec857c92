// paddle.summary(net, input_size=None, dtypes=None, input=None): runs one forward pass on
// generated (or given) inputs with a post hook on every layer, prints Paddle's table (layer,
// input shape, output shape, parameter count) and returns {total_params, trainable_params}.
import { no_grad } from '../autograd/index.js';
import { callOp } from '../ops/api.js';
import { getOp } from '../ops/registry.js';
import { Tensor } from '../tensor/tensor.js';
import type { DType } from '../tensor/dtype.js';
import { Layer, type HookHandle } from './layer.js';
import { LayerList, Sequential } from './container.js';
import { RNNBase } from './layers_rnn.js';

type Shape = (number | null)[];
interface Row { name: string; input: string; output: string; params: number; outElems: number }

const shapeStr = (v: unknown): string => {
  if (v instanceof Tensor) return `[${v.shape.join(', ')}]`;
  if (Array.isArray(v)) return `[${v.map(shapeStr).join(', ')}]`;
  return '';
};
const elems = (v: unknown): number => (v instanceof Tensor ? v.size : Array.isArray(v) ? v.reduce((a: number, t) => a + elems(t), 0) : 0);
const prod = (s: readonly number[]): number => s.reduce((a, b) => a * b, 1);
const commas = (n: number): string => n.toLocaleString('en-US');

/** A list of input shapes ([[1, 3], [1, 4]]) or one ([1, 3]); None / -1 dims become 1 (the batch). */
function shapesOf(input_size: Shape | Shape[]): number[][] {
  const many = Array.isArray(input_size[0]);
  const list = (many ? input_size : [input_size]) as Shape[];
  return list.map((s) => {
    if (!Array.isArray(s)) throw new TypeError(`summary: input_size must be a shape or a list of shapes, got ${JSON.stringify(input_size)}`);
    return s.map((d) => {
      if (d === null || d === -1) return 1;
      if (!Number.isInteger(d) || d < 0) throw new RangeError(`summary: input_size dims must be non-negative integers, -1 or None, got ${JSON.stringify(s)}`);
      return d;
    });
  });
}

export function summary(net: Layer, input_size: Shape | Shape[] | null = null, dtypes: DType | DType[] | null = null, input: Tensor | Tensor[] | null = null,
  print: (s: string) => void = console.log): { total_params: number; trainable_params: number } {
  if (!(net instanceof Layer)) throw new TypeError('summary: net must be a paddle.nn.Layer');
  if (input_size === null && input === null) throw new Error('summary: give input_size or input');
  let inputs: Tensor[];
  if (input !== null) inputs = Array.isArray(input) ? input : [input];
  else {
    const shapes = shapesOf(input_size!);
    const dts = Array.isArray(dtypes) ? dtypes : shapes.map(() => (dtypes ?? 'float32') as DType);
    if (dts.length !== shapes.length) throw new RangeError(`summary: ${shapes.length} input shapes but ${dts.length} dtypes`);
    inputs = shapes.map((s, i) => callOp(getOp('cast'), [callOp(getOp('uniform'), [s, 'float32', 0, 1]), dts[i]]) as Tensor);
  }
  const rows: Row[] = [];
  const hooks: HookHandle[] = [];
  const all = net.sublayers(true);
  const leafModel = all.length === 1;
  for (const l of all) {
    // Containers only pass data through; the model itself gets a row when it has no sublayers (as in Paddle).
    // RNN layers (SimpleRNN/LSTM/GRU) always get a row: their cells are not called as layers.
    if (!(l instanceof RNNBase) && (l instanceof Sequential || l instanceof LayerList || (l === net && !leafModel))) continue;
    hooks.push(l.register_forward_post_hook((layer, ins, out) => {
      const cls = layer.constructor.name;
      const own = layer.named_parameters('', false);
      rows.push({ name: `${cls}-${rows.length + 1}`, input: shapeStr(ins.filter((t) => t instanceof Tensor)), output: shapeStr(out),
        params: own.reduce((a, [, p]) => a + prod(p.shape as number[]), 0), outElems: elems(out) });
    }));
  }
  const wasTraining = net.training;
  try {
    net.eval();
    no_grad(() => net.call(...inputs));
  } finally {
    for (const h of hooks) h.remove();
    if (wasTraining) net.train();
  }
  // Totals count each parameter once, even when a layer also exposes its sublayers' tensors (RNN's weight_ih_l0).
  const params = net.parameters();
  const total = params.reduce((a, p) => a + prod(p.shape as number[]), 0);
  const trainable = params.reduce((a, p) => a + (p.stop_gradient ? 0 : prod(p.shape as number[])), 0);
  const head = ['Layer (type)', 'Input Shape', 'Output Shape', 'Param #'];
  const cells = rows.map((r) => [r.name, r.input, r.output, commas(r.params)]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)) + 4);
  const center = (s: string, w: number) => { const l = Math.floor((w - s.length) / 2); return ' '.repeat(l) + s + ' '.repeat(w - s.length - l); };
  const line = (c: string[]) => c.map((s, i) => center(s, widths[i])).join(' ').trimEnd();
  const width = widths.reduce((a, b) => a + b, 0) + 3;
  const mb = (n: number) => (n * 4 / 1024 / 1024).toFixed(2);
  const inElems = inputs.reduce((a, t) => a + t.size, 0);
  const fwd = 2 * rows.reduce((a, r) => a + r.outElems, 0);
  const out = ['-'.repeat(width), line(head), '='.repeat(width), ...cells.map(line), '='.repeat(width),
    `Total params: ${commas(total)}`, `Trainable params: ${commas(trainable)}`, `Non-trainable params: ${commas(total - trainable)}`, '-'.repeat(width),
    `Input size (MB): ${mb(inElems)}`, `Forward/backward pass size (MB): ${mb(fwd)}`, `Params size (MB): ${mb(total)}`,
    `Estimated Total Size (MB): ${mb(inElems + fwd + total)}`, '-'.repeat(width)];
  print(out.join('\n'));
  return { total_params: total, trainable_params: trainable };
}
