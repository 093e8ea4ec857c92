// Package entry: `import { paddle } from 'skiff'` or `import * as paddle from 'skiff'`.
export { paddle } from '../src/paddle.js';
export { paddle as default } from '../src/paddle.js';
export { Tensor, scope, memoryStats } from '../src/tensor/tensor.js';
export { to_tensor } from '../src/tensor/creation.js';
export * from './paddle_exports.generated.js';

// paddle.jit.to_static for TS/JS functions and layers lives in the frontend (src never imports frontend).
import { paddle as _paddle } from '../src/paddle.js';
import { to_static as _to_static } from './js/index.js';
{
  const jit = ((_paddle as Record<string, unknown>).jit ??= {}) as Record<string, unknown>;
  if (!('to_static' in jit)) jit.to_static = _to_static;
}
export { to_static, StaticFunction, JsStrictModeError } from './js/index.js';
