// Inlining a user function: a new simulated frame whose arguments are bound the way CPython
// binds them (positional, keywords, defaults, *args, **kwargs, keyword-only, positional-only).
import { GraphBreak } from '../../../sot/graph_breaks.js';
import { CellVar, ConstVar, DictVar, FunctionVar, NullVar, ObjectVar, TupleVar, type Variable } from '../../../sot/variables.js';
import type { RtValue } from '../../../sot/values.js';
import { CO_VARARGS, CO_VARKEYWORDS, type CodeInfo } from './code.js';
import { Frame } from './frame.js';
import type { Translator } from './translator.js';
import { fromHostRead } from './semantics.js';
import { generatorRefusal, newGenerator } from './generators.js';

/**
 * Pushes a frame for fn(*args, **kwargs); returns undefined (the frame's RETURN pushes the result).
 * A generator function's frame is not run: it becomes a generator object (generators.ts).
 */
export function inlineCall(tx: Translator, fn: ObjectVar | FunctionVar, self: Variable | null, args: Variable[], kwargs: [string, Variable][]): Variable | undefined {
  let code: CodeInfo;
  let defaults: Variable[];
  let kwdefaults: [string, Variable][];
  let closure: CellVar[];
  let globals;
  let name: string;
  if (fn instanceof FunctionVar) {
    code = tx.host.code(fn.codeId);
    defaults = [...fn.defaults];
    kwdefaults = fn.kwdefaults ? fn.kwdefaults.keys.map((k: Variable, i: number): [string, Variable] => [String(((k as ConstVar).value as { v?: string }).v ?? ''), fn.kwdefaults!.values[i]]) : [];
    closure = [...fn.closure];
    globals = fn.globalsRef;
    name = fn.name;
  } else {
    if (fn.info.kind !== 'function') throw new GraphBreak('SOT005', `call of ${fn.ref.typeName}`);
    code = tx.host.code(fn.info.codeId);
    const parts = tx.host.functionParts(fn.ref);
    const asVar = (v: RtValue) => fromHostRead(tx, v, null);
    defaults = parts.defaults.k === 'tuple' ? parts.defaults.items.map(asVar) : [];
    const kwd = parts.kwdefaults;
    kwdefaults = kwd.k === 'dict' ? kwd.keys.map((k, i): [string, Variable] => [(k as { v: string }).v, asVar(kwd.values[i])]) : [];
    // Closure cells of a real function: their contents are read now and re-checked by the wrapper.
    const cellRefs = parts.cells.k === 'tuple' ? parts.cells.items : [];
    const fresh = cellRefs.length ? tx.host.closureContents(fn.ref) : { contents: parts.contents, contentIds: parts.contentIds };
    const contents = fresh.contents.k === 'tuple' ? fresh.contents.items : [];
    // One variable per real cell in a translation: a write through one closure is seen by
    // every other closure (and frame) sharing the cell, and is replayed on the real cell.
    closure = cellRefs.map((c: RtValue, i: number) => {
      if (c.k !== 'obj') throw new GraphBreak('SOT105', 'a closure cell is not an object');
      tx.host.recordAttrGuard(c.ref, 'cell_contents', fresh.contentIds[i]);
      const v = asVar(contents[i]);
      return tx.hostCell(c.ref, v instanceof NullVar ? null : v);
    });
    globals = tx.host.objectRef(parts.globals);
    name = fn.info.name;
  }
  const why = code.isGenerator ? generatorRefusal(tx, code) : tx.host.unsupportedReason(code);
  if (why) throw new GraphBreak('SOT005', `call of ${name}, which runs concretely: ${why}`);

  const frame = new Frame(code, globals, name);
  bindArguments(code, frame, self ? [self, ...args] : args, kwargs, defaults, kwdefaults);
  // free variables live after the cells in localsplus (COPY_FREE_VARS would copy them; we bind directly)
  const nfree = closure.length;
  for (let i = 0; i < nfree; i++) frame.locals[code.nlocalsplus - nfree + i] = closure[i];
  frame.closureBound = true;
  if (code.isGenerator) return newGenerator(tx, frame, name);
  tx.pushFrame(frame);
  return undefined;
}

export function bindArguments(code: CodeInfo, frame: Frame, args: Variable[], kwargs: [string, Variable][], defaults: Variable[], kwdefaults: [string, Variable][]): void {
  const w = code.wire;
  const nPos = w.argcount;
  const names = w.localsplus;
  const fail = (msg: string): never => { throw new GraphBreak('SOT007', `${code.name}() ${msg}`); };
  const bound: (Variable | undefined)[] = new Array(nPos + w.kwonlyargcount).fill(undefined);
  for (let i = 0; i < Math.min(args.length, nPos); i++) bound[i] = args[i];
  let extra: Variable[] = [];
  if (args.length > nPos) {
    if (!(w.flags & CO_VARARGS)) fail(`takes ${nPos} positional arguments but ${args.length} were given`);
    extra = args.slice(nPos);
  }
  const kwExtraKeys: Variable[] = [], kwExtraVals: Variable[] = [];
  for (const [k, v] of kwargs) {
    const i = names.indexOf(k);
    if (i >= w.posonlyargcount && i < nPos + w.kwonlyargcount) {
      if (bound[i] !== undefined) fail(`got multiple values for argument '${k}'`);
      bound[i] = v;
    } else if (w.flags & CO_VARKEYWORDS) {
      kwExtraKeys.push(new ConstVar({ k: 'str', v: k }));
      kwExtraVals.push(v);
    } else fail(`got an unexpected keyword argument '${k}'`);
  }
  const firstDefault = nPos - defaults.length;
  for (let i = 0; i < nPos; i++) {
    if (bound[i] === undefined) {
      if (i >= firstDefault) bound[i] = defaults[i - firstDefault];
      else fail(`missing required positional argument '${names[i]}'`);
    }
  }
  for (let i = nPos; i < nPos + w.kwonlyargcount; i++) {
    if (bound[i] === undefined) {
      const d = kwdefaults.find(([k]) => k === names[i]);
      if (d) bound[i] = d[1];
      else fail(`missing required keyword-only argument '${names[i]}'`);
    }
  }
  let slot = 0;
  for (; slot < nPos + w.kwonlyargcount; slot++) frame.locals[slot] = bound[slot];
  if (w.flags & CO_VARARGS) frame.locals[slot++] = new TupleVar(extra);
  if (w.flags & CO_VARKEYWORDS) frame.locals[slot++] = new DictVar(kwExtraKeys, kwExtraVals);
}
