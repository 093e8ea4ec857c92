// Operators, comparisons, truth tests and subscripts.
import { GraphBreak } from '../../../sot/graph_breaks.js';
import { ConstVar, DictVar, ListVar, SliceVar, TensorVar, TupleVar } from '../../../sot/variables.js';
import {
  binaryOp, compareOp, containsOp, dictSet, getItem, isOp, setListItems, truthy, unaryOp, callVar, getAttr,
} from '../sot/semantics.js';
import type { HandlerTable } from './types.js';

export const OPERATORS: HandlerTable = {
  BINARY_OP(tx, ins) {
    const b = tx.frame.pop(), a = tx.frame.pop();
    const sym = tx.host.binaryOpSymbol(ins.arg);
    // x += y on a tensor rebinds x to a new tensor: compat's Tensor has no __iadd__.
    const r = binaryOp(tx, sym, a, b);
    if (r !== undefined) tx.frame.push(r);  // an inlined __getitem__ pushes its result on return
  },
  UNARY_NEGATIVE(tx) { tx.frame.push(unaryOp(tx, 'neg', tx.frame.pop())); },
  UNARY_NOT(tx) { tx.frame.push(unaryOp(tx, 'not', tx.frame.pop())); },
  UNARY_INVERT(tx) { tx.frame.push(unaryOp(tx, 'invert', tx.frame.pop())); },
  CALL_INTRINSIC_1(tx, ins) {
    const name = tx.host.intrinsic1(ins.arg);
    const v = tx.frame.pop();
    if (name === 'INTRINSIC_UNARY_POSITIVE') tx.frame.push(unaryOp(tx, 'pos', v));
    else if (name === 'INTRINSIC_LIST_TO_TUPLE' && v instanceof ListVar) tx.frame.push(new TupleVar(v.items.slice()));
    else { tx.frame.push(v); throw new GraphBreak('SOT101', `intrinsic ${name}`); }
  },
  COMPARE_OP(tx, ins) {
    const b = tx.frame.pop(), a = tx.frame.pop();
    const sym = tx.host.compareSymbol(ins.arg);
    let r = compareOp(tx, sym, a, b);
    if (tx.v.compareToBool && ins.arg & 16) r = new ConstVar({ k: 'bool', v: truthy(tx, r) });
    tx.frame.push(r);
  },
  IS_OP(tx, ins) {
    const b = tx.frame.pop(), a = tx.frame.pop();
    const r = isOp(a, b);
    if (r === null) throw new GraphBreak('SOT007', `\`is\` between ${a.kind} and ${b.kind}`);
    tx.frame.push(new ConstVar({ k: 'bool', v: ins.arg ? !r : r }));
  },
  CONTAINS_OP(tx, ins) {
    const hay = tx.frame.pop(), needle = tx.frame.pop();
    const r = containsOp(tx, needle, hay);
    tx.frame.push(new ConstVar({ k: 'bool', v: ins.arg ? !r : r }));
  },
  TO_BOOL(tx) { tx.frame.push(new ConstVar({ k: 'bool', v: truthy(tx, tx.frame.pop()) })); },

  BINARY_SUBSCR(tx) {
    const key = tx.frame.pop(), obj = tx.frame.pop();
    const r = getItem(tx, obj, key);
    if (r === undefined) return;  // an inlined __getitem__ frame pushes the result on return
    tx.frame.push(r);
  },
  STORE_SUBSCR(tx) {
    const key = tx.frame.pop(), obj = tx.frame.pop(), v = tx.frame.pop();
    if (obj instanceof ListVar && key instanceof ConstVar && key.value.k === 'int') {
      const items = obj.items.slice();
      let i = Number(key.value.v);
      if (i < 0) i += items.length;
      if (i < 0 || i >= items.length) throw new GraphBreak('SOT007', 'list assignment index out of range');
      items[i] = v;
      setListItems(tx, obj, items);
      return;
    }
    if (obj instanceof DictVar) { dictSet(tx, obj, key, v); return; }
    throw new GraphBreak('SOT007', `item assignment on ${obj.kind}`);
  },
  DELETE_SUBSCR(tx) {
    const key = tx.frame.pop(), obj = tx.frame.pop();
    if (obj instanceof DictVar) {
      const i = obj.keys.findIndex((k) => truthy(tx, compareOp(tx, '==', k, key)));
      if (i >= 0) {
        obj.keys = obj.keys.filter((_, j) => j !== i);
        obj.values = obj.values.filter((_, j) => j !== i);
        if (obj.ref) tx.mutated.add(obj);
        return;
      }
    }
    throw new GraphBreak('SOT007', `del of an item of ${obj.kind}`);
  },
  BUILD_SLICE(tx, ins) {
    const none = new ConstVar({ k: 'none' });
    const step = ins.arg === 3 ? tx.frame.pop() : none;
    const stop = tx.frame.pop(), start = tx.frame.pop();
    tx.frame.push(new SliceVar(start, stop, step));
  },
  BINARY_SLICE(tx) {
    const stop = tx.frame.pop(), start = tx.frame.pop(), obj = tx.frame.pop();
    const r = getItem(tx, obj, new SliceVar(start, stop, new ConstVar({ k: 'none' })));
    if (r !== undefined) tx.frame.push(r);
  },
  STORE_SLICE() { throw new GraphBreak('SOT007', 'slice assignment'); },
};

export { callVar, getAttr };
