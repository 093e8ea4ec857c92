// The op table. Defs register themselves by being listed in defs/index.ts.
import type { OpDef } from './types.js';

const table = new Map<string, OpDef>();

export function registerOp(def: OpDef): OpDef {
  if (table.has(def.name)) throw new Error(`op '${def.name}' is defined twice`);
  if (def.inputs.filter((i) => i.variadic).length > 1) throw new Error(`op '${def.name}': at most one variadic input`);
  table.set(def.name, def);
  return def;
}

export function getOp(name: string): OpDef {
  const d = table.get(name);
  if (!d) throw new Error(`unknown op '${name}'`);
  return d;
}

export const hasOp = (name: string): boolean => table.has(name);
export const allOps = (): OpDef[] => [...table.values()];
