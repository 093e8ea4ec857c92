// Elementwise binary ops with broadcasting. Inputs are promoted to one dtype by the API layer,
// so kernels see equal dtypes. Native: native/kernels/binary_*.cc.
import { registerOp } from '../registry.js';
import { broadcastBinary } from '../infer.js';
import type { OpDef } from '../types.js';

function binary(name: string, out: 'same' | 'bool', extra: Partial<OpDef> = {}): OpDef {
  return registerOp({
    name,
    inputs: [{ name: 'x' }, { name: 'y' }],
    attrs: [],
    outputs: ['out'],
    infer: broadcastBinary(name, out),
    api: { promote: true },
    inplace: out === 'same',
    ...extra,
  });
}

export const add = binary('add', 'same');
