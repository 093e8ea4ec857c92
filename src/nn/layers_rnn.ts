// Recurrent layers with Paddle 2.6's constructors, parameter names and initializers:
// SimpleRNNCell / LSTMCell / GRUCell, the RNN and BiRNN wrappers, and SimpleRNN / LSTM / GRU
// (RNNBase). The time loop runs here, one registry op per gate expression and step, so training
// goes through the ops' grad rules. The input projection x @ W_ih^T + b_ih does not depend on the
// recurrence, so it is computed for the whole sequence in one matmul before the loop; only the
// h @ W_hh^T product and the gate math are per step.
import { callOp } from '../ops/api.js';
import { getOp } from '../ops/registry.js';
import type { TensorLike } from '../ops/dispatch.js';
import type { Tensor } from '../tensor/tensor.js';
import { Uniform } from './initializer.js';
import { Layer, type ParamAttrLike } from './layer.js';
import { LayerList } from './container.js';
import { runCellDynamic, zeroStatesLike } from './rnn_dynamic.js';

const op = (name: string, args: unknown[]): TensorLike => callOp(getOp(name), args) as TensorLike;
const ops = (name: string, args: unknown[]): TensorLike[] => callOp(getOp(name), args) as TensorLike[];
const shapeOf = (t: TensorLike): number[] => [...(t as Tensor).shape] as number[];
const dtypeOf = (t: TensorLike): string => (t as Tensor).dtype;
/** Batch sizes agree, or one is symbolic (a traced program: each InputSpec None is its own symbol, unknown until run). */
const sameDim = (a: unknown, b: unknown): boolean => a === b || typeof a !== 'number' || typeof b !== 'number';

/** A cell's state: [h] for SimpleRNN/GRU, [h, c] for LSTM. */
type State = TensorLike[];

export interface RNNCellAttrs {
  weight_ih_attr?: ParamAttrLike; weight_hh_attr?: ParamAttrLike; bias_ih_attr?: ParamAttrLike; bias_hh_attr?: ParamAttrLike;
}

/**
 * Shared by the three cells: weight_ih [gates * hidden, input_size], weight_hh
 * [gates * hidden, hidden (LSTM: proj_size or hidden)], bias_ih / bias_hh [gates * hidden], all
 * Uniform(-1/sqrt(hidden), 1/sqrt(hidden)) as in Paddle.
 */
export abstract class RNNCellBase extends Layer {
  weight_ih: Tensor;
  weight_hh: Tensor;
  bias_ih: Tensor | null;
  bias_hh: Tensor | null;
  constructor(readonly layerName: string, readonly input_size: number, readonly hidden_size: number, gates: number, hhIn: number, a: RNNCellAttrs) {
    super();
    for (const [what, v] of [['input_size', input_size], ['hidden_size', hidden_size]] as const)
      if (!Number.isInteger(v) || v <= 0) throw new RangeError(`${layerName}: ${what} must be a positive integer, got ${v}`);
    const std = 1 / Math.sqrt(hidden_size);
    this.weight_ih = this.create_parameter([gates * hidden_size, input_size], a.weight_ih_attr, null, false, new Uniform(-std, std))!;
    this.weight_hh = this.create_parameter([gates * hidden_size, hhIn], a.weight_hh_attr, null, false, new Uniform(-std, std))!;
    this.bias_ih = this.create_parameter([gates * hidden_size], a.bias_ih_attr, null, true, new Uniform(-std, std));
    this.bias_hh = this.create_parameter([gates * hidden_size], a.bias_hh_attr, null, true, new Uniform(-std, std));
  }

  /** Shapes of the state tensors without the batch dim ([[h]] or [[h], [c]]). */
  abstract get state_shape(): number[][];

  /** x @ W_ih^T + b_ih for any leading dims (a step [B, I] or a whole sequence [T, B, I]). */
  project(x: TensorLike): TensorLike {
    const s = shapeOf(x);
    if (s.length < 2 || s[s.length - 1] !== this.input_size)
      throw new RangeError(`${this.layerName}: input must be [..., ${this.input_size}], got [${s.join(', ')}]`);
    const y = op('matmul', [x, this.weight_ih, { transpose_y: true }]);
    return this.bias_ih ? op('add', [y, this.bias_ih]) : y;
  }

  /** One step from the projected input; returns [output, new state]. */
  abstract step(xProj: TensorLike, state: State): [TensorLike, State];

  protected hidden(h: TensorLike): TensorLike {
    const y = op('matmul', [h, this.weight_hh, { transpose_y: true }]);
    return this.bias_hh ? op('add', [y, this.bias_hh]) : y;
  }

  /** Zero states [batch, ...state_shape] in x's dtype (Paddle's get_initial_states). */
  initialStates(batch: number, dtype: string): State {
    return this.state_shape.map((s) => op('full', [[batch, ...s], 0, dtype]));
  }

  checkState(state: State, batch: number): void {
    this.state_shape.forEach((s, i) => {
      const got = shapeOf(state[i]);
      if (got.length !== 2 || !sameDim(got[0], batch) || got[1] !== s[0])
        throw new RangeError(`${this.layerName}: state ${i} must be [${batch}, ${s[0]}], got [${got.join(', ')}]`);
    });
  }

  /** forward(inputs [B, input_size], states=None) → [outputs, new_states] (LSTM: new_states = [h, c]). */
  override forward(inputs: TensorLike, states: TensorLike | TensorLike[] | null = null): [TensorLike, TensorLike | TensorLike[]] {
    const s = shapeOf(inputs);
    if (s.length !== 2) throw new RangeError(`${this.layerName}: inputs must be [batch_size, ${this.input_size}], got [${s.join(', ')}]`);
    const st = states === null || states === undefined ? this.initialStates(s[0], dtypeOf(inputs)) : Array.isArray(states) ? states : [states];
    if (st.length !== this.state_shape.length) throw new RangeError(`${this.layerName}: expected ${this.state_shape.length} state tensor(s), got ${st.length}`);
    this.checkState(st, s[0]);
    const [out, next] = this.step(this.project(inputs), st);
    return [out, next.length === 1 ? next[0] : next];
  }

  override extra_repr(): string { return `${this.input_size}, ${this.hidden_size}`; }
}

/** SimpleRNNCell(input_size, hidden_size, activation='tanh', weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr): h' = act(W_ih x + b_ih + W_hh h + b_hh). */
export class SimpleRNNCell extends RNNCellBase {
  constructor(input_size: number, hidden_size: number, readonly activation = 'tanh', weight_ih_attr: ParamAttrLike = null, weight_hh_attr: ParamAttrLike = null,
    bias_ih_attr: ParamAttrLike = null, bias_hh_attr: ParamAttrLike = null) {
    if (activation !== 'tanh' && activation !== 'relu') throw new RangeError(`SimpleRNNCell: activation must be 'tanh' or 'relu', got '${activation}'`);
    super('SimpleRNNCell', input_size, hidden_size, 1, hidden_size, { weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr });
  }
  get state_shape(): number[][] { return [[this.hidden_size]]; }
  step(xProj: TensorLike, [h]: State): [TensorLike, State] {
    const y = op(this.activation, [op('add', [xProj, this.hidden(h)])]);
    return [y, [y]];
  }
  override extra_repr(): string { return `${this.input_size}, ${this.hidden_size}${this.activation !== 'tanh' ? `, activation=${this.activation}` : ''}`; }
}

/**
 * LSTMCell(input_size, hidden_size, weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr, proj_size=0):
 * gates in Paddle's order i, f, g, o; c' = f*c + i*tanh(g), h' = o*tanh(c') (then h' @ weight_ho when proj_size > 0).
 */
export class LSTMCell extends RNNCellBase {
  weight_ho: Tensor | null = null;
  constructor(input_size: number, hidden_size: number, weight_ih_attr: ParamAttrLike = null, weight_hh_attr: ParamAttrLike = null,
    bias_ih_attr: ParamAttrLike = null, bias_hh_attr: ParamAttrLike = null, readonly proj_size = 0) {
    if (!Number.isInteger(proj_size) || proj_size < 0 || (proj_size > 0 && proj_size >= hidden_size))
      throw new RangeError(`LSTMCell: proj_size must be 0 or in [1, hidden_size ${hidden_size}), got ${proj_size}`);
    super('LSTMCell', input_size, hidden_size, 4, proj_size || hidden_size, { weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr });
    if (proj_size > 0) {
      const std = 1 / Math.sqrt(hidden_size);
      this.weight_ho = this.create_parameter([hidden_size, proj_size], weight_hh_attr, null, false, new Uniform(-std, std));
    }
  }
  get state_shape(): number[][] { return [[this.proj_size || this.hidden_size], [this.hidden_size]]; }
  step(xProj: TensorLike, [h, c]: State): [TensorLike, State] {
    const [gi, gf, gg, go] = ops('split', [op('add', [xProj, this.hidden(h)]), 4, -1]);
    const i = op('sigmoid', [gi]), f = op('sigmoid', [gf]), o = op('sigmoid', [go]);
    const c2 = op('add', [op('multiply', [f, c]), op('multiply', [i, op('tanh', [gg])])]);
    let h2 = op('multiply', [o, op('tanh', [c2])]);
    if (this.weight_ho) h2 = op('matmul', [h2, this.weight_ho]);
    return [h2, [h2, c2]];
  }
  override extra_repr(): string { return `${this.input_size}, ${this.hidden_size}${this.proj_size ? `, proj_size=${this.proj_size}` : ''}`; }
}

/** GRUCell(input_size, hidden_size, ...): gates r, z, c; c = tanh(x_c + r * h_c) (reset after the matmul), h' = (h - c) * z + c. */
export class GRUCell extends RNNCellBase {
  constructor(input_size: number, hidden_size: number, weight_ih_attr: ParamAttrLike = null, weight_hh_attr: ParamAttrLike = null,
    bias_ih_attr: ParamAttrLike = null, bias_hh_attr: ParamAttrLike = null) {
    super('GRUCell', input_size, hidden_size, 3, hidden_size, { weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr });
  }
  get state_shape(): number[][] { return [[this.hidden_size]]; }
  step(xProj: TensorLike, [h]: State): [TensorLike, State] {
    const [xr, xz, xc] = ops('split', [xProj, 3, -1]);
    const [hr, hz, hc] = ops('split', [this.hidden(h), 3, -1]);
    const r = op('sigmoid', [op('add', [xr, hr])]);
    const z = op('sigmoid', [op('add', [xz, hz])]);
    const c = op('tanh', [op('add', [xc, op('multiply', [r, hc])])]);
    const h2 = op('add', [op('multiply', [op('subtract', [h, c]), z]), c]);
    return [h2, [h2]];
  }
}

/**
 * Runs `cell` over time-major inputs [T, B, I]. mask [T, B, 1] (float, 1 = valid step) keeps the
 * old state on padded steps; zeroPadded also zeroes those outputs (the fused rnn kernel's
 * behaviour, which Paddle's LSTM/GRU/SimpleRNN use). Reverse runs t = T-1 .. 0, which is Paddle's
 * reverse-the-padded-sequence scheme written without the two flips.
 */
function runCell(cell: Cell, x: TensorLike, state: State, mask: TensorLike[] | null, reverse: boolean, zeroPadded: boolean, seqLen: TensorLike | null = null): [TensorLike, State] {
  const T = shapeOf(x)[0];
  if (typeof T !== 'number') {
    // A traced program with a symbolic number of steps: one loop op instead of unrolling.
    if (!builtin(cell)) throw new RangeError(`${cell.constructor.name}: a user-defined cell needs a static number of time steps (got a symbolic sequence length)`);
    return runCellDynamic(cell, x, state, seqLen, reverse, zeroPadded);
  }
  if (T === 0) throw new RangeError(`${cell.constructor.name}: the input sequence is empty (0 time steps)`);
  if (!builtin(cell)) return runUserCell(cell, x, state, mask, reverse);
  const steps = ops('unbind', [cell.project(x), 0]);
  const outs = new Array<TensorLike>(T);
  for (let k = 0; k < T; k++) {
    const t = reverse ? T - 1 - k : k;
    let [y, next] = cell.step(steps[t], state);
    if (mask) {
      const m = mask[t];
      const keep = op('scale', [m, { scale: -1, bias: 1 }]);
      next = next.map((s, i) => op('add', [op('multiply', [s, m]), op('multiply', [state[i], keep])]));
      if (zeroPadded) y = op('multiply', [y, m]);
    }
    state = next;
    outs[t] = y;
  }
  return [op('stack', [outs, 0]), state];
}

/** A cell for RNN / BiRNN: a built-in one, or any Layer with forward(inputs, states) → [outputs, new_states] (and state_shape, unless initial states are given). */
export type Cell = RNNCellBase | (Layer & { state_shape?: number[] | number[][]; input_size?: number });

/** The built-in cells run the projected fast path; a subclass overriding forward runs as written. */
const builtin = (cell: Cell): cell is RNNCellBase => cell instanceof RNNCellBase && cell.forward === RNNCellBase.prototype.forward;

function blend(now: unknown, old: unknown, m: TensorLike, keep: TensorLike): unknown {
  if (Array.isArray(now)) return now.map((n, i) => blend(n, (old as unknown[])[i], m, keep));
  return op('add', [op('multiply', [now, m]), op('multiply', [old, keep])]);
}

/** A user's cell: cell.call(x_t, states) per step, whatever structure its states have. */
function runUserCell(cell: Cell, x: TensorLike, state: unknown, mask: TensorLike[] | null, reverse: boolean): [TensorLike, State] {
  const T = shapeOf(x)[0];
  const steps = ops('unbind', [x, 0]);
  const outs = new Array<TensorLike>(T);
  for (let k = 0; k < T; k++) {
    const t = reverse ? T - 1 - k : k;
    let [y, next] = cell.call(steps[t], state) as [TensorLike, unknown];
    if (mask) next = blend(next, state, mask[t], op('scale', [mask[t], { scale: -1, bias: 1 }]));
    state = next;
    outs[t] = y;
  }
  return [op('stack', [outs, 0]), state as State];
}

/** [T, B, 1] float masks from sequence_length [B] (int32/int64), one per step. */
function stepMasks(who: string, seqLen: TensorLike | null, T: number, B: number, dtype: string): TensorLike[] | null {
  if (seqLen === null || seqLen === undefined) return null;
  const s = shapeOf(seqLen);
  // Two symbolic sizes cannot be compared while tracing (each InputSpec None is its own symbol).
  if (s.length !== 1 || (typeof s[0] === 'number' && typeof B === 'number' && s[0] !== B)) throw new RangeError(`${who}: sequence_length must be [${B}], got [${s.join(', ')}]`);
  if (dtypeOf(seqLen) !== 'int32' && dtypeOf(seqLen) !== 'int64') throw new TypeError(`${who}: sequence_length must be int32 or int64, got ${dtypeOf(seqLen)}`);
  if (typeof T !== 'number') return null;  // runCellDynamic masks each step itself
  const t = op('arange', [0, T, 1, dtypeOf(seqLen)]);
  const valid = op('less_than', [op('unsqueeze', [t, [1]]), op('unsqueeze', [seqLen, [0]])]);   // [T, B]
  return ops('unbind', [op('unsqueeze', [op('cast', [valid, dtype]), [2]]), 0]);
}

function checkSeq(who: string, x: TensorLike, inputSize: number | undefined): void {
  const s = shapeOf(x);
  if (s.length !== 3 || (inputSize !== undefined && s[2] !== inputSize)) throw new RangeError(`${who}: inputs must be 3-D with ${inputSize} features ([batch, time, ${inputSize}] or time-major), got [${s.join(', ')}]`);
}

const toTimeMajor = (x: TensorLike, timeMajor: boolean): TensorLike => (timeMajor ? x : op('transpose', [x, [1, 0, 2]]));

function cellStates(cell: Cell, given: TensorLike | TensorLike[] | null | undefined, B: number, dtype: string, x: TensorLike): State {
  if (!builtin(cell)) {
    if (given !== null && given !== undefined) return given as State;
    const shape = cell.state_shape;
    if (!Array.isArray(shape)) throw new Error(`${cell.constructor.name}: the cell has no state_shape; pass initial_states`);
    const zeros = (s: number[]) => op('full', [[B, ...s], 0, dtype]);
    return (Array.isArray(shape[0]) ? (shape as number[][]).map(zeros) : zeros(shape as number[])) as unknown as State;
  }
  // A symbolic batch (a traced program) has no size for full(): zeros are made from x instead.
  if (given === null || given === undefined) return typeof B === 'number' ? cell.initialStates(B, dtype) : zeroStatesLike(cell, x);
  const st = Array.isArray(given) ? given : [given];
  if (st.length !== cell.state_shape.length) throw new RangeError(`${cell.layerName}: expected ${cell.state_shape.length} initial state tensor(s), got ${st.length}`);
  cell.checkState(st, B);
  return st;
}

/** RNN(cell, is_reverse=False, time_major=False): forward(inputs, initial_states=None, sequence_length=None) → [outputs, final_states]. */
export class RNN extends Layer {
  constructor(readonly cell: Cell, readonly is_reverse = false, readonly time_major = false) { super(); }
  /** zeroPadded: set by RNNBase (see runCell). */
  run(inputs: TensorLike, initial_states: TensorLike | TensorLike[] | null, sequence_length: TensorLike | null, zeroPadded: boolean): [TensorLike, State] {
    checkSeq('RNN', inputs, this.cell.input_size);
    const x = toTimeMajor(inputs, this.time_major);
    const [T, B] = shapeOf(x);
    const st = cellStates(this.cell, initial_states, B, dtypeOf(inputs), x);
    const [y, fin] = runCell(this.cell, x, st, stepMasks('RNN', sequence_length, T, B, dtypeOf(inputs)), this.is_reverse, zeroPadded, sequence_length);
    return [toTimeMajor(y, this.time_major), fin];
  }
  override forward(inputs: TensorLike, initial_states: TensorLike | TensorLike[] | null = null, sequence_length: TensorLike | null = null): [TensorLike, TensorLike | TensorLike[]] {
    const [y, fin] = this.run(inputs, initial_states, sequence_length, false);
    return [y, builtin(this.cell) && fin.length === 1 ? fin[0] : fin];
  }
}

/** BiRNN(cell_fw, cell_bw, time_major=False): outputs of both directions concatenated on the last axis; final_states = [fw, bw]. */
export class BiRNN extends Layer {
  constructor(readonly cell_fw: Cell, readonly cell_bw: Cell, readonly time_major = false) {
    super();
    if (cell_fw.input_size !== cell_bw.input_size)
      throw new RangeError(`BiRNN: input size of forward cell(${cell_fw.input_size}) does not equal that of backward cell(${cell_bw.input_size})`);
  }
  run(inputs: TensorLike, initial_states: [unknown, unknown] | null, sequence_length: TensorLike | null, zeroPadded: boolean): [TensorLike, [State, State]] {
    checkSeq('BiRNN', inputs, this.cell_fw.input_size);
    if (initial_states !== null && initial_states !== undefined && (!Array.isArray(initial_states) || initial_states.length !== 2))
      throw new RangeError('BiRNN: initial_states must be a list of 2 (forward, backward) states');
    const x = toTimeMajor(inputs, this.time_major);
    const [T, B] = shapeOf(x);
    const dt = dtypeOf(inputs);
    const mask = stepMasks('BiRNN', sequence_length, T, B, dt);
    const [yf, sf] = runCell(this.cell_fw, x, cellStates(this.cell_fw, initial_states?.[0] as State | null, B, dt, x), mask, false, zeroPadded, sequence_length);
    const [yb, sb] = runCell(this.cell_bw, x, cellStates(this.cell_bw, initial_states?.[1] as State | null, B, dt, x), mask, true, zeroPadded, sequence_length);
    return [toTimeMajor(op('concat', [[yf, yb], -1]), this.time_major), [sf, sb]];
  }
  override forward(inputs: TensorLike, initial_states: [unknown, unknown] | null = null, sequence_length: TensorLike | null = null): [TensorLike, unknown[]] {
    const [y, [sf, sb]] = this.run(inputs, initial_states, sequence_length, false);
    const pack = (s: State, c: Cell) => (builtin(c) && s.length === 1 ? s[0] : s);
    return [y, [pack(sf, this.cell_fw), pack(sb, this.cell_bw)]];
  }
}

const BIDIRECTIONAL = ['bidirect', 'bidirectional'];

/**
 * SimpleRNN / LSTM / GRU: a LayerList of RNN (or BiRNN) layers named 0, 1, ... whose cells hold
 * the parameters (`0.cell.weight_ih`, `0.cell_fw.weight_ih`); the same tensors are also this
 * layer's own `weight_ih_l0`, `weight_hh_l0_reverse`, ... as in Paddle, so named_parameters()
 * lists those names and state_dict() has both spellings (Paddle's files carry both).
 */
export class RNNBase extends LayerList {
  readonly num_directions: number;
  readonly state_components: number;
  constructor(readonly mode: string, readonly input_size: number, readonly hidden_size: number, readonly num_layers = 1, readonly direction = 'forward',
    readonly time_major = false, readonly dropout = 0, attrs: RNNCellAttrs = {}, readonly proj_size = 0, activation = 'tanh') {
    super();
    const who = mode === 'LSTM' ? 'LSTM' : mode === 'GRU' ? 'GRU' : 'SimpleRNN';
    if (!Number.isInteger(num_layers) || num_layers <= 0) throw new RangeError(`${who}: num_layers must be a positive integer, got ${num_layers}`);
    if (!(dropout >= 0 && dropout <= 1)) throw new RangeError(`${who}: dropout must be in [0, 1], got ${dropout}`);
    if (direction !== 'forward' && !BIDIRECTIONAL.includes(direction))
      throw new RangeError(`${who}: direction should be forward or bidirect (or bidirectional), received direction = ${direction}`);
    if (proj_size && mode !== 'LSTM') throw new RangeError(`${who}: proj_size is only supported by LSTM`);
    this.num_directions = direction === 'forward' ? 1 : 2;
    this.state_components = mode === 'LSTM' ? 2 : 1;
    const { weight_ih_attr = null, weight_hh_attr = null, bias_ih_attr = null, bias_hh_attr = null } = attrs;
    const make = (inSize: number): RNNCellBase => {
      if (mode === 'LSTM') return new LSTMCell(inSize, hidden_size, weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr, proj_size);
      if (mode === 'GRU') return new GRUCell(inSize, hidden_size, weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr);
      return new SimpleRNNCell(inSize, hidden_size, mode === 'RNN_RELU' ? 'relu' : activation, weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr);
    };
    const outSize = proj_size || hidden_size;
    for (let l = 0; l < num_layers; l++) {
      const inSize = l === 0 ? input_size : this.num_directions * outSize;
      this.append(this.num_directions === 1 ? new RNN(make(inSize), false, time_major) : new BiRNN(make(inSize), make(inSize), time_major));
    }
    // Paddle zips these names with parameters() in order (4 per cell; with proj_size the fifth
    // parameter shifts the names, as it does there).
    const names: string[] = [];
    for (let l = 0; l < num_layers; l++) {
      for (let d = 0; d < this.num_directions; d++) {
        const sfx = `l${l}${d === 1 ? '_reverse' : ''}`;
        names.push(`weight_ih_${sfx}`, `weight_hh_${sfx}`);
        if (bias_ih_attr !== false) names.push(`bias_ih_${sfx}`);
        if (bias_hh_attr !== false) names.push(`bias_hh_${sfx}`);
      }
    }
    const params = this.parameters();
    names.forEach((n, i) => { if (i < params.length) (this as any)[n] = params[i]; });
  }

  override state_dict(): Record<string, Tensor> {
    const out = super.state_dict();
    for (const [lp, l] of this.named_sublayers()) for (const [k, p] of l.named_parameters('', false)) out[`${lp}.${k}`] = p;
    return out;
  }

  /** forward(inputs, initial_states=None, sequence_length=None) → [outputs, final_states]; LSTM states are [h, c], each [num_layers * num_directions, batch, hidden]. */
  override forward(inputs: TensorLike, initial_states: TensorLike | TensorLike[] | null = null, sequence_length: TensorLike | null = null): [TensorLike, TensorLike | TensorLike[]] {
    const who = this.constructor.name;
    const s = shapeOf(inputs);
    if (s.length !== 3 || s[2] !== this.input_size)
      throw new RangeError(`${who}: inputs must be [${this.time_major ? 'time, batch' : 'batch, time'}, ${this.input_size}], got [${s.join(', ')}]`);
    const B = s[this.time_major ? 1 : 0];
    const L = this.num_layers * this.num_directions;
    let init: TensorLike[] | null = null;
    if (initial_states !== null && initial_states !== undefined) {
      init = Array.isArray(initial_states) ? initial_states : [initial_states];
      if (init.length !== this.state_components) throw new RangeError(`${who}: initial_states must hold ${this.state_components} tensor(s), got ${init.length}`);
      const dims = this.state_components === 2 ? [this.proj_size || this.hidden_size, this.hidden_size] : [this.hidden_size];
      init.forEach((t, i) => {
        const g = shapeOf(t);
        if (g.length !== 3 || g[0] !== L || !sameDim(g[1], B) || g[2] !== dims[i])
          throw new RangeError(`${who}: initial state ${i} must be [${L}, ${B}, ${dims[i]}], got [${g.join(', ')}]`);
      });
    }
    // Per layer (and direction) slices of the [L * D, B, H] initial states, as Paddle's split_states.
    const perLayer = init ? init.map((t) => ops('unbind', [t, 0])) : null;
    const stateAt = (k: number): State | null => (perLayer ? perLayer.map((u) => u[k]) : null);
    const finals: State[] = [];
    let x = inputs;
    this.children().forEach((layer, l) => {
      if (l > 0 && this.dropout > 0) x = op('dropout', [x, { p: this.dropout, training: this.training, mode: 'upscale_in_train' }]);
      if (layer instanceof BiRNN) {
        const [y, [sf, sb]] = layer.run(x, perLayer ? [stateAt(2 * l), stateAt(2 * l + 1)] : null, sequence_length, true);
        finals.push(sf, sb);
        x = y;
      } else {
        const [y, st] = (layer as RNN).run(x, stateAt(l), sequence_length, true);
        finals.push(st);
        x = y;
      }
    });
    const fin = Array.from({ length: this.state_components }, (_, c) => op('stack', [finals.map((f) => f[c]), 0]));
    return [x, fin.length === 1 ? fin[0] : fin];
  }

  override extra_repr(): string {
    let s = `${this.input_size}, ${this.hidden_size}`;
    if (this.num_layers !== 1) s += `, num_layers=${this.num_layers}`;
    if (this.time_major) s += `, time_major=${this.time_major}`;
    if (this.dropout !== 0) s += `, dropout=${this.dropout}`;
    return s;
  }
}

/** SimpleRNN(input_size, hidden_size, num_layers=1, direction='forward', time_major=False, dropout=0., activation='tanh', weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr). */
export class SimpleRNN extends RNNBase {
  constructor(input_size: number, hidden_size: number, num_layers = 1, direction = 'forward', time_major = false, dropout = 0, readonly activation = 'tanh',
    weight_ih_attr: ParamAttrLike = null, weight_hh_attr: ParamAttrLike = null, bias_ih_attr: ParamAttrLike = null, bias_hh_attr: ParamAttrLike = null) {
    if (activation !== 'tanh' && activation !== 'relu') throw new RangeError(`SimpleRNN: Unknown activation '${activation}'`);
    super(activation === 'tanh' ? 'RNN_TANH' : 'RNN_RELU', input_size, hidden_size, num_layers, direction, time_major, dropout,
      { weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr });
  }
}

/** LSTM(input_size, hidden_size, num_layers=1, direction='forward', time_major=False, dropout=0., weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr, proj_size=0). */
export class LSTM extends RNNBase {
  constructor(input_size: number, hidden_size: number, num_layers = 1, direction = 'forward', time_major = false, dropout = 0,
    weight_ih_attr: ParamAttrLike = null, weight_hh_attr: ParamAttrLike = null, bias_ih_attr: ParamAttrLike = null, bias_hh_attr: ParamAttrLike = null, proj_size = 0) {
    super('LSTM', input_size, hidden_size, num_layers, direction, time_major, dropout, { weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr }, proj_size);
  }
}

/** GRU(input_size, hidden_size, num_layers=1, direction='forward', time_major=False, dropout=0., weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr). */
export class GRU extends RNNBase {
  constructor(input_size: number, hidden_size: number, num_layers = 1, direction = 'forward', time_major = false, dropout = 0,
    weight_ih_attr: ParamAttrLike = null, weight_hh_attr: ParamAttrLike = null, bias_ih_attr: ParamAttrLike = null, bias_hh_attr: ParamAttrLike = null) {
    super('GRU', input_size, hidden_size, num_layers, direction, time_major, dropout, { weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr });
  }
}
