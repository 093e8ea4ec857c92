// Loads and stores of locals, cells, globals and attributes.
import { GraphBreak } from '../../../sot/graph_breaks.js';
import { globalSource } from '../../../sot/sources.js';
import { CellVar, ConstVar, NULL, ObjectVar, TensorVar, type Variable } from '../../../sot/variables.js';
import { fromHostRead, getAttr, setAttr } from '../sot/semantics.js';
import type { Translator } from '../sot/translator.js';
import type { HandlerTable } from './types.js';

function loadFast(tx: Translator, i: number): Variable {
  const v = tx.frame.locals[i];
  if (v === undefined) throw new GraphBreak('SOT007', `local variable '${tx.frame.localName(i)}' referenced before assignment`);
  return v;
}

function constAt(tx: Translator, i: number): Variable {
  const c = tx.code.consts[i];
  if (c.k === 'tensor') return tx.constTensor(c.t);
  return tx.fromRt(c, null, false);
}

function loadGlobal(tx: Translator, name: string): Variable {
  const written = tx.globalOverlay.get(`${tx.frame.globals.id as number}.${name}`);
  if (written) return written;
  const { value } = tx.host.globalLookup(tx.frame.globals, name);
  return fromHostRead(tx, value, globalSource(name));
}

function cellOf(tx: Translator, i: number): CellVar {
  const c = tx.frame.locals[i];
  if (!(c instanceof CellVar)) throw new GraphBreak('SOT007', `free variable '${tx.frame.localName(i)}' is not a cell`);
  return c;
}

export const LOAD_STORE: HandlerTable = {
  LOAD_CONST(tx, ins) { tx.frame.push(constAt(tx, ins.arg)); },
  LOAD_SMALL_INT(tx, ins) { tx.frame.push(new ConstVar({ k: 'int', v: ins.arg })); },
  LOAD_FAST(tx, ins) { tx.frame.push(loadFast(tx, ins.arg)); },
  LOAD_FAST_CHECK(tx, ins) { tx.frame.push(loadFast(tx, ins.arg)); },
  LOAD_FAST_BORROW(tx, ins) { tx.frame.push(loadFast(tx, ins.arg)); },
  LOAD_FAST_AND_CLEAR(tx, ins) {
    // comprehension scopes (3.12+): push the old value (or NULL) and unbind
    const v = tx.frame.locals[ins.arg];
    tx.frame.push(v ?? NULL);
    tx.frame.locals[ins.arg] = undefined;
  },
  LOAD_FAST_LOAD_FAST(tx, ins) { tx.frame.push(loadFast(tx, ins.arg >> 4)); tx.frame.push(loadFast(tx, ins.arg & 15)); },
  LOAD_FAST_BORROW_LOAD_FAST_BORROW(tx, ins) { tx.frame.push(loadFast(tx, ins.arg >> 4)); tx.frame.push(loadFast(tx, ins.arg & 15)); },
  STORE_FAST(tx, ins) {
    const v = tx.frame.pop();
    tx.frame.locals[ins.arg] = v === NULL ? undefined : v;
  },
  STORE_FAST_LOAD_FAST(tx, ins) { tx.frame.locals[ins.arg >> 4] = tx.frame.pop(); tx.frame.push(loadFast(tx, ins.arg & 15)); },
  STORE_FAST_STORE_FAST(tx, ins) { tx.frame.locals[ins.arg >> 4] = tx.frame.pop(); tx.frame.locals[ins.arg & 15] = tx.frame.pop(); },
  DELETE_FAST(tx, ins) { loadFast(tx, ins.arg); tx.frame.locals[ins.arg] = undefined; },

  LOAD_GLOBAL(tx, ins) {
    const name = tx.code.wire.names[ins.arg >> 1];
    const v = loadGlobal(tx, name);
    if (ins.arg & 1 && !tx.v.nullAfterGlobal) tx.frame.push(NULL);
    tx.frame.push(v);
    if (ins.arg & 1 && tx.v.nullAfterGlobal) tx.frame.push(NULL);
  },
  STORE_GLOBAL(tx, ins) {
    const name = tx.code.wire.names[ins.arg];
    const v = tx.frame.pop();
    tx.logEffect('SKIFF_STORE_GLOBAL', [tx.objectVar(tx.frame.globals, null), new ConstVar({ k: 'str', v: name }), v]);
    tx.globalOverlay.set(`${tx.frame.globals.id as number}.${name}`, v);
  },
  DELETE_GLOBAL() { throw new GraphBreak('SOT007', 'del of a global'); },

  MAKE_CELL(tx, ins) {
    const v = tx.frame.locals[ins.arg];
    if (v instanceof CellVar && tx.frame.closureBound) return;
    tx.frame.locals[ins.arg] = new CellVar(v ?? null);
  },
  COPY_FREE_VARS(tx, ins) {
    if (tx.frame.closureBound) return;
    // Outermost frame: its closure was bound when the frame was built (see runtime.ts).
    void ins;
  },
  LOAD_DEREF(tx, ins) {
    const c = cellOf(tx, ins.arg);
    if (!c.contents) throw new GraphBreak('SOT007', `free variable '${tx.frame.localName(ins.arg)}' referenced before assignment`);
    tx.frame.push(c.contents);
  },
  STORE_DEREF(tx, ins) {
    const c = cellOf(tx, ins.arg);
    const v = tx.frame.pop();
    if (c.source) throw new GraphBreak('SOT007', 'assignment to a nonlocal of an outer function');
    c.contents = v;
  },
  DELETE_DEREF(tx, ins) { cellOf(tx, ins.arg).contents = null; },
  LOAD_CLOSURE(tx, ins) { tx.frame.push(cellOf(tx, ins.arg)); },

  LOAD_ATTR(tx, ins) {
    const name = tx.code.wire.names[ins.arg >> 1];
    const obj = tx.frame.pop();
    const v = getAttr(tx, obj, name);
    if (ins.arg & 1) {
      // method form: [meth, self] when it is a plain function on the type; we push a bound
      // value and NULL in the version's order (CALL handles both the same way).
      if (tx.v.nullAfterAttr) { tx.frame.push(v); tx.frame.push(NULL); }
      else { tx.frame.push(NULL); tx.frame.push(v); }
    } else tx.frame.push(v);
  },
  STORE_ATTR(tx, ins) {
    const name = tx.code.wire.names[ins.arg];
    const obj = tx.frame.pop();
    const v = tx.frame.pop();
    if (obj instanceof TensorVar) throw new GraphBreak('SOT007', `setting tensor attribute '${name}'`);
    setAttr(tx, obj, name, v);
  },
  DELETE_ATTR(tx, ins) { void ins; throw new GraphBreak('SOT007', 'del of an attribute'); },

  LOAD_ASSERTION_ERROR(tx) { tx.frame.push(loadGlobal(tx, 'AssertionError')); },
  LOAD_COMMON_CONSTANT(tx, ins) {
    const names = ['AssertionError', 'NotImplementedError', 'tuple', 'all', 'any'];
    tx.frame.push(loadGlobal(tx, names[ins.arg] ?? 'AssertionError'));
  },
};

export { ObjectVar };
