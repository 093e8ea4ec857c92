// Sources (Dynamo's "sources", Paddle's "trackers"): where a value came from, relative to the
// entry of a trace-tree node. Immutable and interned by key, so guards built from them can be
// deduplicated and shared sub-paths evaluated once.
import { type RtValue, showValue } from './values.js';

export type Source =
  | { readonly k: 'slot'; readonly i: number; readonly key: string }
  | { readonly k: 'attr'; readonly base: Source; readonly name: string; readonly key: string }
  | { readonly k: 'item'; readonly base: Source; readonly index: RtValue; readonly key: string }
  | { readonly k: 'global'; readonly name: string; readonly key: string }
  | { readonly k: 'builtin'; readonly name: string; readonly key: string }
  | { readonly k: 'closure'; readonly base: Source; readonly index: number; readonly key: string }
  /** A tensor bound into a graph as a constant (a parameter, a global tensor). */
  | { readonly k: 'const'; readonly i: number; readonly key: string };

const interned = new Map<string, Source>();
function intern<S extends Source>(s: S): S {
  const hit = interned.get(s.key);
  if (hit) return hit as S;
  interned.set(s.key, s);
  return s;
}

export const slotSource = (i: number): Source => intern({ k: 'slot', i, key: `s${i}` });
export const attrSource = (base: Source, name: string): Source => intern({ k: 'attr', base, name, key: `${base.key}.${name}` });
export const itemSource = (base: Source, index: RtValue): Source => intern({ k: 'item', base, index, key: `${base.key}[${showValue(index)}]` });
export const globalSource = (name: string): Source => intern({ k: 'global', name, key: `G[${name}]` });
export const builtinSource = (name: string): Source => intern({ k: 'builtin', name, key: `B[${name}]` });
export const constSource = (i: number): Source => intern({ k: 'const', i, key: `C${i}` });
export const closureSource = (base: Source, index: number): Source => intern({ k: 'closure', base, index, key: `${base.key}.__closure__[${index}]` });

/** True when the value can be re-read from the node's entry slots alone (no host lookups). */
export function isLocalSource(s: Source): boolean {
  switch (s.k) {
    case 'slot': return true;
    case 'item': return isLocalSource(s.base);
    default: return false;
  }
}

/** The slot a source starts from, or -1 for globals/builtins. */
export function rootSlot(s: Source): number {
  switch (s.k) {
    case 'slot': return s.i;
    case 'attr': case 'item': case 'closure': return rootSlot(s.base);
    default: return -1;
  }
}
