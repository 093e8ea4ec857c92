// The time loop of the built-in RNN cells when the number of time steps is a symbolic dim: a
// program traced with InputSpec [None, None] (paddle.jit.save, paddle.onnx.export) cannot unroll
// over the steps, so the recurrence becomes one pd_op.while (ONNX Loop) whose body runs one step.
// Loop values: the step counter t ([1] int64), the outputs so far [T, B, out] and the cell's
// states. The body reads step t of the projected input with gather and writes its output into
// row t with where(position == t, y, outputs), which keeps the outputs' type fixed across
// iterations (as a loop value must) and needs no scatter. Zero initial states and the step count
// are built from the input's own shape by ops that need no sizes (slices on static dims,
// full_like, a sum of ones), as models/text/positions.ts does for position ids. The values are
// those of the unrolled loop: the same ops per step, and where() copies.
import { callOp } from '../ops/api.js';
import { getOp } from '../ops/registry.js';
import type { TensorLike } from '../ops/dispatch.js';
import { while_loop } from '../static/control_flow.js';
import type { Tensor } from '../tensor/tensor.js';
import type { RNNCellBase } from './layers_rnn.js';

const op = (name: string, args: unknown[]): TensorLike => callOp(getOp(name), args) as TensorLike;
const shapeOf = (t: TensorLike): unknown[] => [...(t as Tensor).shape];

/** Zeros [B, ...s] for each state shape s, from time-major x [T, B, I] (B may be symbolic). */
export function zeroStatesLike(cell: RNNCellBase, x: TensorLike): TensorLike[] {
  // [1, B, 1] zeros from the input, then tiled to each state's static width.
  const col = op('full_like', [op('slice', [x, [0, 2], [0, 0], [1, 1]]), 0]);
  const b1 = op('squeeze', [col, [0]]);  // [B, 1]
  return cell.state_shape.map(([w]) => (w === 1 ? b1 : op('tile', [b1, [1, w]])));
}

/**
 * Runs a built-in cell over time-major x [T, B, I] with T symbolic. mask: sequence lengths [B]
 * (int32/int64) or null; semantics as runCell in layers_rnn.ts (padded steps keep the old state,
 * zeroPadded zeroes their outputs). Returns [outputs [T, B, out], final states].
 */
export function runCellDynamic(cell: RNNCellBase, x: TensorLike, state: TensorLike[], seqLen: TensorLike | null, reverse: boolean, zeroPadded: boolean): [TensorLike, TensorLike[]] {
  const xp = cell.project(x);  // [T, B, gates * hidden]
  const outW = cell.state_shape[0][0];
  const onesT = op('reshape', [op('full_like', [op('slice', [x, [1, 2], [0, 0], [1, 1]]), 1, 'int64']), [-1]]);  // [T]
  const steps = op('reshape', [op('sum', [onesT, null, 'int64', false]), [1]]);  // [1]: T
  const pos = op('reshape', [op('subtract', [op('cumsum', [onesT, 0]), op('full_like', [onesT, 1, 'int64'])]), [-1, 1, 1]]);  // [T, 1, 1]: 0..T-1
  const lastStep = op('subtract', [steps, op('full_like', [steps, 1, 'int64'])]);
  const outsInit = op('full_like', [op('slice', [xp, [2], [0], [outW]]), 0]);  // [T, B, out] zeros
  const t0 = op('full_like', [steps, 0, 'int64']);
  const one = op('full_like', [steps, 1, 'int64']);
  const n = state.length;
  // Given initial states carry their own batch symbol (another InputSpec None); the body's results
  // take x's. A loop value must keep one type, so such states enter the loop as 0 + state on x's batch.
  const zeros = zeroStatesLike(cell, x);
  state = state.map((s, i) => (shapeOf(s)[0] === shapeOf(zeros[i])[0] ? s : op('add', [zeros[i], s])));
  const final = while_loop(
    (t: any) => op('less_than', [t, steps]) as any,
    (t: any, outs: any, ...st: any[]) => {
      const idx = reverse ? op('subtract', [lastStep, t]) : t;
      const xt = op('squeeze', [op('gather', [xp, idx, 0]), [0]]);  // [B, gates * hidden]
      let [y, next] = cell.step(xt, st);
      if (seqLen) {
        const m = op('unsqueeze', [op('cast', [op('less_than', [op('cast', [idx, 'int64']), op('cast', [seqLen, 'int64'])]), (x as Tensor).dtype]), [1]]);  // [B, 1]
        const keep = op('scale', [m, { scale: -1, bias: 1 }]);
        next = next.map((s, i) => op('add', [op('multiply', [s, m]), op('multiply', [st[i], keep])]));
        if (zeroPadded) y = op('multiply', [y, m]);
      }
      const outs2 = op('where', [op('equal', [pos, idx]), op('unsqueeze', [y, [0]]), outs]);
      return [op('add', [t, one]), outs2, ...next] as any;
    },
    [t0, outsInit, ...state] as any,
  ) as unknown as TensorLike[];
  if (final.length !== n + 2) throw new Error(`${cell.layerName}: internal error: the time loop returned ${final.length} values`);
  return [final[1], final.slice(2)];
}
