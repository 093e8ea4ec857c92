import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const native = require('./build/Release/skiff_native.node');
const a = native.empty(1, [1, 128]), b = native.empty(1, [128]), o = native.empty(1, [1, 128]);
const x = native.empty(1, [1, 64]), w = native.empty(1, [64, 128]);
const addId = native.kernelId('add'), mm = native.kernelId('matmul');
const e = new Float64Array(0), at = new Float64Array([0, 0]);
const which = process.argv[2];
for (let i = 0; i < 3000000; i++) {
  if (which === 'add') native.run(addId, [a, b], [o], e);
  else native.run(mm, [x, w], [o], at);
}
