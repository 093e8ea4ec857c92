// PIR: Skiff's SSA program IR (Paddle's PIR, MLIR-shaped). See docs/pir.md for the text form.
//
//   import { Program, Builder, printProgram, parseProgram, verify, tensorType } from '../pir/index.js';
export * from './types.js';
export * from './attributes.js';
export * from './opkind.js';
export * from './core.js';
export * from './dialects/index.js';
export * from './builder.js';
export * from './printer.js';
export * from './parser.js';
export * from './verify.js';
export * from './recorder.js';
export * from './symbolic_shapes.js';
