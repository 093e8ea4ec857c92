// Building, extending and unpacking containers; string formatting.
import { GraphBreak } from '../../../sot/graph_breaks.js';
import { ConstVar, DictVar, IterVar, ListVar, SetVar, TensorVar, TupleVar, type Variable } from '../../../sot/variables.js';
import { compareOp, fromComputed, getIter, isPureObject, takeAll, toRt, truthy } from '../sot/semantics.js';
import { dictSet, setAdd, setListItems } from '../sot/methods.js';
import { elements } from '../sot/call_inline.js';
import type { Translator } from '../sot/translator.js';
import type { HandlerTable } from './types.js';

const itemsOf = takeAll;

/** Values whose str/repr/format the host may compute once (no user __repr__/__format__ runs). */
const formattable = (v: Variable): boolean =>
  v instanceof ConstVar || isPureObject(v) || ((v instanceof TupleVar || v instanceof ListVar) && v.items.every(formattable))
  || (v instanceof DictVar && v.keys.every(formattable) && v.values.every(formattable));

function format(tx: Translator, v: Variable, spec: Variable | null): Variable {
  if (v instanceof TensorVar) throw new GraphBreak('SOT004', 'formatting a tensor');
  if (!formattable(v)) throw new GraphBreak('SOT007', `formatting ${v.kind}`);
  const r = toRt(tx, v), s = spec ? toRt(tx, spec) : null;
  if (!r || (spec && !s)) throw new GraphBreak('SOT007', `formatting ${v.kind}`);
  const out = tx.host.concrete(spec ? { opname: 'FORMAT_WITH_SPEC', arg: 0 } : { opname: 'FORMAT_SIMPLE', arg: 0 }, spec ? [r, s!] : [r])[1];
  return fromComputed(tx, out);
}

export const CONTAINERS: HandlerTable = {
  BUILD_TUPLE(tx, ins) { tx.frame.push(new TupleVar(tx.frame.popN(ins.arg))); },
  BUILD_LIST(tx, ins) { tx.frame.push(new ListVar(tx.frame.popN(ins.arg))); },
  BUILD_MAP(tx, ins) {
    const kv = tx.frame.popN(2 * ins.arg);
    const d = new DictVar([], []);
    for (let i = 0; i < kv.length; i += 2) dictSet(tx, d, kv[i], kv[i + 1]);
    tx.frame.push(d);
  },
  BUILD_CONST_KEY_MAP(tx, ins) {
    const keys = tx.frame.pop();
    const vals = tx.frame.popN(ins.arg);
    if (!(keys instanceof TupleVar)) throw new GraphBreak('SOT007', 'BUILD_CONST_KEY_MAP keys');
    const d = new DictVar([], []);
    keys.items.forEach((k, i) => dictSet(tx, d, k, vals[i]));
    tx.frame.push(d);
  },
  LIST_APPEND(tx, ins) {
    const v = tx.frame.pop();
    const l = tx.frame.peek(ins.arg);
    if (!(l instanceof ListVar)) throw new GraphBreak('SOT007', 'LIST_APPEND on a non-list');
    setListItems(tx, l, [...l.items, v]);
  },
  LIST_EXTEND(tx, ins) {
    const v = tx.frame.pop();
    const l = tx.frame.peek(ins.arg);
    if (!(l instanceof ListVar)) throw new GraphBreak('SOT007', 'LIST_EXTEND on a non-list');
    setListItems(tx, l, [...l.items, ...itemsOf(tx, v)]);
  },
  MAP_ADD(tx, ins) {
    const v = tx.frame.pop(), k = tx.frame.pop();
    const d = tx.frame.peek(ins.arg);
    if (!(d instanceof DictVar)) throw new GraphBreak('SOT007', 'MAP_ADD on a non-dict');
    dictSet(tx, d, k, v);
  },
  DICT_UPDATE(tx, ins) {
    const other = tx.frame.pop();
    const d = tx.frame.peek(ins.arg);
    if (!(d instanceof DictVar) || !(other instanceof DictVar)) throw new GraphBreak('SOT007', 'DICT_UPDATE');
    other.keys.forEach((k, i) => dictSet(tx, d, k, other.values[i]));
  },
  DICT_MERGE(tx, ins) {
    const other = tx.frame.pop();
    const d = tx.frame.peek(ins.arg);
    if (!(d instanceof DictVar) || !(other instanceof DictVar)) throw new GraphBreak('SOT007', 'DICT_MERGE');
    // f(**a, **b) with a key in both raises TypeError: the concrete step says so.
    for (const k of other.keys) if (d.keys.some((x) => truthy(tx, compareOp(tx, '==', x, k)))) throw new GraphBreak('SOT007', 'duplicate keyword argument');
    other.keys.forEach((k, i) => dictSet(tx, d, k, other.values[i]));
  },
  BUILD_SET(tx, ins) {
    const s = new SetVar([]);
    for (const v of tx.frame.popN(ins.arg)) setAdd(tx, s, v);
    tx.frame.push(s);
  },
  SET_ADD(tx, ins) {
    const v = tx.frame.pop();
    const s = tx.frame.peek(ins.arg);
    if (!(s instanceof SetVar)) throw new GraphBreak('SOT007', 'SET_ADD on a non-set');
    setAdd(tx, s, v);
  },
  SET_UPDATE(tx, ins) {
    const v = tx.frame.pop();
    const s = tx.frame.peek(ins.arg);
    if (!(s instanceof SetVar)) throw new GraphBreak('SOT007', 'SET_UPDATE on a non-set');
    for (const x of itemsOf(tx, v)) setAdd(tx, s, x);
  },
  UNPACK_SEQUENCE(tx, ins) {
    const v = tx.frame.pop();
    // a tensor unpacks into x[0], x[1], ... (Tensor.__iter__) when its first dim is a number
    const items = elements(tx, v);
    if (items.length !== ins.arg) throw new GraphBreak('SOT007', `unpack: expected ${ins.arg} values, got ${items.length}`);
    for (let i = items.length - 1; i >= 0; i--) tx.frame.push(items[i]);
  },
  UNPACK_EX(tx, ins) {
    const v = tx.frame.pop();
    const items = elements(tx, v);
    const before = ins.arg & 0xff, after = ins.arg >> 8;
    if (items.length < before + after) throw new GraphBreak('SOT007', 'not enough values to unpack');
    const out = [...items.slice(0, before), new ListVar(items.slice(before, items.length - after)), ...items.slice(items.length - after)];
    for (let i = out.length - 1; i >= 0; i--) tx.frame.push(out[i]);
  },
  BUILD_STRING(tx, ins) {
    const parts = tx.frame.popN(ins.arg);
    let s = '';
    for (const p of parts) {
      if (!(p instanceof ConstVar) || p.value.k !== 'str') throw new GraphBreak('SOT007', 'BUILD_STRING of a non-string');
      s += p.value.v;
    }
    tx.frame.push(new ConstVar({ k: 'str', v: s }));
  },
  FORMAT_SIMPLE(tx) { tx.frame.push(format(tx, tx.frame.pop(), null)); },
  FORMAT_WITH_SPEC(tx) { const spec = tx.frame.pop(); tx.frame.push(format(tx, tx.frame.pop(), spec)); },
  CONVERT_VALUE(tx, ins) {
    const v = tx.frame.pop();
    if (v instanceof TensorVar) throw new GraphBreak('SOT004', 'str()/repr() of a tensor');
    const r = formattable(v) ? toRt(tx, v) : null;
    if (!r) throw new GraphBreak('SOT007', `conversion of ${v.kind}`);
    tx.frame.push(fromComputed(tx, tx.host.concrete({ opname: 'CONVERT_VALUE', arg: ins.arg }, [r])[1]));
  },
  FORMAT_VALUE(tx, ins) {
    // 3.12: flags & 3 = conversion (1 str, 2 repr, 3 ascii), flags & 4 = spec present
    const spec = ins.arg & 4 ? tx.frame.pop() : null;
    let v = tx.frame.pop();
    if (ins.arg & 3) {
      if (v instanceof TensorVar) throw new GraphBreak('SOT004', 'str()/repr() of a tensor');
      const r = formattable(v) ? toRt(tx, v) : null;
      if (!r) throw new GraphBreak('SOT007', `conversion of ${v.kind}`);
      v = fromComputed(tx, tx.host.concrete({ opname: 'CONVERT_VALUE', arg: ins.arg & 3 }, [r])[1]);
    }
    tx.frame.push(format(tx, v, spec));
  },
};
