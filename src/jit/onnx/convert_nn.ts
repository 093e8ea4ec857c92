// Converters for the NN layers: conv2d, pools, batch/layer norm (inference), embedding and
// scaled-dot-product attention (decomposed: opset 17 has no attention op). ONNX's conv and
// pool ops are channel-first, so NHWC goes through a pair of Transposes.
import type { AttrValue } from '../../ops/types.js';
import { padding2d } from '../../ops/defs/nn_util.js';
import type { Dim } from '../../tensor/shape.js';
import { convert, normAxis, type OpContext } from './context.js';
import { f32attr, type OnnxGraph } from './graph.js';

const TO_NCHW = [0, 3, 1, 2], TO_NHWC = [0, 2, 3, 1];

function pair(c: OpContext, name: string, v: AttrValue): [number, number] {
  if (typeof v === 'number') return [v, v];
  if (Array.isArray(v) && v.length === 2 && v.every((x) => typeof x === 'number')) return [v[0] as number, v[1] as number];
  if (Array.isArray(v) && v.length === 1 && typeof v[0] === 'number') return [v[0], v[0]];
  return c.fail(`${name} must be an int or a pair, got ${JSON.stringify(v)}`);
}

/** Runs `body` on x in NCHW, transposing in and out when the op's data_format is NHWC. */
function channelFirst(c: OpContext, body: (x: string, hw: readonly Dim[]) => string): void {
  const nhwc = c.attr('data_format') === 'NHWC';
  if (c.attr('data_format') !== 'NCHW' && !nhwc) c.fail(`data_format ${JSON.stringify(c.attr('data_format'))} is not supported`);
  const s = c.shape(0);
  const x = nhwc ? c.g.op('Transpose', [c.in(0)], { perm: TO_NCHW }) : c.in(0);
  const y = body(x, nhwc ? [s[1], s[2]] : [s[2], s[3]]);
  c.out(nhwc ? c.g.op('Transpose', [y], { perm: TO_NHWC }) : y);
}

/** ONNX window attributes for Paddle's padding (SAME pads computed when the size is static). */
function window(c: OpContext, hw: readonly Dim[], k: [number, number], s: [number, number], d: [number, number]) {
  const pad = padding2d(c.name, c.attr('padding'), c.attr('data_format') === 'NHWC');
  if (pad.algo === 'VALID') return { pads: [0, 0, 0, 0], dilations: d };
  if (pad.algo === 'EXPLICIT') { const [t, b, l, r] = pad.pads; return { pads: [t, l, b, r], dilations: d }; }
  // SAME: out = ceil(in / stride), the extra pad at the end, and Paddle drops the dilation.
  if (hw.every((n) => typeof n === 'number')) {
    const same = (n: number, kk: number, ss: number) => { const sum = Math.max((Math.ceil(n / ss) - 1) * ss + kk - n, 0); return [Math.floor(sum / 2), sum - Math.floor(sum / 2)]; };
    const [t, b] = same(hw[0] as number, k[0], s[0]), [l, r] = same(hw[1] as number, k[1], s[1]);
    return { pads: [t, l, b, r], dilations: [1, 1] };
  }
  return { auto_pad: 'SAME_UPPER', dilations: [1, 1] };
}

/** Conv (bias as its third input) on NCHW x, then `act` on the result: conv2d and fused_conv2d_add_act. */
function conv(c: OpContext, act: (y: string) => string): void {
  const w = c.shape(1);
  if (w.length !== 4 || !w.every((d) => typeof d === 'number')) c.fail(`weight must be a static 4-D tensor, got [${w.join(', ')}]`);
  const k: [number, number] = [w[2] as number, w[3] as number];
  const strides = pair(c, 'stride', c.attr('stride')), dil = pair(c, 'dilation', c.attr('dilation'));
  channelFirst(c, (x, hw) => {
    const win = window(c, hw, k, strides, dil);
    const ins = [x, c.in(1)];
    if (c.has(2)) ins.push(c.g.reshapeTo(c.in(2), c.shape(2), [w[0]], c.name));
    return act(c.g.op('Conv', ins, { kernel_shape: k, strides, group: c.attr<number>('groups'), ...win }));
  });
}
convert('conv2d', (c) => conv(c, (y) => y));
// The fused op decomposes again: ONNX Runtime fuses Conv + (Add +) Relu/Clip itself. The
// residual (operand 3) is added before the activation, in NCHW like the conv's result.
convert('fused_conv2d_add_act', (c) => {
  const act = c.attr<string>('activation');
  const res = (y: string) => {
    if (!c.has(3)) return y;
    const r = c.attr('data_format') === 'NHWC' ? c.g.op('Transpose', [c.in(3)], { perm: TO_NCHW }) : c.in(3);
    return c.g.op('Add', [y, r]);
  };
  const clip = (y: string) => c.g.op('Clip', [res(y), c.g.scalar(c.outDtype(), 0), c.g.scalar(c.outDtype(), 6)]);
  if (act === 'identity') conv(c, res);
  else if (act === 'relu') conv(c, (y) => c.g.op('Relu', [res(y)]));
  else if (act === 'relu6') conv(c, clip);
  else if (act === 'hardswish') conv(c, (y) => c.g.op('HardSwish', [res(y)]));
  else c.fail(`activation '${act}' has no ONNX conversion`);
});

convert(['max_pool2d', 'avg_pool2d'], (c) => {
  if (c.name === 'max_pool2d' && c.attr('return_mask') && c.used(1)) c.fail('the mask output (return_mask=True) has no ONNX conversion');
  const k = pair(c, 'kernel_size', c.attr('kernel_size'));
  const sv = c.attr('stride');
  const strides = sv === null ? k : pair(c, 'stride', sv);
  channelFirst(c, (x, hw) => {
    const { dilations: _d, ...win } = window(c, hw, k, strides, [1, 1]);
    const attrs: Record<string, never> = { kernel_shape: k, strides, ceil_mode: c.attr('ceil_mode') ? 1 : 0, ...win } as never;
    if (c.name === 'max_pool2d') return c.g.op('MaxPool', [x], attrs);
    if (c.attr('divisor_override') !== null) c.fail('divisor_override has no ONNX conversion');
    return c.g.op('AveragePool', [x], { ...attrs, count_include_pad: c.attr('exclusive') ? 0 : 1 });
  });
});

convert(['adaptive_avg_pool2d', 'adaptive_max_pool2d'], (c) => {
  const max = c.name === 'adaptive_max_pool2d';
  if (max && c.attr('return_mask') && c.used(1)) c.fail('the mask output (return_mask=True) has no ONNX conversion');
  const o = c.outShape(0);
  const body = (x: string, hw: readonly Dim[]): string => {
    const nhwc = !max && c.attr('data_format') === 'NHWC';
    const out = nhwc ? [o[1], o[2]] : [o[2], o[3]];
    if (out[0] === 1 && out[1] === 1) return c.g.op(max ? 'GlobalMaxPool' : 'GlobalAveragePool', [x]);
    // Other sizes are a plain pool when every output cell covers the same window.
    if (hw.every((d) => typeof d === 'number') && out.every((d, i) => typeof d === 'number' && (hw[i] as number) % d === 0)) {
      const k = hw.map((d, i) => (d as number) / (out[i] as number));
      return c.g.op(max ? 'MaxPool' : 'AveragePool', [x], { kernel_shape: k, strides: k });
    }
    // Uneven windows (VGG's 7x7 pool on a small image): Paddle's cell i covers
    // [floor(i*H/oh), ceil((i+1)*H/oh)); pooling is separable, so one axis at a time.
    if (hw.every((d) => typeof d === 'number') && out.every((d) => typeof d === 'number')) {
      let y = x;
      for (const ax of [0, 1]) {
        const n = hw[ax] as number, m = out[ax] as number, axis = ax + 2;
        const cells = Array.from({ length: m }, (_, i) => {
          const s = Math.floor((i * n) / m), e = Math.ceil(((i + 1) * n) / m);
          const part = c.g.op('Slice', [y, c.g.ints([s]), c.g.ints([e]), c.g.ints([axis])]);
          const red = max ? 'ReduceMax' : 'ReduceMean';  // axes are an input from opset 18
          return c.opset >= 18 ? c.g.op(red, [part, c.g.ints([axis])], { keepdims: 1 }) : c.g.op(red, [part], { axes: [axis], keepdims: 1 });
        });
        y = cells.length === 1 ? cells[0] : c.g.op('Concat', cells, { axis });
      }
      return y;
    }
    return c.fail(`input spatial size [${hw.join(', ')}] and output size [${out.join(', ')}] must be static unless the output is 1x1`);
  };
  if (max) { const s = c.shape(0); c.out(body(c.in(0), [s[2], s[3]])); } else channelFirst(c, body);
});

const CHANNEL_LAST = new Set(['NHWC', 'NLC', 'NDHWC', 'NWC']);

convert('batch_norm', (c) => {
  if (c.attr('training') && !c.attr('use_global_stats')) c.fail('training-mode batch_norm cannot be exported; export the layer in eval mode');
  const r = c.rank(0);
  const last = CHANNEL_LAST.has(c.attr<string>('data_format')) && r > 2;
  const C = c.shape(0)[last ? r - 1 : 1];
  const dt = c.dtype(0);
  const param = (i: number, fill: number): string => {
    if (c.has(i)) return c.in(i);
    const n = typeof C === 'number' ? C : c.fail(`channel dim must be static without ${i === 3 ? 'weight' : 'bias'}`);
    return c.g.constant(dt, [n], new Array(n).fill(fill), i === 3 ? 'bn_scale' : 'bn_bias');
  };
  const toFirst = [0, r - 1, ...Array.from({ length: r - 2 }, (_, i) => i + 1)];
  const toLast = [0, ...Array.from({ length: r - 2 }, (_, i) => i + 2), 1];
  const x = last ? c.g.op('Transpose', [c.in(0)], { perm: toFirst }) : c.in(0);
  const y = c.g.op('BatchNormalization', [x, param(3, 1), param(4, 0), c.in(1), c.in(2)], { epsilon: f32attr(c.attr<number>('epsilon')) });
  c.out(last ? c.g.op('Transpose', [y], { perm: toLast }) : y);
  // In inference the statistics outputs are the running statistics.
  if (c.used(1)) c.out(c.g.op('Identity', [c.in(1)]), 1);
  if (c.used(2)) c.out(c.g.op('Identity', [c.in(2)]), 2);
});

convert('layer_norm', (c) => {
  if (c.used(1) || c.used(2)) c.fail('the mean/variance outputs have no ONNX conversion');
  const s = c.shape(0);
  const axis = normAxis(c.attr<number>('begin_norm_axis'), s.length);
  const norm = s.slice(axis);
  if (!norm.every((d) => typeof d === 'number')) c.fail(`normalized dims [${norm.join(', ')}] must be static`);
  const n = (norm as number[]).reduce((a, b) => a * b, 1);
  const dt = c.dtype(0);
  // Paddle's scale and bias are flat [prod(normalized dims)]; ONNX wants them in the normalized shape.
  const param = (i: number, fill: number): string => (c.has(i)
    ? c.g.reshapeTo(c.g.cast(c.in(i), c.dtype(i), dt), c.shape(i), norm, c.name)
    : c.g.constant(dt, norm as number[], new Array(n).fill(fill), i === 1 ? 'ln_scale' : 'ln_bias'));
  c.out(c.g.op('LayerNormalization', [c.in(0), param(1, 1), param(2, 0)], { axis, epsilon: f32attr(c.attr<number>('epsilon')) }));
});

convert('embedding', (c) => {
  const w = c.shape(1);
  let y = c.g.op('Gather', [c.in(1), c.in(0)], { axis: 0 });
  let pad = c.attr<number | null>('padding_idx');
  if (pad !== null && pad < 0 && typeof w[0] === 'number') pad += w[0];
  if (pad !== null && pad >= 0) {
    // Paddle's embedding outputs zeros at padding_idx.
    const keep = c.g.op('Not', [c.g.op('Equal', [c.in(0), c.g.scalar(c.dtype(0), pad)])]);
    y = c.g.op('Where', [c.g.op('Unsqueeze', [keep, c.g.ints([-1])]), y, c.g.scalar(c.outDtype(), 0)]);
  }
  c.out(y);
});

convert('gather', (c) => {
  const a = c.attr<number | null>('axis');
  c.out(c.g.op('Gather', [c.in(0), c.in(1)], { axis: a === null ? 0 : normAxis(a, c.rank(0)) }));
});

/** softmax(Q K^T / sqrt(D) + mask) V on [batch, seq, heads, dim] tensors. */
function attention(c: OpContext, g: OnnxGraph): string {
  if (c.attr('training') && c.attr<number>('dropout_p') > 0) c.fail('attention dropout in training mode cannot be exported');
  const D = c.shape(0)[3];
  if (typeof D !== 'number') c.fail('head_dim must be static');
  const dt = c.dtype(0);
  const qt = g.op('Transpose', [c.in(0)], { perm: [0, 2, 1, 3] });
  const kt = g.op('Transpose', [c.in(1)], { perm: [0, 2, 3, 1] });
  const vt = g.op('Transpose', [c.in(2)], { perm: [0, 2, 1, 3] });
  let s = g.op('Mul', [g.op('MatMul', [qt, kt]), g.scalar(dt, 1 / Math.sqrt(D))]);
  if (c.has(3)) {
    s = c.dtype(3) === 'bool'
      ? g.op('Where', [c.in(3), s, g.scalar(dt, -Infinity)])
      : g.op('Add', [s, g.cast(c.in(3), c.dtype(3), dt)]);
  }
  if (c.attr('is_causal')) {
    const sq = c.shape(0)[1], sk = c.shape(1)[1];
    if (typeof sq !== 'number' || typeof sk !== 'number') c.fail('is_causal needs static sequence lengths');
    const m: number[] = [];
    for (let i = 0; i < sq; i++) for (let j = 0; j < sk; j++) m.push(j > i ? -Infinity : 0);
    s = g.op('Add', [s, g.constant(dt, [sq, sk], m, 'causal_mask')]);
  }
  return g.op('Transpose', [g.op('MatMul', [g.op('Softmax', [s], { axis: -1 }), vt])], { perm: [0, 2, 1, 3] });
}
convert('scaled_dot_product_attention', (c) => c.out(attention(c, c.g)));
