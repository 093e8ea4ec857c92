// The op registry with every definition loaded, and the derived public surface.
import './defs/index.js';
import { buildSurface, installTensorMethods, type PublicSurface } from './api.js';

export const surface: PublicSurface = buildSurface();
installTensorMethods(surface);

export { allOps, getOp, hasOp } from './registry.js';
export { runOp, runOpDef, runOpInplace, dispatchCounters, setStaticRecorder, setAutogradHook } from './dispatch.js';
export { callOp } from './api.js';
export { set_item, indexPlan } from './setitem.js';
export { get_item, set_item_adv, setitem, nonzero, advIndexPublic, IndexError, type AdvIndexItem } from './adv_index.js';
export type { OpDef, TensorMeta, Attrs } from './types.js';
