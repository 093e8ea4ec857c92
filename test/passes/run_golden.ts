// Prints a golden file's program after its passes (a helper for writing CHECK lines):
//   npx tsx test/passes/run_golden.ts test/passes/golden/dce.pir
import { readFileSync } from 'node:fs';
import { parseProgram, printProgram } from '../../src/pir/index.js';
import { formatPassStats } from '../../src/passes/index.js';
import { managerFor } from './golden_manager.js';
import '../pir/test_dialect.js';

const f = process.argv[2];
const text = readFileSync(f, 'utf8');
const p = parseProgram(text);
const m = managerFor(text, f);
m.run(p);
process.stdout.write(printProgram(p));
process.stderr.write(`${formatPassStats(m.stats)}\n`);
