// The Python suite under Python 3.10 (Pyodide from the npm alias py310): test/python/cases/*.py
// and the eager parity table, each Python test reported as its own vitest test.
import { definePythonSuite } from './harness.js';

await definePythonSuite('3.10');
