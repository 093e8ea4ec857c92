// The pass manager a golden file's RUN line asks for (shared by golden.test.ts and run_golden.ts).
import { PassManager } from '../../src/passes/index.js';

/** The pass manager a golden file asks for. */
export function managerFor(text: string, where: string): PassManager {
  const m = /^\s*\/\/\s*RUN:\s*(passes|pipeline)\s+(\S+)/m.exec(text);
  if (!m) throw new Error(`${where}: first line must be '// RUN: passes a,b,c' or '// RUN: pipeline <name>'`);
  return m[1] === 'pipeline' ? PassManager.pipeline(m[2], { verify: true }) : new PassManager(m[2].split(','), { verify: true });
}
