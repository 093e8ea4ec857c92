// Package entry: `import { paddle } from 'skiff'` or `import * as paddle from 'skiff'`.
export { paddle } from '../src/paddle.js';
export { paddle as default } from '../src/paddle.js';
export { Tensor, scope, memoryStats } from '../src/tensor/tensor.js';
export { to_tensor } from '../src/tensor/creation.js';
export * from './paddle_exports.generated.js';

// paddle.jit.to_static for TS/JS functions and layers lives in the frontend (src never imports frontend).
import { paddle as _paddle } from '../src/paddle.js';
import { to_static as _to_static } from './js/index.js';
import { capture_control_flow as _capture_control_flow } from './js/control_flow.js';
import { show as _show, explain as _explain, render as _render } from './js/show.js';
const _sotViewer = { show: _show, explain: _explain, render: _render };
{
  const jit = ((_paddle as Record<string, unknown>).jit ??= {}) as Record<string, unknown>;
  if (!('to_static' in jit)) jit.to_static = _to_static;
  // paddle.jit.sot.show / explain / render: the graph viewer for translated JS functions.
  const sot = (jit.sot ??= {}) as Record<string, unknown>;
  for (const [k, v] of Object.entries(_sotViewer)) if (!(k in sot)) sot[k] = v;
  // paddle.jit.marker.capture_control_flow: tensor-valued if/while become if/while nodes (docs/js_frontend.md).
  const marker = (jit.marker ??= {}) as Record<string, unknown>;
  if (!('capture_control_flow' in marker)) marker.capture_control_flow = _capture_control_flow;
}
export { to_static, StaticFunction, JsStrictModeError } from './js/index.js';
export { capture_control_flow } from './js/control_flow.js';
