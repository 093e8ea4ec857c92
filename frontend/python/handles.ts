// Python holds tensors as small integer handles into this table. A handle is a slot index,
// negated for tensors of at least BIG_BYTES so Python frees those at once instead of batching
// (compat/paddle/_bridge.py).
//
// Ops hand the bridge fresh Tensor objects, so a slot normally owns its tensor alone. The one
// way a result can be an object Python already holds is an op returning one of its inputs:
// the bridge passes those through `share`, which counts the extra reference on the input's
// slot, so disposing needs every Python reference gone.
import { ITEMSIZE } from '../../src/tensor/dtype.js';
import type { Tensor } from '../../src/tensor/tensor.js';

export const BIG_BYTES = 1 << 16;

export class HandleTable {
  private tensors: (Tensor | undefined)[] = [undefined];
  private refs: number[] = [0];
  private freeSlots: number[] = [];
  private count = 0;

  private signed(t: Tensor, i: number): number {
    let n = ITEMSIZE[t.dtype];
    for (const d of t.shape) n *= d;
    return n >= BIG_BYTES ? -i : i;
  }

  /** Registers a tensor Python does not hold yet; returns its signed handle. */
  add(t: Tensor): number {
    const i = this.freeSlots.pop() ?? this.tensors.length;
    this.tensors[i] = t;
    this.refs[i] = 1;
    this.count++;
    return this.signed(t, i);
  }

  /** Another Python reference to the tensor behind handle h (an op returned its input). */
  share(h: number): number {
    const i = h < 0 ? -h : h;
    this.refs[i]++;
    return h;
  }

  get(h: number): Tensor {
    const t = this.tensors[h < 0 ? -h : h];
    if (t === undefined) throw new Error(`skiff bridge: invalid tensor handle ${h}`);
    return t;
  }

  /** Drops one Python reference; disposes the tensor when it was the last. */
  release(h: number): void {
    const i = h < 0 ? -h : h;
    const t = this.tensors[i];
    if (t === undefined) return;
    if (--this.refs[i] > 0) return;
    this.tensors[i] = undefined;
    this.freeSlots.push(i);
    this.count--;
    t.dispose();
  }

  /** Tensors currently held by Python. */
  get live(): number { return this.count; }
}
