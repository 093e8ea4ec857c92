// paddle.static.append_backward and paddle.static.gradients: program autodiff (src/pir/autodiff)
// over paddle.static Programs, with Paddle's conventions: feeds stop gradients unless a user
// sets `x.stop_gradient = false`, parameters follow their tensor's stop_gradient (trainable),
// gradient values are named `<name>@GRAD`, and the gradient ops are appended to the program
// (a joint forward+backward program that one Executor.run computes).
import { gradients as pirGradients } from '../pir/autodiff/index.js';
import { BlockArgument, type Operation, Value } from '../pir/index.js';
import { currentProgram } from './mode.js';
import { nameOfValue, type Program, programOfModule } from './program.js';
import { global_scope } from './scope.js';

/** stop_gradient set explicitly on program values (x.stop_gradient = false on a feed). */
const explicitStop = new WeakMap<Value, boolean>();

function topModule(v: Value): Operation | null {
  let op: Operation | null = v instanceof BlockArgument ? v.owner.parentOp : v.definingOp;
  while (op && op.name !== 'builtin.module') op = op.parentOp;
  return op;
}

/** The paddle.static Program a value belongs to. */
export function programOf(v: Value, what: string): Program {
  const m = topModule(v);
  const p = m ? programOfModule(m) : undefined;
  if (p) return p;
  const cur = currentProgram();
  if (cur.owns(v)) return cur;
  throw new Error(`${what}: the value is not part of a paddle.static Program`);
}

/** The eager tensor behind a parameter value (its program's captured tensor or the global scope's). */
function parameterTensor(prog: Program, v: Value) {
  const a = v.definingOp?.attr('parameter_name');
  if (a?.kind !== 'str') return undefined;
  return prog.boundTensor(a.value) ?? global_scope().get(a.value);
}

/**
 * Paddle's default stop_gradient of a program value: explicit if set; feeds stop; parameters
 * follow their tensor (not trainable = stop); op results stop when every input stops.
 */
export function stopGradientOf(v: Value): boolean {
  const memo = new Map<Value, boolean>();
  const visit = (x: Value): boolean => {
    const e = explicitStop.get(x);
    if (e !== undefined) return e;
    const hit = memo.get(x);
    if (hit !== undefined) return hit;
    const op = x.definingOp;
    let r = true;
    if (!op || op.name === 'pd_op.data' || op.name === 'builtin.constant') r = true;
    else if (op.name === 'builtin.parameter') {
      let prog: Program | undefined;
      try { prog = programOf(x, 'stop_gradient'); } catch { prog = undefined; }
      r = prog ? (parameterTensor(prog, x)?.stop_gradient ?? true) : true;
    } else r = op.operandValues().every((o) => !o || visit(o));
    memo.set(x, r);
    return r;
  };
  return visit(v);
}

if (!Object.getOwnPropertyDescriptor(Value.prototype, 'stop_gradient')) {
  Object.defineProperty(Value.prototype, 'stop_gradient', {
    get(this: Value) { return stopGradientOf(this); },
    set(this: Value, s: boolean) { explicitStop.set(this, !!s); },
    configurable: true,
  });
}

type ValueRef = Value | string;
const resolve = (prog: Program, r: ValueRef, what: string): Value => {
  if (r instanceof Value) return r;
  const v = prog.valueByName(r);
  if (!v) throw new Error(`${what}: '${r}' is not a value of the program`);
  return v;
};

function noGradSet(prog: Program, set: Iterable<ValueRef> | null | undefined, what: string): Set<Value> {
  const out = new Set<Value>();
  for (const r of set ?? []) out.add(resolve(prog, r, what));
  // Values marked stop_gradient explicitly cut gradients too.
  prog.pir.walk((op) => { for (const r of op.results) if (explicitStop.get(r) === true) out.add(r); });
  return out;
}

function nameGrads(prog: Program) {
  return (fwd: Value, g: Value): void => prog._name(g, `${nameOfValue(fwd) ?? `value_${fwd.id}`}@GRAD`);
}

/**
 * Appends the backward of `loss` to its program and returns [parameter, gradient] pairs for the
 * parameters in `parameter_list` (default: every trainable parameter the program uses).
 * Feeds with `stop_gradient = false` get gradients too (fetch them by `<name>@GRAD`).
 * @example
 *   const pg = paddle.static.append_backward(loss);
 *   const [lossV, gw] = exe.run(main, { feed, fetch_list: [loss, pg[0][1]] });
 */
export function append_backward(loss: Value, parameter_list?: readonly ValueRef[] | null, no_grad_set?: Iterable<ValueRef> | null,
  _callbacks?: unknown): [Value, Value][] {
  if (!(loss instanceof Value)) throw new TypeError('append_backward: loss must be a value of a paddle.static Program');
  const prog = programOf(loss, 'append_backward');
  const params = parameter_list
    ? parameter_list.map((p) => resolve(prog, p, 'append_backward'))
    : prog.pir.block.ops.filter((op) => op.name === 'builtin.parameter' && !stopGradientOf(op.result(0))).map((op) => op.result(0));
  const feeds = prog.pir.block.ops.filter((op) => op.name === 'pd_op.data' && explicitStop.get(op.result(0)) === false).map((op) => op.result(0));
  const inputs = [...new Set([...params, ...feeds])];
  const grads = pirGradients(prog.pir.block, [loss], inputs, { noGrad: noGradSet(prog, no_grad_set, 'append_backward'), onGrad: nameGrads(prog) });
  const pairs: [Value, Value][] = [];
  params.forEach((p, i) => { const g = grads[i]; if (g) pairs.push([p, g]); });
  return pairs;
}

/**
 * Gradients of `targets` (seeded with `target_gradients`, default ones) with respect to
 * `inputs`, appended to the program; null for an input no target depends on.
 * @example const [gx] = paddle.static.gradients([y], [x]);
 */
export function gradients(targets: Value | readonly Value[], inputs: Value | readonly Value[],
  target_gradients?: Value | readonly (Value | null)[] | null, no_grad_set?: Iterable<ValueRef> | null): (Value | null)[] {
  const ts = targets instanceof Value ? [targets] : [...targets];
  const xs = inputs instanceof Value ? [inputs] : [...inputs];
  if (!ts.length) throw new TypeError('gradients: targets is empty');
  const prog = programOf(ts[0], 'gradients');
  const seeds = target_gradients == null ? undefined : target_gradients instanceof Value ? [target_gradients] : [...target_gradients];
  if (seeds && seeds.length !== ts.length) throw new TypeError(`gradients: ${seeds.length} target_gradients for ${ts.length} targets`);
  return pirGradients(prog.pir.block, ts, xs, { targetGrads: seeds, noGrad: noGradSet(prog, no_grad_set, 'gradients'), onGrad: nameGrads(prog) });
}
