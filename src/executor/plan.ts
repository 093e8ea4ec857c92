// The buffer plan: liveness of every slot, a best-fit pool of storages ("buffers") that kernel
// and copy results are placed in, inplace execution, and where each slot is dropped and each
// storage released. Views keep their root's storage alive; graph outputs get storages of their
// own that are never reused; inputs and params are never planned (they are bound by handle).
import type { Instr, PlanStats, Slot } from './types.js';

export interface PlanOptions {
  /** Liveness + reuse of freed storages. false: every result gets its own storage, held to the end. */
  readonly reuse: boolean;
  /** Write a result over its dying input 0 when the op allows it (OpDef.inplace). */
  readonly inplace: boolean;
}

type Counts = Pick<PlanStats, 'buffers' | 'bufferBytes' | 'intermediateBytes' | 'peakBytes' | 'inplace' | 'reused'>;

/** Assigns buffer ids to 'buffer' slots (slot.index) and fills instr.clears/releases; returns buffer sizes. */
export function planBuffers(slots: Slot[], instrs: Instr[], outputSlots: readonly number[], opts: PlanOptions): { buffers: number[]; counts: Counts } {
  const END = instrs.length;
  const lastUse = new Array<number>(slots.length).fill(-1);
  const defAt = new Array<number>(slots.length).fill(-1);
  instrs.forEach((I, k) => {
    for (const s of I.ins) lastUse[s] = k;
    for (const s of I.outs) if (slots[s].kind !== 'param') defAt[s] = k;
  });
  for (const s of outputSlots) lastUse[s] = END;
  // A storage lives until the last use of its root or of any view of it.
  const rootLast = new Array<number>(slots.length).fill(-1);
  slots.forEach((s, i) => { rootLast[s.root] = Math.max(rootLast[s.root], lastUse[i] >= 0 ? lastUse[i] : defAt[i]); });

  const buffers: number[] = [];
  const counts: Counts = { buffers: 0, bufferBytes: 0, intermediateBytes: 0, peakBytes: 0, inplace: 0, reused: 0 };
  const fresh = (s: number): void => { slots[s].index = buffers.length; buffers.push(slots[s].bytes); };
  if (!opts.reuse) {
    for (const I of instrs) for (const o of I.outs) if (slots[o].kind === 'buffer') fresh(o);
  } else {
    const dies: number[][] = instrs.map(() => []);       // slots dropped after instruction k
    const rootDies: number[][] = instrs.map(() => []);   // buffer roots whose storage frees after k
    slots.forEach((s, i) => {
      if (s.kind === 'input' || s.kind === 'param') return;
      const at = lastUse[i] >= 0 ? lastUse[i] : defAt[i];
      if (at >= 0 && at < END) dies[at].push(i);
      if (s.kind === 'buffer' && s.root === i && rootLast[i] >= 0 && rootLast[i] < END) rootDies[rootLast[i]].push(i);
    });
    const pool: number[] = [];
    const lastFree = new Array<number>();
    const transferred = new Set<number>();
    const canInplace = (I: Instr, k: number, o: number): boolean => {
      if (!opts.inplace || !I.inplaceOk || I.outs[0] !== o || I.ins.length === 0) return false;
      const x = I.ins[0], sx = slots[x], so = slots[o];
      if (sx.kind !== 'buffer' || sx.root !== x || rootLast[x] !== k || transferred.has(x)) return false;
      if (sx.dtype !== so.dtype || sx.shape.length !== so.shape.length || sx.shape.some((d, i) => d !== so.shape[i])) return false;
      // A returned result keeps its storage: do not hand the caller a larger reused one.
      if (rootLast[o] >= END && buffers[sx.index] !== so.bytes) return false;
      // Another operand reading the same storage (e.g. a view of x) would see partial results.
      return I.ins.every((y) => y === x || slots[y].root !== x);
    };
    instrs.forEach((I, k) => {
      for (const o of I.outs) {
        if (slots[o].kind !== 'buffer') continue;
        if (canInplace(I, k, o)) {
          slots[o].index = slots[I.ins[0]].index;
          transferred.add(I.ins[0]);
          counts.inplace++;
        } else if (rootLast[o] >= END) fresh(o);  // escapes as a graph output: a storage of its own
        else {
          const need = slots[o].bytes;
          let best = -1;
          for (let j = 0; j < pool.length; j++) {
            const sz = buffers[pool[j]];
            if (sz >= need && (best < 0 || sz <= buffers[pool[best]])) best = j;
          }
          if (best >= 0) {
            slots[o].index = pool[best];
            lastFree[pool[best]] = -1;
            pool.splice(best, 1);
            counts.reused++;
          } else fresh(o);
        }
      }
      I.clears.push(...dies[k]);
      for (const r of rootDies[k]) {
        if (transferred.has(r)) continue;
        const b = slots[r].index;
        pool.push(b);
        lastFree[b] = k;
      }
    });
    lastFree.forEach((k, b) => { if (k >= 0) instrs[k].releases.push(b); });
  }

  return { buffers, counts: planCounts(slots, instrs, buffers, counts.inplace, counts.reused) };
}

/** Sizes and the peak of a placed plan (also for rebound programs: rebind.ts). */
export function planCounts(slots: readonly Slot[], instrs: readonly Instr[], buffers: readonly number[], inplace: number, reused: number): Counts {
  const counts: Counts = { buffers: buffers.length, bufferBytes: 0, intermediateBytes: 0, peakBytes: 0, inplace, reused };
  for (const b of buffers) counts.bufferBytes += b;
  for (const s of slots) if (s.kind === 'buffer') counts.intermediateBytes += s.bytes;
  // The native runner allocates a storage when a buffer is first written and frees it at its release.
  const allocated = new Array<boolean>(buffers.length).fill(false);
  let live = 0;
  for (const I of instrs) {
    for (const o of I.outs) {
      const s = slots[o];
      if (s.kind !== 'buffer' || allocated[s.index]) continue;
      allocated[s.index] = true;
      live += buffers[s.index];
      counts.peakBytes = Math.max(counts.peakBytes, live);
    }
    for (const b of I.releases) live -= buffers[b];
  }
  return counts;
}
