// Opcodes of CPython 3.10 and 3.11 that later versions renamed or folded into others. Each one
// only moves values and calls the same semantic functions as its 3.12+ counterpart; stack
// layouts that differ by version are read from tx.v (sot/versions.ts). JUMP_IF_*_OR_POP and
// 3.10's frame-start cells are normalized at decoding (bytecode/legacy.ts).
import { GraphBreak } from '../../../sot/graph_breaks.js';
import { ConstVar, ListVar, TupleVar, type Variable } from '../../../sot/variables.js';
import { binaryOp, callVar, unaryOp } from '../sot/semantics.js';
import type { Translator } from '../sot/translator.js';
import { doCall } from './calls.js';
import { EXCEPTIONS } from './exceptions.js';
import { JUMPS } from './jumps.js';
import { pushAttr } from './load_store.js';
import { getAttr } from '../sot/objects.js';
import type { Handler, HandlerTable } from './types.js';
import { LEGACY_BINARY } from '../bytecode/legacy.js';


function strOf(v: Variable): string {
  if (v instanceof ConstVar && v.value.k === 'str') return v.value.v;
  throw new GraphBreak('SOT007', 'keyword name is not a string');
}

/** Rotates the top n values: TOS moves down to position n (ROT_TWO/THREE/FOUR/N). */
function rotate(tx: Translator, n: number): void {
  const s = tx.frame.stack;
  if (n > s.length) throw new Error(`sot: stack underflow in ${tx.code.name} (ROT ${n})`);
  const top = s.pop()!;
  s.splice(s.length - (n - 1), 0, top);
}

const binary = (sym: string): Handler => (tx) => {
  const b = tx.frame.pop(), a = tx.frame.pop();
  const r = binaryOp(tx, sym, a, b);
  if (r !== undefined) tx.frame.push(r);  // an inlined __getitem__-like call pushes on return
};

export const LEGACY: HandlerTable = {
  ...Object.fromEntries(Object.entries(LEGACY_BINARY).map(([name, sym]) => [name, binary(sym)])),
  UNARY_POSITIVE(tx) { tx.frame.push(unaryOp(tx, 'pos', tx.frame.pop())); },
  LIST_TO_TUPLE(tx) {
    const v = tx.frame.pop();
    if (!(v instanceof ListVar)) throw new GraphBreak('SOT007', `LIST_TO_TUPLE of ${v.kind}`);
    tx.frame.push(new TupleVar(v.items.slice()));
  },

  // ---- stack (3.10; 3.11 has COPY/SWAP) ----
  DUP_TOP(tx) { tx.frame.push(tx.frame.peek()); },
  DUP_TOP_TWO(tx) { const b = tx.frame.peek(1), a = tx.frame.peek(2); tx.frame.push(a); tx.frame.push(b); },
  ROT_TWO(tx) { rotate(tx, 2); },
  ROT_THREE(tx) { rotate(tx, 3); },
  ROT_FOUR(tx) { rotate(tx, 4); },
  ROT_N(tx, ins) { rotate(tx, ins.arg); },

  // ---- jumps: 3.10's absolute form (the decoder resolved the target; 3.11's directional
  // POP_JUMP_*_IF_* arrive renamed POP_JUMP_IF_*, bytecode/legacy.ts) ----
  JUMP_ABSOLUTE: JUMPS.JUMP_FORWARD,

  // ---- 3.10's block stack: which handler an exception reaches is a static table per code
  // object (compat/paddle/jit/sot/block_stack.py, CodeInfo.handlerAt), so pushing and popping
  // blocks moves no value; JUMP_IF_NOT_EXC_MATCH is expanded at decoding (bytecode/legacy.ts) ----
  SETUP_FINALLY() {},
  POP_BLOCK() {},
  /** [mgr] -> [bound __exit__, __enter__()] and a block: BEFORE_WITH's stack effect. */
  SETUP_WITH: EXCEPTIONS.BEFORE_WITH,

  // ---- calls ----
  /** 3.11: a specialization point before CALL; the stack is already CALL's. */
  PRECALL() {},
  /** 3.10/3.11: [obj] -> [NULL, attr] (we always push the bound value; CALL treats both forms alike). */
  LOAD_METHOD(tx, ins) { pushAttr(tx, getAttr(tx, tx.frame.pop(), tx.code.wire.names[ins.arg]), true); },
  /** 3.10: [meth|NULL, self|callable, args...], as 3.12's CALL without keywords. */
  CALL_METHOD(tx, ins) { doCall(tx, ins.arg, []); },
  /** 3.10: [callable, args...]. */
  CALL_FUNCTION(tx, ins) {
    const args = tx.frame.popN(ins.arg);
    const r = callVar(tx, tx.frame.pop(), args, []);
    if (r !== undefined) tx.frame.push(r);
  },
  /** 3.10: [callable, args..., kwnames tuple]; the last len(kwnames) args are the keyword values. */
  CALL_FUNCTION_KW(tx, ins) {
    const names = tx.frame.pop();
    if (!(names instanceof TupleVar)) throw new GraphBreak('SOT007', 'CALL_FUNCTION_KW names');
    const kw = names.items.map(strOf);
    const args = tx.frame.popN(ins.arg);
    const fn = tx.frame.pop();
    const npos = args.length - kw.length;
    const r = callVar(tx, fn, args.slice(0, npos), kw.map((k, i): [string, Variable] => [k, args[npos + i]]));
    if (r !== undefined) tx.frame.push(r);
  },
};
