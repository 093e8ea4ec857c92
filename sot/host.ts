// What the translator needs from the language it translates: real values behind host objects,
// and the language's own semantics on concrete values. The Python frontend answers through
// trampolines into CPython; the JS frontend answers directly.
import type { Tensor } from '../src/tensor/tensor.js';
import type { ObjInfo } from './variables.js';
import type { HostRef, RtValue } from './values.js';
import type { BreakEvent } from './graph_breaks.js';
import type { Source } from './sources.js';

export interface Host {
  readonly lang: 'python' | 'js';
  /** How the translator should treat an object (inline a function, record an API, ...). */
  describe(ref: HostRef): ObjInfo;
  /** getattr on a real value (translation time). Throws HostError with the language's exception. */
  getattr(obj: RtValue, name: string): RtValue;
  /**
   * Performs one instruction concretely on real values and returns what it pushes.
   * Used at translation time for pure operations on constants and at run time for the
   * concrete steps of the trace tree.
   */
  concrete(step: ConcreteStep, operands: readonly RtValue[]): RtValue[];
  /**
   * Tensors whose host objects the last concrete step pointed at new data (Skiff's
   * Tensor.set_value replaces a tensor's data): old -> new, or null. The trace tree substitutes
   * them in the state it carries past the step.
   */
  takeReplacedTensors(): ReadonlyMap<Tensor, Tensor> | null;
  /**
   * After a concrete step raised: the exception, taken over by a handler of the translated code
   * (it no longer propagates), as the step's results [layer version, exception]; null
   * when the host has none pending.
   */
  takeException?(at: BreakEvent): RtValue[] | null;
  /** The current contents of a mutable container value (re-read from the real object). */
  refresh(v: RtValue): RtValue;
  /**
   * The value at a source the entry slots alone cannot resolve (an attribute path of a JS
   * object, a global; in Python the instance-dict path of a plain entry object), or undefined
   * (an `absent` guard's answer).
   */
  resolve?(source: Source, entry: readonly RtValue[]): RtValue | undefined;
  /** Keeps objects a trace-tree node refers to alive until unpinned. */
  pin(ref: HostRef): void;
  unpin(ref: HostRef): void;
}

/** One instruction to perform concretely: its name and argument, plus constant extras (names, kw names). */
export interface ConcreteStep {
  readonly opname: string;
  readonly arg: number;
  /** Resolved constant argument (an attribute name, a global name, kw-name tuple), if any. */
  readonly argval?: RtValue;
}

/** An exception raised by host code: keeps the host's exception type name and message. */
export class HostError extends Error {
  constructor(readonly pyType: string, message: string, readonly hostRef: number | null = null) {
    super(message);
    this.name = pyType;
  }
}
