// paddle.optimizer (TS): optimizers, learning-rate schedules, clipping and regularizers.
import { lr as lrBase } from './lr.js';
import { lrMore } from './lr_more.js';

export { Optimizer } from './optimizer.js';
export { SGD, Momentum, Adam, AdamW, Adagrad, RMSProp } from './optimizers.js';
export { Adadelta, Adamax, Lamb } from './optimizers_more.js';
export { LRScheduler } from './lr.js';
/** paddle.optimizer.lr: lr.ts's schedules and lr_more.ts's. */
export const lr = { ...lrBase, ...lrMore };
export { ClipGradByGlobalNorm, ClipGradByNorm, ClipGradByValue, L1Decay, L2Decay } from './clip.js';
