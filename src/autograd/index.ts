// Eager autograd (Paddle 2.6 dygraph semantics): importing this module installs the tape
// recorder and the Tensor members. See engine.ts for the backward pass, node.ts for lifetimes.
import { installTape } from './record.js';
import { installTensorAutograd } from './api.js';

installTape();
installTensorAutograd();

export { backward, grad, type HookHandle } from './api.js';
export { enable_grad, isGradEnabled, isGradEnabled as is_grad_enabled, no_grad, noGradFn, set_grad_enabled, setGradEnabled } from './mode.js';
export { tapeStats } from './node.js';
export { PyLayer, PyLayerContext, recordPyLayer } from './pylayer.js';
