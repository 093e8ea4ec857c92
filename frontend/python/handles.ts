// Python holds tensors as small integer handles into this table. A handle is a slot index,
// negated for tensors of at least BIG_BYTES so Python frees those at once instead of batching
// (compat/paddle/_bridge.py).
//
// One Tensor object has one slot: registering it again (a captured graph returning its input,
// an op returning an input) counts another Python reference on the same slot, and the tensor
// is disposed only when every Python reference is gone.
import { ITEMSIZE } from '../../src/tensor/dtype.js';
import type { Tensor } from '../../src/tensor/tensor.js';

export const BIG_BYTES = 1 << 16;

export class HandleTable {
  private tensors: (Tensor | undefined)[] = [undefined];
  private refs: number[] = [0];
  private freeSlots: number[] = [];
  private slotOf = new Map<Tensor, number>();

  private signed(t: Tensor, i: number): number {
    let n = ITEMSIZE[t.dtype];
    for (const d of t.shape) n *= d;
    return n >= BIG_BYTES ? -i : i;
  }

  /** Registers t for Python (another reference if Python already holds it); returns its signed handle. */
  add(t: Tensor): number {
    let i = this.slotOf.get(t);
    if (i !== undefined) this.refs[i]++;
    else {
      i = this.freeSlots.pop() ?? this.tensors.length;
      this.tensors[i] = t;
      this.refs[i] = 1;
      this.slotOf.set(t, i);
    }
    return this.signed(t, i);
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
    this.slotOf.delete(t);
    this.freeSlots.push(i);
    t.dispose();
  }

  /** Tensors currently held by Python. */
  get live(): number { return this.slotOf.size; }
}
