// The translator's suite under Python 3.11: test/sot/cases/test_*.py, each translated function
// compared with eager (values, types, structure) plus translate counts and break codes.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { definePythonSuite } from '../python/harness.js';

process.env.MIN_GRAPH_SIZE ??= '0';
await definePythonSuite('3.11', { casesDir: join(dirname(fileURLToPath(import.meta.url)), 'cases'), parity: false, title: 'SOT on Python' });
