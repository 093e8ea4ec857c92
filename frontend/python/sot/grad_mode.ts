// `with paddle.no_grad():` inside translated code, simulated instead of run: the block's ops are
// recorded as ops whose outputs pass no gradient (graph nodes marked `detach`, so the captured
// graph's backward stops there and their outputs have stop_gradient=True, as in eager), and
// entering/leaving are logged as side effects (SKIFF_GRAD_PUSH / SKIFF_GRAD_POP) so a concrete
// step inside the block runs with grad mode off, exactly like eager. Without this, the real
// no_grad object (new on every call) would be a step result guarded by identity: a new
// translation per call. Objects standing for the block's pieces when they cross a graph break
// live in compat/paddle/jit/sot/concrete_exc.py (GRAD_ENTER, GRAD_RESTORE, the token).
import { ConstVar, ObjectVar, Variable } from '../../../sot/variables.js';
import type { HostRef } from '../../../sot/values.js';
import type { Translator } from './translator.js';
import type { Tensor } from '../../../src/tensor/tensor.js';
import { isGradEnabled, setGradEnabled } from '../../../src/autograd/mode.js';

/** `paddle.no_grad()` made by the translated code (also what __enter__ returns). */
export class GradModeVar extends Variable {
  readonly kind = 'grad_mode';
  constructor() { super(null); }
}

/** Its bound __enter__ (3.14's LOAD_SPECIAL form) or __exit__. */
export class GradMethodVar extends Variable {
  readonly kind = 'grad_method';
  constructor(readonly which: 'enter' | 'exit') { super(null); }
}

interface Known { noGrad: number; enter: number; exit: number }
const known = new WeakMap<object, Known>();

function ids(tx: Translator): Known {
  let k = known.get(tx.host);
  if (!k) {
    // module-level objects, pinned for good so Python keeps them reachable by id across calls
    const id = (m: string, n: string): number => { const r = tx.host.compatFunction(m, n).id; tx.host.pinId(r); return r; };
    k = { noGrad: id('paddle.autograd', 'no_grad'), enter: id('paddle.jit.sot.concrete_exc', 'GRAD_ENTER'), exit: id('paddle.jit.sot.concrete_exc', 'GRAD_RESTORE') };
    known.set(tx.host, k);
  }
  return k;
}

function enter(tx: Translator): Variable {
  tx.gradDepth++;
  tx.graph.noGrad = true;
  tx.logEffect('SKIFF_GRAD_PUSH', [new ConstVar({ k: 'bool', v: false })]);
  return new GradModeVar();
}

function exit(tx: Translator): Variable {
  if (tx.gradDepth === 0) throw new Error('sot: no_grad exit without an enter');
  tx.gradDepth--;
  tx.graph.noGrad = tx.gradDepth > 0;
  tx.logEffect('SKIFF_GRAD_POP', []);
  return new ConstVar({ k: 'bool', v: false });
}

/**
 * A call the no_grad model answers: `paddle.no_grad()` itself, and the block's __enter__ /
 * __exit__ (simulated, or their host stand-ins after a break). Null: not ours.
 */
export function gradModeCall(tx: Translator, fn: Variable, args: readonly Variable[], kwargs: readonly unknown[]): Variable | null {
  if (fn instanceof GradMethodVar) return fn.which === 'enter' ? enter(tx) : exit(tx);
  if (!(fn instanceof ObjectVar)) return null;
  const info = fn.info;
  if (info.kind === 'class' && info.name === 'no_grad' && args.length === 0 && kwargs.length === 0 && fn.ref.id === ids(tx).noGrad) return new GradModeVar();
  if (info.kind === 'other') {
    const k = ids(tx);
    if (fn.ref.id === k.enter && args.length === 0) return enter(tx);
    if (fn.ref.id === k.exit) return exit(tx);
  }
  return null;
}

/** Whether v is a simulated no_grad block's __exit__ (or its stand-in after a break). */
export function isGradExit(tx: Translator, v: Variable): boolean {
  return (v instanceof GradMethodVar && v.which === 'exit') || (v instanceof ObjectVar && v.info.kind === 'other' && v.ref.id === ids(tx).exit);
}

/** __exit__ of a simulated no_grad block on the exception path: leaves the block, returns False (never swallows). */
export function gradExitWithException(tx: Translator): Variable { return exit(tx);
}

/**
 * How a node entered inside a simulated no_grad block runs its graph: in the grad mode outside
 * the block (the real mode is off there, for the concrete steps inside it), which the host's
 * grad stack remembers; the block's ops are marked in the graph and pass no gradient anyway.
 */
export function outerGradMode(tx: Translator): (run: () => Tensor[]) => Tensor[] {
  const host = tx.host;
  return (run) => {
    const r = host.concrete({ opname: 'SKIFF_GRAD_OUTER', arg: 0 }, [])[1];
    const prev = setGradEnabled(r.k === 'bool' ? r.v : isGradEnabled());
    try {
      return run();
    } finally {
      setGradEnabled(prev);
    }
  };
}

/** The host object standing for a no_grad piece live across a graph break. */
export function gradModeHostObject(tx: Translator, v: GradModeVar | GradMethodVar): HostRef {
  const k = ids(tx);
  if (v instanceof GradMethodVar) return tx.host.object(v.which === 'enter' ? k.enter : k.exit);
  const r = tx.host.concrete({ opname: 'SKIFF_GRAD_TOKEN', arg: 0 }, [])[1];
  if (r.k !== 'obj') throw new Error('sot: no_grad token is not an object');
  return r.ref;
}
