// Per-op-kind metadata: traits (facts passes may rely on), interfaces (behaviour looked up by
// key), and the dialect registry that maps an op name (`pd_op.matmul`) to its kind.
import type { OpDef } from '../ops/types.js';
import type { AttributeMap } from './attributes.js';
import type { Operation } from './core.js';
import type { Type } from './types.js';

/** A fact about every op of a kind. Compare by identity: `op.hasTrait(Pure)`. */
export interface Trait { readonly name: string }
const trait = (name: string): Trait => Object.freeze({ name });
/** No side effects and no state read: unused results may be dropped, equal ops merged (DCE, CSE). */
export const Pure = trait('pure');
/** Reads program state (a feed, a parameter) without writing it: droppable when unused, not mergeable across writes. */
export const ReadOnly = trait('read_only');
/** Ends a block of a region (builtin.yield). */
export const Terminator = trait('terminator');
/** Writes its result into operand storage (`pd_op.add_`); see InplaceInterface for the pairs. */
export const Inplace = trait('inplace');
/** Consumes the random generator: never CSE'd or constant-folded. */
export const Random = trait('random');
/** Produces a value known at compile time (builtin.constant). */
export const ConstantLike = trait('constant_like');

/** Typed key of an interface; an op kind maps keys to implementations. */
export interface InterfaceKey<T> { readonly name: string; readonly _type?: T }
export const defineInterface = <T>(name: string): InterfaceKey<T> => Object.freeze({ name });

/** Result types from operand types and attributes (registry infer for pd_op). Throws on bad input. */
export interface InferMeta { inferTypes(operands: readonly (Type | null)[], attrs: AttributeMap): Type[] }
export const InferMetaInterface = defineInterface<InferMeta>('infer_meta');
/** Gradient rule of a pd_op kind (the OpDef's grad), for PIR autodiff. */
export interface Vjp { readonly def: OpDef; readonly grad: NonNullable<OpDef['grad']> }
export const VjpInterface = defineInterface<Vjp>('vjp');
/** An inplace kind: its functional counterpart and [result, operand] storage pairs. */
export interface InplaceInfo { readonly functional: string; readonly aliases: readonly (readonly [number, number])[] }
export const InplaceInterface = defineInterface<InplaceInfo>('inplace');

export interface OpKind {
  /** Full name, `dialect.op`. */
  readonly name: string;
  readonly dialect: string;
  readonly traits: readonly Trait[];
  readonly interfaces: ReadonlyMap<InterfaceKey<unknown>, unknown>;
  /** False for ops the registered dialects do not know (parsed generically). */
  readonly registered: boolean;
  /** The registry definition behind a pd_op kind. */
  readonly def?: OpDef;
  /** Required number of regions (undefined: any). */
  readonly numRegions?: number;
  /** Every block in this op's regions must end with a Terminator op. */
  readonly requiresTerminator?: boolean;
  /** Op-specific checks beyond inferred result types; returns the problems found. */
  verify?(op: Operation): string[];
}

export interface OpKindSpec {
  name: string;
  traits?: readonly Trait[];
  interfaces?: readonly (readonly [InterfaceKey<unknown>, unknown])[];
  def?: OpDef;
  numRegions?: number;
  requiresTerminator?: boolean;
  verify?(op: Operation): string[];
}

export function defineOpKind(spec: OpKindSpec): OpKind {
  const dot = spec.name.indexOf('.');
  if (dot <= 0) throw new Error(`op kind '${spec.name}' must be named 'dialect.op'`);
  return Object.freeze({
    name: spec.name, dialect: spec.name.slice(0, dot), traits: spec.traits ?? [],
    interfaces: new Map(spec.interfaces ?? []), registered: true, def: spec.def,
    numRegions: spec.numRegions, requiresTerminator: spec.requiresTerminator, verify: spec.verify,
  });
}

export const kindHasTrait = (k: OpKind, t: Trait): boolean => k.traits.includes(t);
export const kindInterface = <T>(k: OpKind, key: InterfaceKey<T>): T | undefined => k.interfaces.get(key) as T | undefined;

/** A named set of op kinds. `lookup` may build kinds lazily (pd_op derives them from the op registry). */
export interface Dialect {
  readonly name: string;
  /** The kind for a full op name of this dialect, or undefined when the dialect has no such op. */
  lookup(fullName: string): OpKind | undefined;
  /** Every kind known now (for listings and tests). */
  ops(): Iterable<OpKind>;
}

const dialectTable = new Map<string, Dialect>();
const unregistered = new Map<string, OpKind>();

/** Adds a dialect. Users may register their own (tests register `test`). */
export function registerDialect(d: Dialect): Dialect {
  if (dialectTable.has(d.name)) throw new Error(`dialect '${d.name}' is registered twice`);
  dialectTable.set(d.name, d);
  return d;
}
export const getDialect = (name: string): Dialect | undefined => dialectTable.get(name);
export const allDialects = (): Dialect[] => [...dialectTable.values()];

/** A dialect built from a fixed table of kinds. */
export function tableDialect(name: string, kinds: readonly OpKind[]): Dialect {
  const m = new Map(kinds.map((k) => [k.name, k]));
  return { name, lookup: (n) => m.get(n), ops: () => m.values() };
}

/** The kind of an op name; an unregistered placeholder kind when no dialect knows it. */
export function lookupOpKind(fullName: string): OpKind {
  const dot = fullName.indexOf('.');
  const dialect = dot > 0 ? fullName.slice(0, dot) : '';
  const k = dialectTable.get(dialect)?.lookup(fullName);
  if (k) return k;
  let u = unregistered.get(fullName);
  if (!u) {
    u = Object.freeze({ name: fullName, dialect, traits: [], interfaces: new Map(), registered: false });
    unregistered.set(fullName, u);
  }
  return u;
}
