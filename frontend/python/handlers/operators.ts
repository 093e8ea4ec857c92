// Operators, comparisons, truth tests and subscripts.
import { GraphBreak } from '../../../sot/graph_breaks.js';
import { ConstVar, ListVar, SliceVar, TensorVar, TupleVar } from '../../../sot/variables.js';
import { binaryOp, compareOp, containsOp, isOp, truthy, unaryOp } from '../sot/semantics.js';
import { delItem, getItem, setItem } from '../sot/objects.js';
import { functionalizeSetItem } from '../sot/inplace.js';
import { captureEnabled, nextIsValueJump } from '../sot/capture_cf.js';
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
    else throw new GraphBreak('SOT007', `intrinsic ${name} on ${v.kind}`);
  },
  COMPARE_OP(tx, ins) {
    const b = tx.frame.pop(), a = tx.frame.pop();
    const sym = tx.host.compareSymbol(ins.arg);
    let r = compareOp(tx, sym, a, b);
    if (tx.v.compareToBool && ins.arg & 16) {
      // `if t.sum() > 0` (3.13+): the comparison is captured, only its bool() runs concretely;
      // a captured branch (capture_cf.ts) takes the tensor itself.
      if (r instanceof TensorVar && nextIsValueJump(tx) && captureEnabled(tx)) { tx.frame.push(r); return; }
      if (r instanceof TensorVar) throw new GraphBreak('SOT001', 'branch on a tensor comparison', undefined, { opname: 'TO_BOOL', operands: [r] });
      r = new ConstVar({ k: 'bool', v: truthy(tx, r) });
    }
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
  TO_BOOL(tx) {
    const v = tx.frame.pop();
    // A jump on the truth of a tensor in capturing code: the jump takes the tensor (capture_cf.ts).
    if (v instanceof TensorVar && nextIsValueJump(tx) && captureEnabled(tx)) { tx.frame.push(v); return; }
    tx.frame.push(new ConstVar({ k: 'bool', v: truthy(tx, v) }));
  },

  BINARY_SUBSCR(tx) {
    const key = tx.frame.pop(), obj = tx.frame.pop();
    const r = getItem(tx, obj, key);
    if (r === undefined) return;  // an inlined __getitem__ frame pushes the result on return
    tx.frame.push(r);
  },
  STORE_SUBSCR(tx) {
    const key = tx.frame.pop(), obj = tx.frame.pop(), v = tx.frame.pop();
    if (obj instanceof TensorVar) { functionalizeSetItem(tx, obj, key, v); return; }
    setItem(tx, obj, key, v);
  },
  DELETE_SUBSCR(tx) {
    const key = tx.frame.pop(), obj = tx.frame.pop();
    delItem(tx, obj, key);
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
  STORE_SLICE(tx) {
    const stop = tx.frame.pop(), start = tx.frame.pop(), obj = tx.frame.pop(), v = tx.frame.pop();
    if (obj instanceof TensorVar) throw new GraphBreak('SOT007', 'tensor slice assignment (runs concretely on the real tensor)');
    setItem(tx, obj, new SliceVar(start, stop, new ConstVar({ k: 'none' })), v);
  },
};
