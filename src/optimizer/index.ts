// paddle.optimizer (TS): optimizers, learning-rate schedules, clipping and regularizers.
export { Optimizer } from './optimizer.js';
export { SGD, Momentum, Adam, AdamW, Adagrad, RMSProp } from './optimizers.js';
export { lr, LRScheduler } from './lr.js';
export { ClipGradByGlobalNorm, ClipGradByNorm, ClipGradByValue, L1Decay, L2Decay } from './clip.js';
