// Python holds tensors as small integer handles into this table. A handle is a slot index,
// negated for tensors of at least BIG_BYTES so Python frees those at once instead of batching
// (compat/paddle/_bridge.py). The same Tensor registered twice shares its slot with a count,
// so a TS function returning one of its inputs cannot free a tensor Python still holds.
import { ITEMSIZE } from '../../src/tensor/dtype.js';
import type { Tensor } from '../../src/tensor/tensor.js';

export const BIG_BYTES = 1 << 16;

export class HandleTable {
  private tensors: (Tensor | undefined)[] = [undefined];
  private refs: number[] = [0];
  private freeSlots: number[] = [];
  private slotOf = new Map<Tensor, number>();

  /** Registers t for Python and returns its signed handle. */
  add(t: Tensor): number {
    let i = this.slotOf.get(t);
    if (i !== undefined) this.refs[i]++;
    else {
      i = this.freeSlots.pop() ?? this.tensors.length;
      this.tensors[i] = t;
      this.refs[i] = 1;
      this.slotOf.set(t, i);
    }
    let n = 1;
    for (const d of t.shape) n *= d;
    return n * ITEMSIZE[t.dtype] >= BIG_BYTES ? -i : i;
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
