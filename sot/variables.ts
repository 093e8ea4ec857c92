// Variables: what the translator knows about each value while simulating a frame. Everything
// that is not a tensor made inside the current segment is concrete (a constant, a container of
// variables, or a real host object); tensors are symbolic values of the function graph.
// Every variable that came from outside carries its source, and guards are built from those.
import type { HostRef, RtValue } from './values.js';
import type { Source } from './sources.js';
import type { SymTensor } from './function_graph.js';

/** How a host object behaves for the translator (filled in by the frontend's host). */
export type ObjInfo =
  | { readonly kind: 'function'; readonly codeId: number; readonly name: string }
  /** A registry op's public function; `inplace`: its `<op>_` variant (writes input 0). */
  | { readonly kind: 'api'; readonly api: string; readonly inplace?: boolean }
  | { readonly kind: 'builtin'; readonly name: string }
  | { readonly kind: 'layer'; readonly className: string }
  | { readonly kind: 'method'; readonly self: HostRef; readonly func: HostRef }
  | { readonly kind: 'module'; readonly name: string }
  /** A class; `pureCall`: calling it with constants is a pure lookup (Enum classes). */
  | { readonly kind: 'class'; readonly name: string; readonly pureCall: boolean }
  /** Anything else; `traits` (TRAIT_*) say what may be computed about it at translation time. */
  | { readonly kind: 'other'; readonly traits: number };

/** Operators, ==, hash, str and format of the object are pure functions of an immutable value (enum members, dtypes). */
export const TRAIT_PURE = 1;
/** == on the object is identity. */
export const TRAIT_EQ_IDENTITY = 2;
/** The object's truth value is always True. */
export const TRAIT_TRUE = 4;
/** An exception object: new on every call, so guarded by its type and opaque to the translator. */
export const TRAIT_EXCEPTION = 8;

export abstract class Variable {
  constructor(readonly source: Source | null) {}
  abstract readonly kind: string;
}

export class ConstVar extends Variable {
  readonly kind = 'const';
  constructor(readonly value: Extract<RtValue, { k: 'int' | 'float' | 'bool' | 'none' | 'str' }>, source: Source | null = null) { super(source); }
}

export class TensorVar extends Variable {
  readonly kind = 'tensor';
  /** Mutable: a functionalized inplace write rebinds the Python object's value (frontend inplace.ts). */
  constructor(public sym: SymTensor, source: Source | null = null) { super(source); }
}

export class TupleVar extends Variable {
  readonly kind = 'tuple';
  constructor(readonly items: readonly Variable[], source: Source | null = null) { super(source); }
}

/**
 * A list. `ref` is the real host list when the list came from outside the traced code:
 * mutations are then logged as side effects and replayed on it after the graph runs.
 */
export class ListVar extends Variable {
  readonly kind = 'list';
  constructor(public items: Variable[], source: Source | null = null, readonly ref: HostRef | null = null) { super(source); }
}

export class DictVar extends Variable {
  readonly kind = 'dict';
  constructor(public keys: Variable[], public values: Variable[], source: Source | null = null, readonly ref: HostRef | null = null) { super(source); }
}

export class ObjectVar extends Variable {
  readonly kind = 'object';
  constructor(readonly ref: HostRef, readonly info: ObjInfo, source: Source | null = null) { super(source); }
}

/** The NULL CPython pushes beside callables and methods. */
export class NullVar extends Variable {
  readonly kind = 'null';
  constructor() { super(null); }
}

export class SliceVar extends Variable {
  readonly kind = 'slice';
  constructor(readonly start: Variable, readonly stop: Variable, readonly step: Variable) { super(null); }
}

export class RangeVar extends Variable {
  readonly kind = 'range';
  constructor(readonly start: number, readonly stop: number, readonly step: number, source: Source | null = null) { super(source); }
  get length(): number { return Math.max(0, Math.ceil((this.stop - this.start) / this.step)); }
  at(i: number): number { return this.start + i * this.step; }
}

/** An iterator over values the translator already knows (lists, tuples, ranges, dict keys, zip, enumerate). */
export class IterVar extends Variable {
  readonly kind = 'iter';
  constructor(readonly items: readonly Variable[], public pos = 0) { super(null); }
}

/**
 * A closure cell. `ref` is the real cell when the cell exists outside the translation (a
 * closure of a real function, or a cell made for a function that escaped): writes to it are
 * logged as side effects and replayed on the real cell.
 */
export class CellVar extends Variable {
  readonly kind = 'cell';
  constructor(public contents: Variable | null, source: Source | null = null, readonly ref: HostRef | null = null) { super(source); }
}

/** A set of hashable constants (and host objects), in insertion order; iteration order is the host's. */
export class SetVar extends Variable {
  readonly kind = 'set';
  constructor(public items: Variable[], source: Source | null = null) { super(source); }
}

/** A live keys/values/items view of a dict (it sees later changes of the dict). */
export class DictViewVar extends Variable {
  readonly kind = 'dict_view';
  constructor(readonly dict: DictVar, readonly view: 'keys' | 'values' | 'items') { super(null); }
}

/** super(cls, obj): attribute lookups start after `cls` in the MRO of obj's type. */
export class SuperVar extends Variable {
  readonly kind = 'super';
  constructor(readonly cls: Variable, readonly obj: Variable) { super(null); }
}

/** A function made while translating (MAKE_FUNCTION): never a real object until it escapes. */
export class FunctionVar extends Variable {
  readonly kind = 'function';
  constructor(
    readonly codeId: number,
    readonly name: string,
    readonly defaults: readonly Variable[],
    readonly kwdefaults: DictVar | null,
    readonly closure: readonly CellVar[],
    readonly globalsRef: HostRef,
  ) { super(null); }
}

/** A bound method of a variable (x.add on a tensor, lst.append on a list, self.method). */
export class BoundMethodVar extends Variable {
  readonly kind = 'bound_method';
  constructor(readonly self: Variable, readonly name: string, readonly func: Variable | null = null) { super(null); }
}

export const NULL = new NullVar();
export const constVar = (value: ConstVar['value'], source: Source | null = null): ConstVar => new ConstVar(value, source);
