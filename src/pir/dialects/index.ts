// Registers the dialects Skiff ships (importing this module is enough).
export * from './builtin.js';
export * from './pd_op.js';
export * from './control_flow.js';
export * from './shape.js';
export * from './pylayer.js';
