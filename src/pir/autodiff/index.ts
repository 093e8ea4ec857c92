// Program autodiff: reverse-mode differentiation of PIR programs from the registry's gradient
// rules (see backward.ts), as a joint forward+backward program or a separate backward program;
// control flow (pd_op.if, pd_op.while) through the rules in control_flow.ts.
import './control_flow.js';
export { gradients, GradEmitter, registerVjp, hasCustomVjp, SHAPE_ONLY } from './backward.js';
export type { GradOptions, VjpRule } from './backward.js';
export { appendBackward, backwardProgram } from './program.js';
export type { BackwardFeed, BackwardProgram } from './program.js';
