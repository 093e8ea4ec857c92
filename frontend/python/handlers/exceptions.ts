// try/except/finally, raise and `with` (3.11+: exception tables). The normal path of a `with`
// or `try` block is simulated like any code; an exception reaches a handler in two ways:
//  - a concrete step raises at run time: the trace tree continues at the handler that the
//    exception table names (sot/trace_tree.ts Exit.unwind, laid out by ../sot/unwind.ts);
//  - the simulated code re-raises an exception it holds (RERAISE, bare `raise`): the frames are
//    unwound here, at translation time, to the handler, or the raise becomes a concrete step
//    when no simulated frame catches it (the exception then leaves the function as in eager).
// A `raise X(...)` always runs as a concrete step (SOT012), so the exception object, its
// context and its traceback are Python's own.
import { GraphBreak } from '../../../sot/graph_breaks.js';
import { HostError } from '../../../sot/host.js';
import { ConstVar, NULL, ObjectVar, TupleVar, type Variable } from '../../../sot/variables.js';
import { callVar, toRt } from '../sot/semantics.js';
import { getAttr } from '../sot/objects.js';
import { currentException, enterHandler, findHandler } from '../sot/unwind.js';
import { GradMethodVar, GradModeVar, gradExitWithException, gradModeCall, isGradExit } from '../sot/grad_mode.js';
import type { Translator } from '../sot/translator.js';
import type { Instruction } from '../bytecode/decode.js';
import type { HandlerTable } from './types.js';

const NONE = (): ConstVar => new ConstVar({ k: 'none' });

/** LOAD_SPECIAL's argument (3.14): which special method it loads. */
const SPECIAL = ['__enter__', '__exit__', '__aenter__', '__aexit__'];

/** A raise of `exc` the simulation can route itself: to a handler of a simulated frame, else out of the function as a concrete step. */
function reraise(tx: Translator, exc: Variable, ins: Instruction): void {
  const h = findHandler(tx.frames, ins.index);
  if (!h) throw raiseStep([NONE(), exc], 'the exception leaves the translated function');
  enterHandler(tx, h, exc);
}

/** 3.10 keeps exc_info as (tb, value, type) triples: the translator holds the exception (or None) in each slot. */
const popExcSlot = (tx: Translator): Variable => (tx.v.blockStack ? tx.frame.popN(3)[2] : tx.frame.pop());

/** The break that raises for real: SKIFF_RAISE_CTX on [handled exception or None, raise operands...]. */
function raiseStep(operands: Variable[], detail: string): GraphBreak {
  return new GraphBreak('SOT012', detail, undefined, { opname: 'SKIFF_RAISE_CTX', operands });
}

/** Context managers whose __enter__/__exit__ are Python code the translator may inline. */
const inlinableManager = (v: Variable): v is ObjectVar => v instanceof ObjectVar && (v.info.kind === 'other' || v.info.kind === 'layer');

function specialMethod(tx: Translator, mgr: ObjectVar, name: string): Variable {
  try {
    return getAttr(tx, mgr, name);
  } catch (e) {
    // A missing special method: the concrete step raises eager's TypeError.
    if (e instanceof GraphBreak || e instanceof HostError) throw new GraphBreak('SOT007', `context manager without ${name}`);
    throw e;
  }
}

export const EXCEPTIONS: HandlerTable = {
  PUSH_EXC_INFO(tx) {
    const f = tx.frame;
    const exc = f.pop();
    f.push(currentException(tx) ?? NONE());
    f.push(exc);
    f.excInfo = exc;
  },
  POP_EXCEPT(tx) {
    const f = tx.frame;
    const prev = popExcSlot(tx);
    f.excInfo = prev instanceof ConstVar && prev.value.k === 'none' ? null : prev;
  },
  CHECK_EXC_MATCH(tx) {
    const f = tx.frame;
    const cls = f.peek(1), exc = f.peek(2);
    const e = exc instanceof ObjectVar ? toRt(tx, exc) : null;
    const c = cls instanceof ObjectVar || cls instanceof TupleVar ? toRt(tx, cls) : null;
    if (!e || !c || (cls instanceof TupleVar && !cls.items.every((x) => x instanceof ObjectVar))) {
      throw new GraphBreak('SOT007', 'except clause on a value the translator does not hold');
    }
    // The exception's type is guarded (its entry slot), the class by the wrapper's global guard:
    // the match is decided once, with Python's own isinstance (a non-exception class raises
    // eager's TypeError through the concrete step).
    let r;
    try {
      r = tx.host.concrete({ opname: 'CHECK_EXC_MATCH', arg: 0 }, [e, c])[2];
    } catch (err) {
      if (err instanceof HostError) throw new GraphBreak('SOT007', `${err.pyType}: ${err.message}`);
      throw err;
    }
    if (r?.k !== 'bool') throw new GraphBreak('SOT007', 'except clause match is not a bool');
    f.pop();
    f.push(new ConstVar(r));
  },
  RERAISE(tx, ins) { reraise(tx, popExcSlot(tx), ins); },
  RAISE_VARARGS(tx, ins) {
    const ctx = currentException(tx);
    if (ins.arg === 0) {
      // bare `raise`: re-raises the exception being handled
      if (!ctx) throw raiseStep([NONE()], 'raise without an active exception');
      reraise(tx, ctx, ins);
      return;
    }
    const ops = tx.frame.stack.slice(tx.frame.stack.length - ins.arg);
    throw raiseStep([ctx ?? NONE(), ...ops], 'raise');
  },
  WITH_EXCEPT_START(tx) {
    // [exit, (exit self on 3.14,) lasti, previous exception, exception]; 3.10: [exit, 3 previous, 3 current]
    if (isGradExit(tx, tx.frame.peek(tx.v.blockStack ? 7 : tx.v.minor >= 14 ? 5 : 4))) { tx.frame.push(gradExitWithException(tx)); return; }
    // __exit__ with an exception runs for real (it may swallow it): only on exception paths.
    throw new GraphBreak('SOT012', '__exit__ with an exception');
  },
  BEFORE_WITH(tx) {
    const mgr = tx.frame.peek();
    if (mgr instanceof GradModeVar) {
      tx.frame.pop();
      tx.frame.push(new GradMethodVar('exit'));
      tx.frame.push(gradModeCall(tx, new GradMethodVar('enter'), [], [])!);
      return;
    }
    if (!inlinableManager(mgr)) throw new GraphBreak('SOT007', `with on a ${mgr.kind}`);
    const exit = specialMethod(tx, mgr, '__exit__');
    const enter = specialMethod(tx, mgr, '__enter__');
    tx.frame.pop();
    tx.frame.push(exit);
    const r = callVar(tx, enter, [], []);
    if (r !== undefined) tx.frame.push(r);
  },
  LOAD_SPECIAL(tx, ins) {
    const owner = tx.frame.peek();
    const name = SPECIAL[ins.arg];
    if (owner instanceof GradModeVar && (ins.arg === 0 || ins.arg === 1)) {
      tx.frame.pop();
      const m = new GradMethodVar(ins.arg === 0 ? 'enter' : 'exit');
      if (tx.v.nullAfterAttr) { tx.frame.push(m); tx.frame.push(NULL); } else { tx.frame.push(NULL); tx.frame.push(m); }
      return;
    }
    if (!name || !inlinableManager(owner)) throw new GraphBreak('SOT007', `special method ${name ?? ins.arg} of a ${owner.kind}`);
    const m = specialMethod(tx, owner, name);
    tx.frame.pop();
    // the method form, as the concrete step pushes it: [bound method, NULL] in the version's order
    if (tx.v.nullAfterAttr) { tx.frame.push(m); tx.frame.push(NULL); } else { tx.frame.push(NULL); tx.frame.push(m); }
  },
};
