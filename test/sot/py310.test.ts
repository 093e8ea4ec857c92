// The translator's suite under Python 3.10: test/sot/cases/test_*.py, each translated function
// compared with eager (values, types, structure) plus translate counts and break codes.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { definePythonSuite } from '../python/harness.js';

process.env.MIN_GRAPH_SIZE ??= '0';

// 3.10 has no exception table: try/except/finally and `with` push handlers on a block stack
// (SETUP_FINALLY, SETUP_WITH, POP_BLOCK), which the translator reads as a static handler table
// (compat/paddle/jit/sot/block_stack.py), so the exception cases run translated here as on 3.11+.
const skip: Record<string, string> = {};

await definePythonSuite('3.10', { casesDir: join(dirname(fileURLToPath(import.meta.url)), 'cases'), parity: false, title: 'SOT on Python', skip });
