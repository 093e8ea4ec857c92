// A Python int derived from a symbolic (dynamic) tensor dim: `x.shape[0]`, `len(x)`, `x.size`,
// and + - * // of those with ints. It stays symbolic (a SymDim expression over the graph's
// symbols) so one translation serves every size; frontend/python/sot/symint.ts says what may be
// done with it. Kept free of frontend imports so semantics.ts can test `instanceof` without a cycle.
import { type Dim, SymDim } from '../../../src/tensor/shape.js';
import { type TensorVar, Variable } from '../../../sot/variables.js';

/** How the int is recomputed at run time when it must become a real Python int (a graph break). */
export type SymIntOrigin =
  | { readonly k: 'dim'; readonly t: TensorVar; readonly axis: number }
  | { readonly k: 'bin'; readonly sym: '+' | '-' | '*' | '//'; readonly a: Variable; readonly b: Variable };

export class SymIntVar extends Variable {
  readonly kind = 'symint';
  constructor(readonly dim: SymDim, readonly origin: SymIntOrigin) { super(null); }
}

const wrap = (d: Dim): string => (typeof d === 'number' ? (d < 0 ? `(0-${-d})` : String(d)) : /^[A-Za-z_]\w*$/.test(d.expr) ? d.expr : `(${d.expr})`);

/** The expression `a sym b` (in sym_expr's grammar), folded when both sides are numbers. */
export function combineDims(sym: '+' | '-' | '*' | '//', a: Dim, b: Dim): Dim {
  if (typeof a === 'number' && typeof b === 'number') {
    switch (sym) {
      case '+': return a + b;
      case '-': return a - b;
      case '*': return a * b;
      case '//': return Math.floor(a / b);
    }
  }
  // identities keep expressions short (and equal to the dims they came from: n*1 is n)
  if ((sym === '+' || sym === '-') && b === 0) return a;
  if (sym === '+' && a === 0) return b;
  if ((sym === '*' || sym === '//') && b === 1) return a;
  if (sym === '*' && a === 1) return b;
  return SymDim.of(`${wrap(a)}${sym}${wrap(b)}`);
}
