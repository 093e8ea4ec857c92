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
export * from './pass_manager.js';
