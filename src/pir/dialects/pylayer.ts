// The `skiff` dialect's PyLayer op: a user-defined autograd function (paddle.autograd.PyLayer)
// captured by to_static. Its forward ops are ordinary ops before it (recorded as passing no
// gradient); the op itself only marks the boundary:
//
//   %y0, %y1 = "skiff.pylayer" (%f0, %f1, %x0, %s0) {callee:"pylayer:3:Clip", n_in:1} : ...
//
// operands: forward's outputs (one per result, the values the results stand for), then the
// PyLayer's tensor inputs (n_in), then the tensors its ctx saved for backward. Running it is the
// identity on forward's outputs (the executor aliases them, src/executor/from_pir.ts); its
// reverse rule (sot/pylayer_graph.ts) emits a builtin.host_call of `callee` — the user's Python
// backward — on [saved..., output gradients...] returning one gradient per input. So one
// captured graph serves forward and backward, and an inference export (which never
// differentiates) holds no host call.
import type { Operation, Value } from '../core.js';
import { defineOpKind, type OpKind, registerDialect, tableDialect } from '../opkind.js';
import { checkAttr } from './builtin.js';

export const PYLAYER_OP = 'skiff.pylayer';

export const pyLayerOp: OpKind = defineOpKind({
  name: PYLAYER_OP,
  verify: (op: Operation) => {
    const out = [...checkAttr(op, 'callee', ['str']), ...checkAttr(op, 'n_in', ['int'])];
    const nIn = op.attr('n_in');
    if (nIn?.kind === 'int' && op.numOperands < op.numResults + nIn.value) out.push(`expects at least ${op.numResults + nIn.value} operands (outputs + inputs), got ${op.numOperands}`);
    op.results.forEach((r, k) => {
      const f = op.operand(k);
      if (f && String(f.type) !== String(r.type)) out.push(`result ${k} has type ${String(r.type)} but forward's output ${k} is ${String(f.type)}`);
    });
    return out;
  },
});

export const skiffDialect = registerDialect(tableDialect('skiff', [pyLayerOp]));

/** The parts of a skiff.pylayer op's operands. */
export function pyLayerOperands(op: Operation): { forward: Value[]; inputs: Value[]; saved: Value[] } {
  const nOut = op.numResults;
  const a = op.attr('n_in');
  const nIn = a?.kind === 'int' ? a.value : 0;
  const all = op.operandValues() as Value[];
  return { forward: all.slice(0, nOut), inputs: all.slice(nOut, nOut + nIn), saved: all.slice(nOut + nIn) };
}
