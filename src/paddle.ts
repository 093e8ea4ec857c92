// Assembles the `paddle` namespace from the op registry plus hand-written pieces.
import { surface } from './ops/index.js';
import { Tensor, scope, memoryStats } from './tensor/tensor.js';
import { to_tensor } from './tensor/creation.js';
import { set_printoptions } from './tensor/format.js';
import { native } from './native.js';
import { seed, get_rng_state, Generator, randomPublic } from './ops/defs/random.js';
import { normPublic } from './ops/defs/nn_norm.js';
import { normMorePublic } from './ops/defs/nn_norm_more.js';
import { lossPublic } from './ops/defs/nn_loss_more.js';
import * as nn from './nn/index.js';
import * as optimizer from './optimizer/index.js';
import { normFunctions } from './ops/defs/reduce_norm.js';
import { advIndexPublic } from './ops/adv_index.js';
import { orderFunctions } from './ops/defs/reduce_order.js';
import { linalgDecompPublic } from './ops/defs/linalg_decomp_api.js';
import { randomMorePublic } from './ops/defs/random_more.js';
import { specialMorePublic } from './ops/defs/special_more.js';
import { einsumPublic } from './ops/defs/einsum.js';
import { shapeMorePublic } from './ops/defs/shape_more_api.js';
import { matrixMorePublic } from './ops/defs/matrix_more_api.js';
import { transformerPublic } from './ops/defs/nn_transformer.js';
import { fracPoolPublic } from './ops/defs/nn_pool_frac.js';
import { disable_static, enable_static, in_dynamic_mode, staticNamespace } from './static/index.js';
import { profilerNamespace } from './profiler/index.js';
import { enable_grad, grad, is_grad_enabled, no_grad, PyLayer, PyLayerContext, set_grad_enabled } from './autograd/index.js';
import { backwardAll } from './autograd/api.js';
import * as io from './io/index.js';
import { jitPublic } from './jit/index.js';
import { onnxNamespace } from './jit/onnx/index.js';

type Namespace = { [k: string]: any };

/** Nests 'nn.functional.relu' into paddle.nn.functional.relu. */
function nest(target: Namespace, path: string, value: unknown): void {
  const parts = path.split('.');
  let o = target;
  for (const p of parts.slice(0, -1)) o = (o[p] ??= {});
  const last = parts[parts.length - 1];
  if (!(last in o)) o[last] = value;
}

export const paddle: Namespace = {
  Tensor,
  to_tensor,
  set_printoptions,
  scope,
  seed,
  get_rng_state,
  Generator,
  memory: memoryStats,
  set_num_threads: (n: number) => native.numThreads(n),
  get_num_threads: () => native.numThreads(),
  is_tensor: (x: unknown) => x instanceof Tensor,
  in_dynamic_mode, enable_static, disable_static, static: staticNamespace,
  profiler: profilerNamespace,
  grad, no_grad, enable_grad, set_grad_enabled, is_grad_enabled,
  autograd: { PyLayer, PyLayerContext, grad, backward: backwardAll, no_grad, enable_grad, set_grad_enabled, is_grad_enabled },
  get_device: () => 'cpu',
  set_device: (d: string) => { if (d !== 'cpu') throw new Error(`set_device: only 'cpu' is available, got '${d}'`); return 'cpu'; },
  float32: 'float32', float64: 'float64', int32: 'int32', int64: 'int64', bool: 'bool',
  int8: 'int8', uint8: 'uint8', float16: 'float16', bfloat16: 'bfloat16',
};

for (const [name, fn] of surface.functions) nest(paddle, name, fn);
for (const [name, fn] of Object.entries({ ...randomPublic, ...normPublic, ...normMorePublic, ...lossPublic })) nest(paddle, name, fn);
// paddle.nn layers and initializers (TS classes; the math is in registry ops)
// (src/nn also exports these functional compositions of registry ops, and paddle.summary)
const NN_FUNCTIONAL = new Set(['linear', 'bilinear', 'dropout2d', 'dropout3d', 'alpha_dropout']);
for (const [name, v] of Object.entries(nn)) {
  if (NN_FUNCTIONAL.has(name)) nest(paddle, `nn.functional.${name}`, v);
  else if (name === 'summary') nest(paddle, 'summary', v);
  else if (name === 'ParamAttr') { paddle.ParamAttr = v; nest(paddle, 'nn.ParamAttr', v); }
  else if (name !== 'isParameter' && name !== 'makeParameter') nest(paddle, `nn.${name}`, v);
}
// paddle.optimizer (+ .lr), clipping under paddle.nn, regularizers under paddle.regularizer
for (const [name, v] of Object.entries(optimizer)) {
  if (name === 'lr') for (const [k, s] of Object.entries(v as object)) nest(paddle, `optimizer.lr.${k}`, s);
  else if (name.startsWith('ClipGrad')) nest(paddle, `nn.${name}`, v);
  else if (name.endsWith('Decay')) nest(paddle, `regularizer.${name}`, v);
  else nest(paddle, `optimizer.${name}`, v);
}
for (const [name, fn] of Object.entries({ ...normFunctions, ...orderFunctions })) nest(paddle, name, fn);
for (const [name, fn] of Object.entries(advIndexPublic)) nest(paddle, name, fn);  // paddle.nonzero (src/ops/adv_index.ts)
// issue 6: inplace random fills, multigammaln, einsum (hand-written over registry ops)
for (const [name, fn] of Object.entries({ ...randomMorePublic, ...specialMorePublic, ...einsumPublic })) nest(paddle, name, fn);
// paddle.linalg.pca_lowrank / cond (composites over svd, qr, pinv)
for (const [name, fn] of Object.entries(linalgDecompPublic)) nest(paddle, name, fn);
// paddle.meshgrid / repeat_interleave (hand-bound: varargs, int-or-tensor repeats)
for (const [name, fn] of Object.entries(shapeMorePublic)) nest(paddle, name, fn);
// paddle.atleast_1d/2d/3d (varargs) and paddle.amp.debugging.check_numerics; Tensor.fill_diagonal_
for (const [name, fn] of Object.entries(matrixMorePublic)) nest(paddle, name, fn);
// F.scaled_dot_product_attention, F.rms_norm, incubate fused_rms_norm, F.fractional_max_pool2d/3d (hand-bound: dropout path, argument order, random_u draw)
for (const [name, fn] of Object.entries({ ...transformerPublic, ...fracPoolPublic })) nest(paddle, name, fn);
// paddle.jit.save / load and paddle.inference (src/jit)
for (const [name, v] of Object.entries(jitPublic)) nest(paddle, name, v);
nest(paddle, 'onnx.export', onnxNamespace.export);  // paddle.onnx.export (src/jit/onnx)
io.mountIo(paddle, io);  // paddle.io and paddle.vision.datasets.MNIST (src/io)
