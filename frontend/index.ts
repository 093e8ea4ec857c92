// Package entry: `import { paddle } from 'skiff'` or `import * as paddle from 'skiff'`.
export { paddle } from '../src/paddle.js';
export { paddle as default } from '../src/paddle.js';
export { Tensor, scope, memoryStats } from '../src/tensor/tensor.js';
export { to_tensor } from '../src/tensor/creation.js';
export * from './paddle_exports.generated.js';
