// Runs a golden autodiff file (test/pir_autodiff/golden/*.pir). The first line says what to do:
//   // RUN: append_backward <fetch> wrt <name>,<name>   joint program: gradient ops appended,
//                                                       each gradient fetched as `<name>@GRAD`
//   // RUN: backward_program <fetch> wrt <name>,...     the separate backward program
// <fetch> names the pd_op.fetch whose operand is the target; inputs are data or parameter names.
// `npx tsx test/pir_autodiff/golden.ts <file>` prints a file's output.
import { readFileSync } from 'node:fs';
import { appendBackward, backwardProgram } from '../../src/pir/autodiff/index.js';
import { Builder, parseProgram, printProgram, type Program, type Value, verify } from '../../src/pir/index.js';

function named(p: Program, name: string): Value {
  for (const op of p.block.ops) {
    const a = op.attr(op.name === 'builtin.parameter' ? 'parameter_name' : 'name');
    if (a?.kind !== 'str' || a.value !== name) continue;
    if (op.name === 'pd_op.fetch') return op.operand(0)!;
    if (op.name === 'pd_op.data' || op.name === 'builtin.parameter') return op.result(0);
  }
  throw new Error(`golden: no fetch, data or parameter named '${name}'`);
}

/** The program printed after the RUN line's transformation. */
export function runGolden(text: string, where: string): string {
  const m = /^\s*\/\/\s*RUN:\s*(append_backward|backward_program)\s+(\S+)\s+wrt\s+(\S+)/m.exec(text);
  if (!m) throw new Error(`${where}: RUN line must be 'append_backward|backward_program <fetch> wrt <a>,<b>'`);
  const p = parseProgram(text);
  verify(p, `${where} (input)`);
  const target = named(p, m[2]);
  const names = m[3].split(',');
  const inputs = names.map((n) => named(p, n));
  if (m[1] === 'append_backward') {
    const grads = appendBackward(p, [target], inputs);
    const b = new Builder(p);
    grads.forEach((g, i) => { if (g) b.fetch(g, `${names[i]}@GRAD`); });
    verify(p, `${where} (output)`);
    return printProgram(p);
  }
  const bw = backwardProgram(p, [target], inputs);
  verify(bw.program, `${where} (backward program)`);
  return printProgram(bw.program);
}

if (process.argv[1]?.endsWith('golden.ts') && process.argv[2]) {
  console.log(runGolden(readFileSync(process.argv[2], 'utf8'), process.argv[2]));
}
