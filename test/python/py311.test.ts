// The Python suite under Python 3.11 (Pyodide from the npm alias py311): test/python/cases/*.py
// and the eager parity table, each Python test reported as its own vitest test.
import { definePythonSuite } from './harness.js';

await definePythonSuite('3.11');
