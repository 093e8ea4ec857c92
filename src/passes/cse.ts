// Common subexpression elimination: two ops with the same name, operands, attributes and result
// types compute the same values when they are Pure, so the later one is replaced by the earlier.
// Random ops (not Pure), ReadOnly reads, writes and ops with regions are never merged. Scopes
// follow dominance: an op in a nested region may reuse one from an enclosing block, never the
// other way round.
import { printAttr } from '../pir/attributes.js';
import type { Block, Operation, Program, Value } from '../pir/core.js';
import { Pure, Random, Terminator } from '../pir/opkind.js';
import type { Attribute } from '../pir/attributes.js';

/**
 * Dense attributes past this many elements key by identity, not by text: folded weights
 * (conv+bn folding, fold_params) are millions of floats, and printing them for every key made
 * saving ResNet-50 take 15 s. Two such constants merge only when they share the attribute.
 */
const LARGE_ATTR = 64;

/** Merges equal Pure ops; returns how many ops were removed. */
export function eliminateCommonSubexpressions(program: Program): number {
  const ids = new Map<Value, number>();
  const idOf = (v: Value | null): string => {
    if (!v) return 'none';
    let id = ids.get(v);
    if (id === undefined) { id = ids.size; ids.set(v, id); }
    return String(id);
  };
  const bigIds = new Map<Attribute, number>();
  const attrKey = (a: Attribute): string => {
    if ((a.kind === 'floats' || a.kind === 'ints') && a.value.length > LARGE_ATTR) {
      let id = bigIds.get(a);
      if (id === undefined) { id = bigIds.size; bigIds.set(a, id); }
      return `#big${id}`;
    }
    return printAttr(a);
  };
  const keyOf = (op: Operation): string => {
    const attrs = [...op.attributes].map(([k, a]) => `${k}=${attrKey(a)}`).join(',');
    return `${op.name}(${op.operandValues().map(idOf).join(',')}){${attrs}}->${op.results.map((r) => String(r.type)).join(',')}`;
  };
  let removed = 0;
  const visit = (b: Block, outer: ReadonlyMap<string, Operation>): void => {
    const seen = new Map(outer);
    for (const op of [...b.ops]) {
      if (op.regions.length) {
        for (const r of op.regions) for (const blk of r.blocks) visit(blk, seen);
        continue;
      }
      if (!op.hasTrait(Pure) || op.hasTrait(Random) || op.hasTrait(Terminator) || op.numResults === 0) continue;
      const key = keyOf(op);
      const prev = seen.get(key);
      if (prev) {
        op.replaceAllUsesWith(prev.results);
        op.erase();
        removed++;
      } else seen.set(key, op);
    }
  };
  visit(program.block, new Map());
  return removed;
}
