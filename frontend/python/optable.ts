// The op table sent to Python once at start-up (compat/paddle/_ops.py builds functions and
// Tensor methods from it). One JSON string: no proxies, and every op in the registry at that
// moment appears, so new ops reach Python without edits here.
import type { AttrValue, OpDef } from '../../src/ops/types.js';

export interface PyOpEntry {
  /** Index the Python side passes back to the dispatcher. */
  id: number;
  name: string;
  inputs: { name: string; variadic?: 1; optional?: 1 }[];
  /** `default` absent: required. Non-finite floats travel as {"$f": "inf" | "-inf" | "nan"}. */
  attrs: { name: string; type: string; default?: unknown }[];
  /** Dotted public paths below `paddle`. */
  names: string[];
  methods: string[];
  aliases?: Record<string, string>;
  promote?: 1;
  /**
   * 'list' for ops whose output count depends on attributes (split), 'tuple' for fixed multi-output
   * ops, 'unwrap' for a variable count returned as one tensor or a tuple (max_pool2d's return_mask).
   */
  multi?: 'list' | 'tuple' | 'unwrap';
  /** 1: the `_` variant writes x; 2: it rebinds x (new shape or dtype: Python drops its cached metadata). */
  inplace?: 1 | 2;
  /** Which input the `_` variant writes, when not input 0. */
  inplace_input?: number;
  random?: 1;
}

function jsonValue(v: AttrValue): unknown {
  if (typeof v === 'number' && !Number.isFinite(v)) return { $f: Number.isNaN(v) ? 'nan' : v > 0 ? 'inf' : '-inf' };
  if (Array.isArray(v)) return v.map((x) => jsonValue(x as AttrValue));
  return v;
}

export function opEntry(def: OpDef, id: number): PyOpEntry {
  const names = [...(def.api?.names ?? [def.name])];
  const methods = [...(def.api?.methods ?? (def.api?.names ? [] : [def.name]))];
  const e: PyOpEntry = {
    id,
    name: def.name,
    inputs: def.inputs.map((i) => ({ name: i.name, ...(i.variadic ? { variadic: 1 as const } : {}), ...(i.optional ? { optional: 1 as const } : {}) })),
    attrs: def.attrs.map((a) => (a.default === undefined ? { name: a.name, type: a.type } : { name: a.name, type: a.type, default: jsonValue(a.default) })),
    names,
    methods,
  };
  if (def.api?.aliases && Object.keys(def.api.aliases).length) e.aliases = { ...def.api.aliases };
  if (def.api?.promote) e.promote = 1;
  if (def.numOutputs) e.multi = def.api?.unwrapSingle ? 'unwrap' : 'list';
  else if (def.outputs.length > 1 && def.api?.returnOutput === undefined) e.multi = 'tuple';
  if (def.inplace) e.inplace = def.inplace === 'rebind' ? 2 : 1;
  if (def.inplaceInput) e.inplace_input = def.inplaceInput;
  if (def.random) e.random = 1;
  return e;
}

/** JSON of every op, ids being positions in `defs`. */
export function opTableJson(defs: readonly OpDef[]): string {
  return JSON.stringify(defs.map((d, i) => opEntry(d, i)));
}
