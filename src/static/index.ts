// paddle.static: build PIR programs with the same API calls as eager code, run them on the
// native executor. See docs/DEVELOPING.md ("Executor and paddle.static").
//
//   paddle.enable_static();
//   const main = new paddle.static.Program();
//   const y = paddle.static.program_guard(main, () => paddle.nn.functional.relu(paddle.matmul(paddle.static.data('x', [null, 4]), w)));
//   const [out] = new paddle.static.Executor().run(main, { feed: { x }, fetch_list: [y] });
import { setitem, surface } from '../ops/index.js';
import { type AdvIndexItem, get_item } from '../ops/adv_index.js';
import { Value } from '../pir/index.js';
import { bindParameter, create_parameter, data } from './api.js';
import { append_backward, gradients } from './backward.js';
import { cond, staticNn, while_loop } from './control_flow.js';
import { Executor, prune, staticExecutorStats } from './executor.js';
import {
  currentProgram, default_main_program, default_startup_program, disable_static, enable_static, in_dynamic_mode, in_static_mode,
  program_guard, ProgramGuard,
} from './mode.js';
import { nameOfValue, Program } from './program.js';
import { global_scope, Scope } from './scope.js';

export {
  bindParameter, create_parameter, currentProgram, data, default_main_program, default_startup_program, disable_static, enable_static,
  append_backward, cond, Executor, global_scope, gradients, in_dynamic_mode, in_static_mode, nameOfValue, Program, program_guard, ProgramGuard, prune, Scope, staticExecutorStats, while_loop,
};
export type { DataDim, CreateParameterOptions, Initializer, ParamAttr } from './api.js';
export type { FeedValue, FetchTarget, RunOptions } from './executor.js';

/** The `paddle.static` namespace. */
export const staticNamespace = {
  Program, program_guard, data, create_parameter, Executor, Scope, global_scope,
  default_main_program, default_startup_program, Variable: Value, append_backward, gradients, nn: staticNn,
  cpu_places: (n = 1): string[] => Array.from({ length: n }, () => 'cpu'),
  setitem,  // x[index] = value out of place (src/ops/adv_index.ts)
};

// Program values get the Tensor methods the registry generates (x.matmul(w).relu()) and
// Paddle's Variable.name, so code written for eager tensors builds programs unchanged. Names
// the IR class already defines are left alone.
for (const [m, fn] of surface.methods) {
  if (m in Value.prototype) continue;
  Object.defineProperty(Value.prototype, m, {
    value: function (this: Value, ...args: unknown[]) { return fn(this, ...args); },
    writable: true, configurable: true,
  });
}
// x.get(...items) (src/ops/adv_index.ts): indexing works on traced values as on tensors (BERT's
// pooler takes h.get(':', 0)); basic items keep symbolic dims.
if (!('get' in Value.prototype)) {
  Object.defineProperty(Value.prototype, 'get', {
    value: function (this: Value, ...items: AdvIndexItem[]) { return get_item(this as never, items.length === 1 && typeof items[0] === 'string' ? items[0].split(',') : items); },
    writable: true, configurable: true,
  });
}
// Tensor.ndim, which model code checks before using an input (BertModel), so a Layer's
// forward records unchanged (paddle.onnx.export, jit.save).
if (!('ndim' in Value.prototype)) {
  Object.defineProperty(Value.prototype, 'ndim', { get(this: Value) { return this.shape.length; }, configurable: true });
}
if (!('name' in Value.prototype)) {
  Object.defineProperty(Value.prototype, 'name', { get(this: Value) { return nameOfValue(this) ?? `value_${this.id}`; }, configurable: true });
}
