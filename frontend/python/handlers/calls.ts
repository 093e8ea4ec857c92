// Calls, function creation and returns.
import { GraphBreak } from '../../../sot/graph_breaks.js';
import { CellVar, ConstVar, DictVar, FunctionVar, NULL, NullVar, ObjectVar, TupleVar, type Variable } from '../../../sot/variables.js';
import { callVar, getIter } from '../sot/semantics.js';
import type { Translator } from '../sot/translator.js';
import type { HandlerTable } from './types.js';

function strOf(v: Variable): string {
  if (v instanceof ConstVar && v.value.k === 'str') return v.value.v;
  throw new GraphBreak('SOT007', 'keyword name is not a string');
}

/** Pops [a, b, args...] in the version's order and calls. */
export function doCall(tx: Translator, argc: number, kwNames: string[]): void {
  const args = tx.frame.popN(argc);
  const b = tx.frame.pop(), a = tx.frame.pop();
  let fn: Variable, self: Variable | null;
  if (tx.v.callableFirst) { fn = a; self = b instanceof NullVar ? null : b; }
  else if (a instanceof NullVar) { fn = b; self = null; }
  else { fn = a; self = b; }
  const pos = self ? [self, ...args] : args;
  const nkw = kwNames.length;
  const positional = pos.slice(0, pos.length - nkw);
  const kwargs: [string, Variable][] = kwNames.map((k, i) => [k, pos[pos.length - nkw + i]]);
  const r = callVar(tx, fn, positional, kwargs);
  if (r !== undefined) tx.frame.push(r);
}

export const CALLS: HandlerTable = {
  CALL(tx, ins) {
    const kw = tx.frame.kwNames ?? [];
    tx.frame.kwNames = null;
    doCall(tx, ins.arg, kw);
  },
  KW_NAMES(tx, ins) {
    const names = tx.code.consts[ins.arg];
    if (names.k !== 'tuple') throw new GraphBreak('SOT007', 'KW_NAMES');
    tx.frame.kwNames = names.items.map((n) => (n as { v: string }).v);
  },
  CALL_KW(tx, ins) {
    const names = tx.frame.pop();
    if (!(names instanceof TupleVar)) throw new GraphBreak('SOT007', 'CALL_KW names');
    doCall(tx, ins.arg, names.items.map(strOf));
  },
  CALL_FUNCTION_EX(tx, ins) {
    const hasKw = tx.v.callExAlwaysHasKwargs || (ins.arg & 1) === 1;
    let kw = hasKw ? tx.frame.pop() : null;
    if (kw instanceof NullVar || (kw instanceof ConstVar && kw.value.k === 'none')) kw = null;
    const args = tx.frame.pop();
    const b = tx.frame.pop(), a = tx.v.callHasNullSlot ? tx.frame.pop() : NULL;  // 3.10: [callable, args, kwargs?]
    const fn = tx.v.callableFirst ? a : (a instanceof NullVar ? b : a);
    const it = getIter(tx, args);
    const positional = (it as unknown as { items: Variable[] }).items.slice();
    const kwargs: [string, Variable][] = [];
    if (kw) {
      if (!(kw instanceof DictVar)) throw new GraphBreak('SOT007', '**kwargs of a non-dict');
      kw.keys.forEach((k, i) => kwargs.push([strOf(k), kw.values[i]]));
    }
    const r = callVar(tx, fn, positional, kwargs);
    if (r !== undefined) tx.frame.push(r);
  },
  MAKE_FUNCTION(tx, ins) {
    if (tx.v.makeFunctionQualname) tx.frame.pop();  // 3.10: the qualified name (the code object has its own)
    const codeVar = tx.frame.pop();
    let closure: CellVar[] = [], defaults: Variable[] = [], kwdefaults: DictVar | null = null;
    if (tx.v.makeFunctionFlags) {
      if (ins.arg & 8) closure = cellsOf(tx.frame.pop());
      if (ins.arg & 4) tx.frame.pop();  // annotations
      if (ins.arg & 2) kwdefaults = tx.frame.pop() as DictVar;
      if (ins.arg & 1) defaults = [...(tx.frame.pop() as TupleVar).items];
    }
    if (!(codeVar instanceof ObjectVar)) throw new GraphBreak('SOT007', 'MAKE_FUNCTION without a code object');
    const code = tx.host.codeOf(codeVar.ref.id as number);
    tx.frame.push(new FunctionVar(code.id, code.wire.qualname, defaults, kwdefaults, closure, tx.frame.globals));
  },
  SET_FUNCTION_ATTRIBUTE(tx, ins) {
    const fn = tx.frame.pop() as FunctionVar;
    const v = tx.frame.pop();
    let defaults = fn.defaults, kwdefaults = fn.kwdefaults, closure = fn.closure;
    if (ins.arg === 1) defaults = [...(v as TupleVar).items];
    else if (ins.arg === 2) kwdefaults = v as DictVar;
    else if (ins.arg === 8) closure = cellsOf(v);
    tx.frame.push(new FunctionVar(fn.codeId, fn.name, defaults, kwdefaults, closure, fn.globalsRef));
  },
  RETURN_VALUE(tx) { return tx.returnValue(tx.frame.pop()); },
  RETURN_CONST(tx, ins) {
    const c = tx.code.consts[ins.arg];
    return tx.returnValue(c.k === 'tensor' ? tx.constTensor(c.t) : tx.fromRt(c, null, false));
  },
};

function cellsOf(v: Variable): CellVar[] {
  if (!(v instanceof TupleVar) || !v.items.every((c) => c instanceof CellVar)) throw new GraphBreak('SOT007', 'closure of non-cells');
  return v.items as CellVar[];
}
