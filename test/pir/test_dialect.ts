// A `test` dialect for PIR tests: a loop-like op whose region blocks must end in builtin.yield,
// showing how users register dialects. Importing this module registers it once per process.
import { defineOpKind, getDialect, type Operation, registerDialect, tableDialect } from '../../src/pir/index.js';

/** `test.loop`: one region; its results are what the body yields (not checked here). */
export const loopOp = defineOpKind({
  name: 'test.loop',
  numRegions: 1,
  requiresTerminator: true,
  verify: (op: Operation) => (op.regions[0]?.blocks.length ? [] : ['the body region needs a block']),
});

if (!getDialect('test')) registerDialect(tableDialect('test', [loopOp]));
