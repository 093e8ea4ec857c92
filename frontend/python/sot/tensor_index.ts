// Tensor basic indexing (ints, slices, None, Ellipsis) recorded as slice / strided_slice /
// squeeze / unsqueeze, with exactly the semantics of compat/paddle/_indexing.py getitem (which
// eager runs): integer indices drop their dimension, slices follow slice.indices, None inserts
// a dimension. Anything else (tensor, list or bool indices, errors) runs concretely, so Python
// raises its own error with the user's line.
import { GraphBreak } from '../../../sot/graph_breaks.js';
import { ConstVar, ObjectVar, SliceVar, type TensorVar, TupleVar, type Variable } from '../../../sot/variables.js';
import { hasOp } from '../../../src/ops/registry.js';
import type { Translator } from './translator.js';
import { recordOp, tensorResults } from './semantics.js';
import { asSlice, sliceIndices } from './objects.js';
import { SymIntVar } from './symint.js';
import { symDimIndex, symDimSlice } from './symint_ops.js';

const concrete = (why: string): GraphBreak => new GraphBreak('SOT007', `tensor index: ${why}`);

const isEllipsis = (v: Variable): boolean => v instanceof ObjectVar && v.ref.typeName === 'ellipsis';
const isNone = (v: Variable): boolean => v instanceof ConstVar && v.value.k === 'none';

export function tensorGetItem(tx: Translator, x: TensorVar, index: Variable): Variable {
  const shape = x.sym.shape;
  const rank = shape.length;
  const items = (index instanceof TupleVar ? index.items.slice() : [index]).map((i) => asSlice(tx, i));
  const nEll = items.filter(isEllipsis).length;
  if (nEll > 1) throw concrete('more than one ellipsis');
  const nReal = items.filter((i) => !isNone(i) && !isEllipsis(i)).length;
  if (nReal > rank) throw concrete('too many indices');
  if (nEll) {
    const k = items.findIndex(isEllipsis);
    const fill = Array.from({ length: rank - nReal }, () => new SliceVar(new ConstVar({ k: 'none' }), new ConstVar({ k: 'none' }), new ConstVar({ k: 'none' })));
    items.splice(k, 1, ...fill);
  }
  const axes: number[] = [], starts: number[] = [], ends: number[] = [], steps: number[] = [];
  const squeeze: number[] = [], insert: number[] = [];
  let d = 0, out = 0;
  const dim = (i: number): number => {
    const n = shape[i];
    if (typeof n !== 'number') throw new GraphBreak('SOT008', 'indexing along a symbolic dimension');
    return n;
  };
  for (const it of items) {
    if (isNone(it)) { insert.push(out++); continue; }
    if (it instanceof SliceVar) {
      // a symbolic dim, or symbolic-int bounds: only slices keeping the whole dim (symint_ops.ts)
      if (typeof shape[d] !== 'number' || [it.start, it.stop, it.step].some((b) => b instanceof SymIntVar)) {
        const r = symDimSlice(it, shape[d]);
        if (r) { axes.push(d); starts.push(r[0]); ends.push(r[1]); steps.push(1); }
        d++; out++;
        continue;
      }
      const n = dim(d);
      const r = sliceIndices(tx, it, n);
      if (r.start !== 0 || r.stop !== n || r.step !== 1) { axes.push(d); starts.push(r.start); ends.push(r.stop); steps.push(r.step); }
      d++; out++;
      continue;
    }
    if (it instanceof SymIntVar || (typeof shape[d] !== 'number' && it instanceof ConstVar && it.value.k === 'int')) {
      const i = symDimIndex(it, shape[d]);
      axes.push(d); starts.push(i); ends.push(i + 1); steps.push(1);
      squeeze.push(d);
      d++;
      continue;
    }
    if (!(it instanceof ConstVar) || it.value.k !== 'int') throw concrete(`index of kind ${it.kind}`);
    const n = dim(d);
    let i = Number(it.value.v);
    if (i < -n || i >= n) throw concrete('index out of bounds');
    if (i < 0) i += n;
    axes.push(d); starts.push(i); ends.push(i + 1); steps.push(1);
    squeeze.push(d);
    d++;
  }
  let y: unknown = x.sym;
  const need = (op: string) => { if (!hasOp(op)) throw concrete(`the registry has no ${op}`); };
  if (axes.length) {
    if (steps.some((s) => s !== 1)) { need('strided_slice'); y = recordOp(tx, 'strided_slice', [y], { axes, starts, ends, strides: steps })[0]; }
    else { need('slice'); y = recordOp(tx, 'slice', [y], { axes, starts, ends })[0]; }
  }
  if (squeeze.length) { need('squeeze'); y = recordOp(tx, 'squeeze', [y], { axis: squeeze })[0]; }
  if (insert.length) { need('unsqueeze'); y = recordOp(tx, 'unsqueeze', [y], { axis: insert })[0]; }
  // x[:] and x[...] return x itself in eager too (getitem applies no op)
  return y === x.sym ? x : tensorResults([y as never]);
}
