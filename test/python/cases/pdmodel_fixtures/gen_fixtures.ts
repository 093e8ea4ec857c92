// Writes the Paddle .pdmodel fixtures test_pdmodel.py loads: an MLP in legacy ops (mul,
// elementwise_add with axis, relu, matmul_v2, softmax) whose weights are closed-form
// (sin / cos of the indices), so Python recomputes the expected output with numpy alone.
//   Run: npx tsx test/python/cases/pdmodel_fixtures/gen_fixtures.ts
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { paddle } from '../../../../src/paddle.js';
import { PdModelBuilder } from '../../../jit/pdmodel_builder.js';

const here = dirname(fileURLToPath(import.meta.url));
/** w[i, j] = f(a * i + b * j), float32 (the same formula as test_pdmodel.py's _w). */
const w = (rows: number, cols: number, a: number, b: number, f: (x: number) => number) =>
  paddle.to_tensor(Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => f(a * i + b * j))), 'float32');

const b = new PdModelBuilder();
b.feed('x', [-1, 6]);
b.param('fc_0.w_0', w(6, 8, 0.37, 0.11, Math.sin));
b.param('fc_0.b_0', paddle.reshape(w(1, 8, 0, 0.5, Math.cos), [8]));
b.param('fc_1.w_0', w(8, 3, 0.23, 0.71, Math.sin));
b.param('fc_1.b_0', paddle.reshape(w(1, 3, 0, 0.9, Math.cos), [3]));
b.op('mul', { X: 'x', Y: 'fc_0.w_0' }, { Out: 'h0' }, { x_num_col_dims: 1, y_num_col_dims: 1 });
b.op('elementwise_add', { X: 'h0', Y: 'fc_0.b_0' }, { Out: 'h1' }, { axis: 1 });
b.op('relu', { X: 'h1' }, { Out: 'h2' });
b.op('matmul_v2', { X: 'h2', Y: 'fc_1.w_0' }, { Out: 'h3' }, { trans_x: false, trans_y: false });
b.op('elementwise_add', { X: 'h3', Y: 'fc_1.b_0' }, { Out: 'h4' }, { axis: -1 });
b.op('softmax', { X: 'h4' }, { Out: 'prob' }, { axis: -1 });
b.fetch('prob');
b.write(join(here, 'mlp'));
console.log(`wrote ${join(here, 'mlp')}.pdmodel / .pdiparams`);
