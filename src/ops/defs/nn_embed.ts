// Index lookups: embedding and one_hot. Native: native/kernels/nn_embed.cc.
// Every index is checked before any output is written; the error names the bad value.
import { ShapeError, shapeStr } from '../../tensor/shape.js';
import { registerOp } from '../registry.js';
import type { Attrs, TensorMeta } from '../types.js';
import { kit } from '../grad_kit.js';

const isIndexType = (d: string) => d === 'int32' || d === 'int64';

/** Paddle: None -> -1 (no padding row); negative -> counted from the end of the vocabulary. */
function paddingIdx(a: Attrs, vocab: number | null): number {
  const p = a.padding_idx;
  if (p === null) return -1;
  if (!Number.isInteger(p)) throw new TypeError(`embedding: padding_idx must be an integer or None, got ${JSON.stringify(p)}`);
  if (vocab === null) return p as number;
  if ((p as number) >= vocab || (p as number) < -vocab) throw new RangeError(`embedding: padding_idx must be within [-${vocab}, ${vocab}), got ${p}`);
  return (p as number) < 0 ? (p as number) + vocab : (p as number);
}

/**
 * F.embedding(x, weight, padding_idx=None, sparse=False): rows of weight [V, D] gathered by the
 * int32/int64 ids x; output x.shape + [D]. The padding_idx row reads as zeros. `sparse` only
 * affects gradients in Paddle and is accepted for compatibility.
 */
export const embedding = registerOp({
  name: 'embedding',
  inputs: [{ name: 'x' }, { name: 'weight' }],
  attrs: [{ name: 'padding_idx', type: 'int', default: null }, { name: 'sparse', type: 'bool', default: false }],
  outputs: ['out'],
  infer: (ins: readonly TensorMeta[], a) => {
    const [x, w] = ins;
    if (!isIndexType(x.dtype)) throw new TypeError(`embedding: ids must be int32 or int64, got ${x.dtype}`);
    if (w.shape.length !== 2) throw new ShapeError(`embedding: weight must be 2-D [num_embeddings, embedding_dim], got ${shapeStr(w.shape)}`);
    paddingIdx(a, typeof w.shape[0] === 'number' ? w.shape[0] : null);
    return [{ dtype: w.dtype, shape: [...x.shape, w.shape[1]] }];
  },
  /** [padding_idx normalised to [0, V) or -1] */
  encode: (a, ins) => [paddingIdx(a, ins[1].shape[0] as number)],
  gradReads: { inputs: [0] },
  // dW: each position's g row added into its id's row (index_add); the padding row gets none (Paddle's rule).
  grad: ({ inputs: [ids, w], outGrads: [g], attrs }, ops) => {
    const k = kit(ops);
    const [V, D] = k.shape(w!);
    const n = k.shape(ids!).reduce((a, b) => a * b, 1);
    const flat = k.reshape(ids!, [n]);
    let rows = k.reshape(g!, [n, D]);
    const pad = paddingIdx(attrs, V);
    if (pad >= 0) rows = k.mask(k.op('unsqueeze', [k.cmp('not_equal', flat, k.full([], pad, k.dtype(ids!)))], { axis: [-1] }), rows);
    return [null, k.op('index_add', [k.zerosOf(w!), flat, rows], { axis: 0 })];
  },
  api: { names: ['nn.functional.embedding'] },
});

/** F.one_hot(x, num_classes): float32 of shape x.shape + [num_classes]. */
export const one_hot = registerOp({
  name: 'one_hot',
  inputs: [{ name: 'x' }],
  attrs: [{ name: 'num_classes', type: 'int' }],
  outputs: ['out'],
  infer: (ins, a) => {
    const x = ins[0];
    if (!isIndexType(x.dtype)) throw new TypeError(`one_hot: x must be int32 or int64, got ${x.dtype}`);
    const n = a.num_classes as number;
    if (!Number.isInteger(n) || n < 0) throw new RangeError(`one_hot: num_classes must be a non-negative integer, got ${JSON.stringify(a.num_classes)}`);
    return [{ dtype: 'float32', shape: [...x.shape, n] }];
  },
  api: { names: ['nn.functional.one_hot'] },
});
