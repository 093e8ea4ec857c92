// Builds Paddle `.pdmodel` (ProgramDesc) + `.pdiparams` fixtures from the framework.proto schema
// (src/jit/pdmodel/schema.ts) with protobufjs, the way save_inference_model lays them out:
// feed ops first (col order), the ops, fetch ops last; persistable parameters in the parameter
// file sorted by name. Attribute types follow the JS value (integer -> INT, other number ->
// FLOAT, boolean, string, lists); F() / L() / F64() force FLOAT / LONGS / FLOAT64.
import { writeFileSync } from 'node:fs';
import { encodePdiparams } from '../../src/jit/pdiparams.js';
import { encodeProgramDesc, PdAttrType, type PdAttr, type PdOpDesc, type PdProgramDesc, type PdVarDesc } from '../../src/jit/pdmodel/schema.js';
import type { Tensor } from '../../src/tensor/tensor.js';

const VARTYPE: Record<string, number> = { bool: 0, int32: 2, int64: 3, float16: 4, float32: 5, float64: 6, uint8: 20, int8: 21, bfloat16: 22 };

export class Typed { constructor(readonly type: number, readonly value: unknown) {} }
export const F = (v: number | number[]): Typed => new Typed(Array.isArray(v) ? PdAttrType.FLOATS : PdAttrType.FLOAT, v);
export const L = (v: number | number[]): Typed => new Typed(Array.isArray(v) ? PdAttrType.LONGS : PdAttrType.LONG, v);
export const F64 = (v: number): Typed => new Typed(PdAttrType.FLOAT64, v);

export type AttrSpec = number | boolean | string | number[] | string[] | boolean[] | Typed;

export function attr(name: string, v: AttrSpec): PdAttr {
  if (v instanceof Typed) {
    const field = ({ [PdAttrType.FLOAT]: 'f', [PdAttrType.FLOATS]: 'floats', [PdAttrType.LONG]: 'l', [PdAttrType.LONGS]: 'longs', [PdAttrType.FLOAT64]: 'float64' } as Record<number, string>)[v.type];
    return { name, type: v.type, [field]: v.value } as PdAttr;
  }
  if (typeof v === 'boolean') return { name, type: PdAttrType.BOOLEAN, b: v };
  if (typeof v === 'string') return { name, type: PdAttrType.STRING, s: v };
  if (typeof v === 'number') return Number.isInteger(v) ? { name, type: PdAttrType.INT, i: v } : { name, type: PdAttrType.FLOAT, f: v };
  if (v.every((x) => typeof x === 'string')) return { name, type: PdAttrType.STRINGS, strings: v as string[] };
  if (v.every((x) => typeof x === 'boolean')) return { name, type: PdAttrType.BOOLEANS, bools: v as boolean[] };
  const ns = v as number[];
  return ns.every((x) => Number.isInteger(x)) ? { name, type: PdAttrType.INTS, ints: ns } : { name, type: PdAttrType.FLOATS, floats: ns };
}

const tensorVar = (name: string, dtype: string, dims: readonly number[], persistable = false): PdVarDesc => ({
  name, persistable, type: { type: 7, lod_tensor: { tensor: { data_type: VARTYPE[dtype], dims: [...dims] }, lod_level: 0 } },
});

/** One ProgramDesc under construction (block 0 only). */
export class PdModelBuilder {
  private readonly vars = new Map<string, PdVarDesc>();
  private readonly feeds: PdOpDesc[] = [];
  private readonly body: PdOpDesc[] = [];
  private readonly fetches: PdOpDesc[] = [];
  private readonly params = new Map<string, Tensor>();
  private tmp = 0;
  version = 2006000;

  constructor() {
    this.vars.set('feed', { name: 'feed', persistable: true, type: { type: 9 } });
    this.vars.set('fetch', { name: 'fetch', persistable: true, type: { type: 10 } });
  }

  /** An input (-1 for an unknown dim). */
  feed(name: string, dims: readonly number[], dtype = 'float32'): string {
    this.vars.set(name, { ...tensorVar(name, dtype, dims), need_check_feed: true });
    this.feeds.push({ type: 'feed', inputs: [{ parameter: 'X', arguments: ['feed'] }], outputs: [{ parameter: 'Out', arguments: [name] }], attrs: [attr('col', this.feeds.length)] });
    return name;
  }

  /** A persistable parameter holding t. */
  param(name: string, t: Tensor): string {
    this.vars.set(name, { ...tensorVar(name, t.dtype, t.shape, true), is_parameter: true });
    this.params.set(name, t);
    return name;
  }

  /** Appends an op; `outputs` maps slots to variable names (new names are declared as float32 temporaries). */
  op(type: string, inputs: Record<string, string | string[]>, outputs: Record<string, string | string[]>, attrs: Record<string, AttrSpec> = {}): void {
    const slots = (m: Record<string, string | string[]>) => Object.entries(m).map(([parameter, a]) => ({ parameter, arguments: Array.isArray(a) ? a : [a] }));
    for (const names of Object.values(outputs)) for (const n of Array.isArray(names) ? names : [names]) if (!this.vars.has(n)) this.vars.set(n, tensorVar(n, 'float32', []));
    this.body.push({ type, inputs: slots(inputs), outputs: slots(outputs), attrs: Object.entries(attrs).map(([k, v]) => attr(k, v)) });
  }

  /** A fresh temporary name, like Paddle's `relu_0.tmp_0`. */
  t(prefix = 'tmp'): string { return `${prefix}_${this.tmp++}.tmp_0`; }

  /** Marks `name` as the next output. */
  fetch(name: string): void {
    this.fetches.push({ type: 'fetch', inputs: [{ parameter: 'X', arguments: [name] }], outputs: [{ parameter: 'Out', arguments: ['fetch'] }], attrs: [attr('col', this.fetches.length)] });
  }

  desc(): PdProgramDesc {
    return {
      blocks: [{ idx: 0, parent_idx: -1, vars: [...this.vars.values()], ops: [...this.feeds, ...this.body, ...this.fetches], forward_block_idx: -1 }],
      version: { version: this.version },
    };
  }

  /** The .pdmodel bytes and the .pdiparams bytes (parameters sorted by name). */
  encode(): { model: Uint8Array; params: Uint8Array } {
    const names = [...this.params.keys()].sort();
    return { model: encodeProgramDesc(this.desc()), params: encodePdiparams(names.map((n) => this.params.get(n)!)) };
  }

  /** Writes prefix.pdmodel and prefix.pdiparams. */
  write(prefix: string): void {
    const { model, params } = this.encode();
    writeFileSync(`${prefix}.pdmodel`, model);
    writeFileSync(`${prefix}.pdiparams`, params);
  }
}
