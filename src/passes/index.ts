// Passes over PIR: the pattern rewriter and greedy driver, DRR rules, DCE, CSE, constant
// folding, canonicalization, the gemm-epilogue fusion, and the pass manager. See docs/passes.md.
export * from './rewriter.js';
export * from './greedy.js';
export * from './drr.js';
export * from './dce.js';
export * from './cse.js';
export * from './constant_fold.js';
export * from './canonicalize.js';
export * from './fuse_gemm.js';
export * from './fuse_conv_act.js';
export * from './fuse_training.js';
export * from './fuse_softmax_mask.js';
export * from './fold_conv_bn.js';
export * from './fold_params.js';
export * from './fuse_layer_norm.js';
export * from './fuse_attention.js';
export * from './param_values.js';
export * from './pass_manager.js';
export * from './symbolic_shapes.js';
