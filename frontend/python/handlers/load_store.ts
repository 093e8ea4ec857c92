// Loads and stores of locals, cells, globals and attributes.
import { GraphBreak } from '../../../sot/graph_breaks.js';
import { globalSource } from '../../../sot/sources.js';
import { CellVar, ConstVar, NULL, ObjectVar, SuperVar, TensorVar, type Variable } from '../../../sot/variables.js';
import { fromHostRead, toRt } from '../sot/semantics.js';
import { asSlice, delAttr, getAttr, setAttr } from '../sot/objects.js';
import { callToReturn } from '../sot/call_inline.js';
import type { Translator } from '../sot/translator.js';
import type { HandlerTable } from './types.js';

function loadFast(tx: Translator, i: number): Variable {
  const v = tx.frame.locals[i];
  if (v === undefined) {
    const name = tx.frame.localName(i);
    throw new GraphBreak('SOT007', `unbound local '${name}'`, { type: 'UnboundLocalError', message: unboundLocalMessage(tx, name) });
  }
  return v;
}

/** CPython's wording, which 3.11 changed. */
function unboundLocalMessage(tx: Translator, name: string): string {
  return tx.v.minor <= 10 ? `local variable '${name}' referenced before assignment` : `cannot access local variable '${name}' where it is not associated with a value`;
}

/** The error CPython raises for reading an empty cell (a free variable, or a cell of this frame). */
function unboundCell(tx: Translator, i: number): GraphBreak {
  const name = tx.frame.localName(i);
  const freeMessage = tx.v.minor <= 10
    ? `free variable '${name}' referenced before assignment in enclosing scope`
    : `cannot access free variable '${name}' where it is not associated with a value in enclosing scope`;
  return tx.code.wire.localkinds[i] === 'f'
    ? new GraphBreak('SOT007', `unbound free variable '${name}'`, { type: 'NameError', message: freeMessage })
    : new GraphBreak('SOT007', `unbound local '${name}'`, { type: 'UnboundLocalError', message: unboundLocalMessage(tx, name) });
}

function constAt(tx: Translator, i: number): Variable {
  const c = tx.code.consts[i];
  if (c.k === 'tensor') return tx.constTensor(c.t);
  // 3.14 folds constant slices (x[1:3]) into slice objects
  return asSlice(tx, tx.fromRt(c, null, false));
}

function loadGlobal(tx: Translator, name: string): Variable {
  const written = tx.globalOverlay.get(`${tx.frame.globals.id as number}.${name}`);
  if (written) return written;
  // Deleted in this segment: the concrete LOAD_GLOBAL (after the deletion is replayed) raises.
  if (written === null) throw new GraphBreak('SOT007', `global '${name}' was deleted`);
  const { value } = tx.host.globalLookup(tx.frame.globals, name);
  return fromHostRead(tx, value, globalSource(name), false, tx.frame.globals);
}

/**
 * The method form of LOAD_ATTR pushes [meth, self] when the attribute is a plain function on
 * the type; we always push a bound value and NULL in the version's order (CALL treats both the
 * same way).
 */
export function pushAttr(tx: Translator, v: Variable, methodForm: boolean): void {
  if (!methodForm) tx.frame.push(v);
  else if (tx.v.nullAfterAttr) { tx.frame.push(v); tx.frame.push(NULL); }
  else { tx.frame.push(NULL); tx.frame.push(v); }
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
    // 3.10: the arg is the name index itself (no NULL bit)
    const withNull = tx.v.globalNullBit && (ins.arg & 1) === 1;
    const name = tx.code.wire.names[tx.v.globalNullBit ? ins.arg >> 1 : ins.arg];
    const v = loadGlobal(tx, name);
    if (withNull && !tx.v.nullAfterGlobal) tx.frame.push(NULL);
    tx.frame.push(v);
    if (withNull && tx.v.nullAfterGlobal) tx.frame.push(NULL);
  },
  STORE_GLOBAL(tx, ins) {
    const name = tx.code.wire.names[ins.arg];
    const v = tx.frame.pop();
    tx.logEffect('SKIFF_STORE_GLOBAL', [tx.objectVar(tx.frame.globals, null), new ConstVar({ k: 'str', v: name }), v]);
    tx.globalOverlay.set(`${tx.frame.globals.id as number}.${name}`, v);
  },
  DELETE_GLOBAL(tx, ins) {
    const name = tx.code.wire.names[ins.arg];
    const key = `${tx.frame.globals.id as number}.${name}`;
    // Only a name bound in the globals dict can be deleted (the concrete step raises NameError).
    if (tx.globalOverlay.get(key) === null || (!tx.globalOverlay.has(key) && tx.host.globalLookup(tx.frame.globals, name).builtin)) {
      throw new GraphBreak('SOT007', `del of the unbound global '${name}'`);
    }
    tx.logEffect('SKIFF_DELETE_GLOBAL', [tx.objectVar(tx.frame.globals, null), new ConstVar({ k: 'str', v: name })]);
    tx.globalOverlay.set(key, null);
  },

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
    if (!c.contents) throw unboundCell(tx, ins.arg);
    tx.frame.push(c.contents);
  },
  STORE_DEREF(tx, ins) {
    const c = cellOf(tx, ins.arg);
    const v = tx.frame.pop();
    // A real cell (closure of a real function) is written when the graph has run.
    if (c.ref) tx.logEffect('SKIFF_CELL_SET', [tx.objectVar(c.ref, null), v]);
    c.contents = v;
  },
  DELETE_DEREF(tx, ins) {
    const c = cellOf(tx, ins.arg);
    if (!c.contents) throw unboundCell(tx, ins.arg);
    if (c.ref) tx.logEffect('SKIFF_CELL_DEL', [tx.objectVar(c.ref, null)]);
    c.contents = null;
  },
  LOAD_CLOSURE(tx, ins) { tx.frame.push(cellOf(tx, ins.arg)); },

  LOAD_ATTR(tx, ins) {
    // 3.10/3.11: the arg is the name index itself (their method form is LOAD_METHOD)
    const name = tx.code.wire.names[tx.v.attrMethodBit ? ins.arg >> 1 : ins.arg];
    pushAttr(tx, getAttr(tx, tx.frame.pop(), name), tx.v.attrMethodBit && (ins.arg & 1) === 1);
  },
  LOAD_SUPER_ATTR(tx, ins) {
    const self = tx.frame.pop(), cls = tx.frame.pop(), glob = tx.frame.pop();
    const name = tx.code.wire.names[ins.arg >> 2];
    if (!(glob instanceof ObjectVar && glob.info.kind === 'builtin' && glob.info.name === 'super')) {
      // A global `super` shadowing the builtin: CPython calls it (with (cls, self) only in the
      // two-argument form, arg & 2) and reads the attribute of whatever it returns.
      const made = callToReturn(tx, glob, (ins.arg & 2) ? [cls, self] : [], []);
      pushAttr(tx, getAttr(tx, made, name), (ins.arg & 1) === 1);
      return;
    }
    pushAttr(tx, getAttr(tx, new SuperVar(cls, self), name), (ins.arg & 1) === 1);
  },
  STORE_ATTR(tx, ins) {
    const name = tx.code.wire.names[ins.arg];
    const obj = tx.frame.pop();
    const v = tx.frame.pop();
    if (obj instanceof TensorVar) throw new GraphBreak('SOT007', `setting tensor attribute '${name}'`);
    setAttr(tx, obj, name, v);
  },
  DELETE_ATTR(tx, ins) { delAttr(tx, tx.frame.pop(), tx.code.wire.names[ins.arg]); },

  // Both load the builtin object itself, whatever the globals say.
  LOAD_ASSERTION_ERROR(tx) { tx.frame.push(tx.host.builtinVar(tx, 'AssertionError')); },
  LOAD_COMMON_CONSTANT(tx, ins) { tx.frame.push(tx.host.builtinVar(tx, tx.host.decoder.info.commonConstants[ins.arg])); },

  IMPORT_NAME(tx, ins) {
    const fromlist = tx.frame.pop(), level = tx.frame.pop();
    const name = tx.code.wire.names[ins.arg];
    const fl = toRt(tx, fromlist), lv = level instanceof ConstVar && level.value.k === 'int' ? Number(level.value.v) : -1;
    const mod = fl && lv === 0 ? tx.host.importedModule(tx.frame.globals, name, fl, lv) : null;
    if (!mod) throw new GraphBreak('SOT005', `import of ${name} (runs the import)`);
    tx.frame.push(tx.fromRt(mod, null, false));
  },
  IMPORT_FROM(tx, ins) {
    const mod = tx.frame.peek();
    tx.frame.push(getAttr(tx, mod, tx.code.wire.names[ins.arg]));
  },
};

export { ObjectVar };
