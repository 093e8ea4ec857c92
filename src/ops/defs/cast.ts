// cast(x, dtype): converts between every pair of dtypes. Native: native/kernels/cast.cc.
import { registerOp } from '../registry.js';
import { setCastImpl } from '../api.js';
import { runOp } from '../dispatch.js';
import { DTYPE_CODE, toDType } from '../../tensor/dtype.js';
import { kit } from '../grad_kit.js';

export const cast = registerOp({
  name: 'cast',
  inputs: [{ name: 'x' }],
  attrs: [{ name: 'dtype', type: 'dtype' }],
  outputs: ['out'],
  infer: (ins, a) => [{ dtype: toDType(a.dtype as string), shape: ins[0].shape }],
  encode: (a) => [DTYPE_CODE[toDType(a.dtype as string)]],
  // Back to the input's dtype; integer/bool inputs get none (the tape never asks for them).
  gradReads: {},
  grad: ({ inputs: [x], outGrads: [g] }, ops) => { const k = kit(ops); return [k.cast(g!, k.dtype(x!))]; },
  api: { names: ['cast'], methods: ['cast', 'astype'] },
});

setCastImpl((x, dt) => runOp('cast', [x], { dtype: dt })[0]);
