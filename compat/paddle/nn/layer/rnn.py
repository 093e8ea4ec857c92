"""SimpleRNNCell, LSTMCell, GRUCell, RNN, BiRNN, SimpleRNN, LSTM, GRU with Paddle 2.6's
constructors, parameter names (`weight_ih_l0`, `0.cell.weight_ih`, ...) and initializers
(Uniform(+-1/sqrt(hidden))). The time loop runs here with registry ops per step; the input
projection x @ W_ih^T + b_ih is one matmul over the whole sequence before the loop.
src/nn/layers_rnn.ts is the TypeScript twin (same numbers)."""
import math

import paddle
from .. import initializer as I
from .container import LayerList
from .layers import Layer


class RNNCellBase(Layer):
    """Paddle's base of recurrent cells: a user cell subclasses it, defines forward(inputs,
    states) -> (outputs, new_states) and state_shape, and runs under nn.RNN / nn.BiRNN."""

    @property
    def state_shape(self):
        raise NotImplementedError('%s: define state_shape (or pass initial_states)' % type(self).__name__)

    def get_initial_states(self, batch_ref, shape=None, dtype=None, init_value=0.0, batch_dim_idx=0):
        batch = batch_ref.shape[batch_dim_idx]
        shape = self.state_shape if shape is None else shape
        nested = len(shape) > 0 and isinstance(shape[0], (list, tuple))
        st = [paddle.full([batch] + list(s), init_value, dtype or batch_ref.dtype) for s in (shape if nested else [shape])]
        return tuple(st) if nested and len(st) > 1 else st[0]


class _GateCell(RNNCellBase):
    """The built-in cells: weight_ih [gates * hidden, input_size], weight_hh [gates * hidden,
    hidden], bias_ih / bias_hh [gates * hidden], all Uniform(-1/sqrt(hidden), 1/sqrt(hidden))."""

    def __init__(self, layer, input_size, hidden_size, gates, hh_in, weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr):
        super().__init__()
        for what, v in (('input_size', input_size), ('hidden_size', hidden_size)):
            if not isinstance(v, int) or v <= 0:
                raise ValueError('%s: %s must be a positive integer, got %r' % (layer, what, v))
        self._layer = layer
        self.input_size, self.hidden_size = input_size, hidden_size
        std = 1.0 / math.sqrt(hidden_size)
        u = I.Uniform(-std, std)
        self.weight_ih = self.create_parameter([gates * hidden_size, input_size], weight_ih_attr, default_initializer=u)
        self.weight_hh = self.create_parameter([gates * hidden_size, hh_in], weight_hh_attr, default_initializer=u)
        self.bias_ih = self.create_parameter([gates * hidden_size], bias_ih_attr, is_bias=True, default_initializer=u)
        self.bias_hh = self.create_parameter([gates * hidden_size], bias_hh_attr, is_bias=True, default_initializer=u)

    def _project(self, x):
        s = list(x.shape)
        if len(s) < 2 or s[-1] != self.input_size:
            raise ValueError('%s: input must be [..., %d], got %s' % (self._layer, self.input_size, s))
        y = paddle.matmul(x, self.weight_ih, transpose_y=True)
        return y + self.bias_ih if self.bias_ih is not None else y

    def _hidden(self, h):
        y = paddle.matmul(h, self.weight_hh, transpose_y=True)
        return y + self.bias_hh if self.bias_hh is not None else y

    def _initial(self, batch, dtype):
        return [paddle.zeros([batch] + s, dtype) for s in self.state_shape]

    def _check_state(self, states, batch):
        for i, (t, s) in enumerate(zip(states, self.state_shape)):
            if list(t.shape) != [batch] + s:
                raise ValueError('%s: state %d must be %s, got %s' % (self._layer, i, [batch] + s, list(t.shape)))

    def forward(self, inputs, states=None):
        s = list(inputs.shape)
        if len(s) != 2:
            raise ValueError('%s: inputs must be [batch_size, %d], got %s' % (self._layer, self.input_size, s))
        if states is None:
            st = self._initial(s[0], inputs.dtype)
        else:
            st = list(states) if isinstance(states, (list, tuple)) else [states]
        if len(st) != len(self.state_shape):
            raise ValueError('%s: expected %d state tensor(s), got %d' % (self._layer, len(self.state_shape), len(st)))
        self._check_state(st, s[0])
        out, new = self._step(self._project(inputs), st)
        return out, (new[0] if len(new) == 1 else tuple(new))

    def extra_repr(self):
        return '%d, %d' % (self.input_size, self.hidden_size)


class SimpleRNNCell(_GateCell):
    def __init__(self, input_size, hidden_size, activation='tanh', weight_ih_attr=None, weight_hh_attr=None, bias_ih_attr=None,
                 bias_hh_attr=None, name=None):
        if activation not in ('tanh', 'relu'):
            raise ValueError("SimpleRNNCell: activation must be 'tanh' or 'relu', got %r" % (activation,))
        super().__init__('SimpleRNNCell', input_size, hidden_size, 1, hidden_size, weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr)
        self.activation = activation

    @property
    def state_shape(self):
        return [[self.hidden_size]]

    def _step(self, xp, states):
        z = xp + self._hidden(states[0])
        y = paddle.tanh(z) if self.activation == 'tanh' else paddle.nn.functional.relu(z)
        return y, [y]


class LSTMCell(_GateCell):
    """Gates in Paddle's order i, f, g, o; c' = f*c + i*tanh(g), h' = o*tanh(c') (@ weight_ho with proj_size)."""

    def __init__(self, input_size, hidden_size, weight_ih_attr=None, weight_hh_attr=None, bias_ih_attr=None, bias_hh_attr=None,
                 proj_size=0, name=None):
        if not isinstance(proj_size, int) or proj_size < 0 or (proj_size > 0 and proj_size >= hidden_size):
            raise ValueError('LSTMCell: proj_size must be 0 or in [1, hidden_size %d), got %r' % (hidden_size, proj_size))
        super().__init__('LSTMCell', input_size, hidden_size, 4, proj_size or hidden_size, weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr)
        self.proj_size = proj_size
        if proj_size > 0:
            std = 1.0 / math.sqrt(hidden_size)
            self.weight_ho = self.create_parameter([hidden_size, proj_size], weight_hh_attr, default_initializer=I.Uniform(-std, std))

    @property
    def state_shape(self):
        return [[self.proj_size or self.hidden_size], [self.hidden_size]]

    def _step(self, xp, states):
        h, c = states
        gi, gf, gg, go = paddle.split(xp + self._hidden(h), 4, axis=-1)
        c2 = paddle.nn.functional.sigmoid(gf) * c + paddle.nn.functional.sigmoid(gi) * paddle.tanh(gg)
        h2 = paddle.nn.functional.sigmoid(go) * paddle.tanh(c2)
        if self.proj_size > 0:
            h2 = paddle.matmul(h2, self.weight_ho)
        return h2, [h2, c2]


class GRUCell(_GateCell):
    """Gates r, z, c; c = tanh(x_c + r * h_c) (reset after the matmul), h' = (h - c) * z + c."""

    def __init__(self, input_size, hidden_size, weight_ih_attr=None, weight_hh_attr=None, bias_ih_attr=None, bias_hh_attr=None, name=None):
        super().__init__('GRUCell', input_size, hidden_size, 3, hidden_size, weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr)

    @property
    def state_shape(self):
        return [[self.hidden_size]]

    def _step(self, xp, states):
        h = states[0]
        xr, xz, xc = paddle.split(xp, 3, axis=-1)
        hr, hz, hc = paddle.split(self._hidden(h), 3, axis=-1)
        sig = paddle.nn.functional.sigmoid
        r = sig(xr + hr)
        z = sig(xz + hz)
        c = paddle.tanh(xc + r * hc)
        h2 = (h - c) * z + c
        return h2, [h2]


def _blend(new, old, m, keep):
    if isinstance(new, (list, tuple)):
        return type(new)(_blend(n, o, m, keep) for n, o in zip(new, old))
    return new * m + old * keep


def _run_user_cell(cell, x, states, masks, reverse):
    """A user's cell (forward(inputs, states) -> (outputs, new_states), any state structure)."""
    T = x.shape[0]
    steps = paddle.unbind(x, 0)
    outs = [None] * T
    for k in range(T):
        t = T - 1 - k if reverse else k
        y, new = cell(steps[t], states)
        if masks is not None:
            new = _blend(new, states, masks[t], paddle.scale(masks[t], scale=-1.0, bias=1.0))
        states = new
        outs[t] = y
    return paddle.stack(outs, 0), states


def _symbolic(d):
    """A dim that is symbolic in a traced program (it reads as -1 there)."""
    return d == -1 and not paddle.in_dynamic_mode()


def _zero_states_like(cell, x):
    """Zeros [B, w] per state from time-major x [T, B, I] when B has no size (a traced program)."""
    b1 = paddle.squeeze(paddle.full_like(paddle.slice(x, [0, 2], [0, 0], [1, 1]), 0), [0])  # [B, 1]
    return [b1 if s[0] == 1 else paddle.tile(b1, [1, s[0]]) for s in cell.state_shape]


def _run_cell_dynamic(cell, x, states, seq_len, reverse, zero_padded):
    """The time loop as one while_loop when T is symbolic (src/nn/rnn_dynamic.ts is the twin and
    says why it is built this way): loop values t, the outputs so far [T, B, out] and the states;
    step t is gathered from the projected input and its output written with where(pos == t)."""
    xp = cell._project(x)
    out_w = cell.state_shape[0][0]
    ones_t = paddle.reshape(paddle.full_like(paddle.slice(x, [1, 2], [0, 0], [1, 1]), 1, 'int64'), [-1])
    steps = paddle.reshape(paddle.sum(ones_t, dtype='int64'), [1])
    pos = paddle.reshape(paddle.cumsum(ones_t, 0) - paddle.full_like(ones_t, 1, 'int64'), [-1, 1, 1])
    last = steps - paddle.full_like(steps, 1, 'int64')
    outs0 = paddle.full_like(paddle.slice(xp, [2], [0], [out_w]), 0)
    t0 = paddle.full_like(steps, 0, 'int64')
    one = paddle.full_like(steps, 1, 'int64')
    n = len(states)
    # Given initial states may carry their own batch symbol (another InputSpec None) while the
    # body's results take x's; a loop value keeps one type, so states enter as 0 + state on x's batch.
    states = [z + s for z, s in zip(_zero_states_like(cell, x), states)]

    def cond(t, *rest):
        return paddle.less_than(t, steps)

    def body(t, outs, *st):
        idx = last - t if reverse else t
        xt = paddle.squeeze(paddle.gather(xp, idx, 0), [0])
        y, new = cell._step(xt, list(st))
        if seq_len is not None:
            m = paddle.unsqueeze(paddle.less_than(idx, seq_len.astype('int64')).astype(x.dtype), [1])
            keep = paddle.scale(m, scale=-1.0, bias=1.0)
            new = [a * m + o * keep for a, o in zip(new, st)]
            if zero_padded:
                y = y * m
        outs2 = paddle.where(paddle.equal(pos, idx), paddle.unsqueeze(y, [0]), outs)
        return [t + one, outs2] + list(new)

    fin = paddle.static.nn.while_loop(cond, body, [t0, outs0] + list(states))
    if len(fin) != n + 2:
        raise RuntimeError('%s: internal error: the time loop returned %d values' % (type(cell).__name__, len(fin)))
    return fin[1], list(fin[2:])


def _run_cell(cell, x, states, masks, reverse, zero_padded, seq_len=None):
    """cell over time-major x [T, B, I]; masks[t] [B, 1] keeps old states on padded steps (and,
    with zero_padded, zeroes those outputs as Paddle's fused rnn kernel does)."""
    T = x.shape[0]
    if T == 0:
        raise ValueError('%s: the input sequence is empty (0 time steps)' % type(cell).__name__)
    if _symbolic(T):
        # A traced program with a symbolic number of steps: one loop op instead of unrolling.
        if not _builtin(cell):
            raise ValueError('%s: a user-defined cell needs a static number of time steps (got a symbolic sequence length)' % type(cell).__name__)
        return _run_cell_dynamic(cell, x, states, seq_len, reverse, zero_padded)
    if not _builtin(cell):
        return _run_user_cell(cell, x, states, masks, reverse)
    steps = paddle.unbind(cell._project(x), 0)
    outs = [None] * T
    for k in range(T):
        t = T - 1 - k if reverse else k
        y, new = cell._step(steps[t], states)
        if masks is not None:
            m = masks[t]
            keep = paddle.scale(m, scale=-1.0, bias=1.0)
            new = [s * m + o * keep for s, o in zip(new, states)]
            if zero_padded:
                y = y * m
        states = new
        outs[t] = y
    return paddle.stack(outs, 0), states


def _step_masks(who, seq_len, T, B, dtype):
    if seq_len is None or _symbolic(T):  # the dynamic loop masks each step itself
        return None
    if list(seq_len.shape) != [B]:
        raise ValueError('%s: sequence_length must be [%d], got %s' % (who, B, list(seq_len.shape)))
    if seq_len.dtype.name not in ('int32', 'int64'):
        raise TypeError('%s: sequence_length must be int32 or int64, got %s' % (who, seq_len.dtype.name))
    t = paddle.arange(0, T, 1, dtype=seq_len.dtype)
    valid = paddle.less_than(paddle.unsqueeze(t, [1]), paddle.unsqueeze(seq_len, [0]))
    return paddle.unbind(paddle.unsqueeze(valid.astype(dtype), [2]), 0)


def _builtin(cell):
    """The built-in cells run the projected fast path; a subclass overriding forward runs as written."""
    return isinstance(cell, _GateCell) and type(cell).forward is _GateCell.forward


def _check_seq(who, x, input_size):
    s = list(x.shape)
    if len(s) != 3 or (input_size is not None and s[2] != input_size):
        raise ValueError('%s: inputs must be 3-D with %d features ([batch, time, %d] or time-major), got %s' % (who, input_size, input_size, s))


def _time_major(x, time_major):
    return x if time_major else paddle.transpose(x, [1, 0, 2])


def _cell_states(cell, given, B, dtype, x=None):
    if not _builtin(cell):
        if given is not None:
            return given
        return cell.get_initial_states(paddle.zeros([B, 0], dtype))
    if given is None:
        # A symbolic batch (a traced program) has no size for zeros(): they are made from x instead.
        return _zero_states_like(cell, x) if _symbolic(B) and x is not None else cell._initial(B, dtype)
    st = list(given) if isinstance(given, (list, tuple)) else [given]
    if len(st) != len(cell.state_shape):
        raise ValueError('%s: expected %d initial state tensor(s), got %d' % (cell._layer, len(cell.state_shape), len(st)))
    cell._check_state(st, B)
    return st


def _pack(states):
    return states[0] if len(states) == 1 else tuple(states)


class RNN(Layer):
    """RNN(cell, is_reverse=False, time_major=False): forward(inputs, initial_states=None, sequence_length=None)."""

    def __init__(self, cell, is_reverse=False, time_major=False):
        super().__init__()
        self.cell = cell
        self.is_reverse, self.time_major = is_reverse, time_major

    def _run(self, inputs, initial_states, sequence_length, zero_padded):
        _check_seq('RNN', inputs, getattr(self.cell, 'input_size', None))
        x = _time_major(inputs, self.time_major)
        T, B = x.shape[0], x.shape[1]
        st = _cell_states(self.cell, initial_states, B, inputs.dtype, x)
        y, fin = _run_cell(self.cell, x, st, _step_masks('RNN', sequence_length, T, B, inputs.dtype), self.is_reverse, zero_padded,
                           sequence_length)
        return _time_major(y, self.time_major), fin

    def forward(self, inputs, initial_states=None, sequence_length=None, **kwargs):
        y, fin = self._run(inputs, initial_states, sequence_length, False)
        return y, (_pack(fin) if _builtin(self.cell) else fin)


class BiRNN(Layer):
    """BiRNN(cell_fw, cell_bw, time_major=False): both directions' outputs concatenated on the last axis."""

    def __init__(self, cell_fw, cell_bw, time_major=False):
        super().__init__()
        if getattr(cell_fw, 'input_size', None) != getattr(cell_bw, 'input_size', None):
            raise ValueError('BiRNN: input size of forward cell(%d) does not equal that of backward cell(%d)' % (cell_fw.input_size, cell_bw.input_size))
        self.cell_fw, self.cell_bw = cell_fw, cell_bw
        self.time_major = time_major

    def _run(self, inputs, initial_states, sequence_length, zero_padded):
        _check_seq('BiRNN', inputs, getattr(self.cell_fw, 'input_size', None))
        if initial_states is not None and (not isinstance(initial_states, (list, tuple)) or len(initial_states) != 2):
            raise ValueError('BiRNN: initial_states must be a list of 2 (forward, backward) states')
        x = _time_major(inputs, self.time_major)
        T, B = x.shape[0], x.shape[1]
        masks = _step_masks('BiRNN', sequence_length, T, B, inputs.dtype)
        init = initial_states or (None, None)
        yf, sf = _run_cell(self.cell_fw, x, _cell_states(self.cell_fw, init[0], B, inputs.dtype, x), masks, False, zero_padded, sequence_length)
        yb, sb = _run_cell(self.cell_bw, x, _cell_states(self.cell_bw, init[1], B, inputs.dtype, x), masks, True, zero_padded, sequence_length)
        return _time_major(paddle.concat([yf, yb], -1), self.time_major), (sf, sb)

    def forward(self, inputs, initial_states=None, sequence_length=None, **kwargs):
        y, (sf, sb) = self._run(inputs, initial_states, sequence_length, False)
        pack = [_pack(s) if _builtin(c) else s for s, c in ((sf, self.cell_fw), (sb, self.cell_bw))]
        return y, tuple(pack)


_BIDIRECTIONAL = ('bidirect', 'bidirectional')


class RNNBase(LayerList):
    """A LayerList of RNN / BiRNN layers named 0, 1, ...; the cells' parameters are also this
    layer's own weight_ih_l0, weight_hh_l0_reverse, ... as in Paddle (state_dict has both names)."""

    def __init__(self, mode, input_size, hidden_size, num_layers=1, direction='forward', time_major=False, dropout=0.0,
                 weight_ih_attr=None, weight_hh_attr=None, bias_ih_attr=None, bias_hh_attr=None, proj_size=0):
        super().__init__()
        who = {'LSTM': 'LSTM', 'GRU': 'GRU'}.get(mode, 'SimpleRNN')
        if not isinstance(num_layers, int) or num_layers <= 0:
            raise ValueError('%s: num_layers must be a positive integer, got %r' % (who, num_layers))
        if not 0 <= dropout <= 1:
            raise ValueError('%s: dropout must be in [0, 1], got %r' % (who, dropout))
        if direction != 'forward' and direction not in _BIDIRECTIONAL:
            raise ValueError('%s: direction should be forward or bidirect (or bidirectional), received direction = %s' % (who, direction))
        if proj_size and mode != 'LSTM':
            raise ValueError('%s: proj_size is only supported by LSTM' % who)
        self.mode, self.input_size, self.hidden_size = mode, input_size, hidden_size
        self.num_layers, self.time_major, self.dropout, self.proj_size = num_layers, time_major, dropout, proj_size
        self.num_directions = 1 if direction == 'forward' else 2
        self.state_components = 2 if mode == 'LSTM' else 1
        kw = dict(weight_ih_attr=weight_ih_attr, weight_hh_attr=weight_hh_attr, bias_ih_attr=bias_ih_attr, bias_hh_attr=bias_hh_attr)

        def make(in_size):
            if mode == 'LSTM':
                return LSTMCell(in_size, hidden_size, proj_size=proj_size, **kw)
            if mode == 'GRU':
                return GRUCell(in_size, hidden_size, **kw)
            return SimpleRNNCell(in_size, hidden_size, 'relu' if mode == 'RNN_RELU' else 'tanh', **kw)

        out_size = proj_size or hidden_size
        for l in range(num_layers):
            in_size = input_size if l == 0 else self.num_directions * out_size
            self.append(RNN(make(in_size), False, time_major) if self.num_directions == 1 else BiRNN(make(in_size), make(in_size), time_major))
        # Paddle zips these names with parameters() in order (4 per cell).
        names = []
        for l in range(num_layers):
            for d in range(self.num_directions):
                sfx = 'l%d%s' % (l, '_reverse' if d == 1 else '')
                names += ['weight_ih_' + sfx, 'weight_hh_' + sfx]
                if bias_ih_attr is not False:
                    names.append('bias_ih_' + sfx)
                if bias_hh_attr is not False:
                    names.append('bias_hh_' + sfx)
        for n, p in zip(names, self.parameters()):
            setattr(self, n, p)

    def forward(self, inputs, initial_states=None, sequence_length=None):
        who = type(self).__name__
        s = list(inputs.shape)
        if len(s) != 3 or s[2] != self.input_size:
            raise ValueError('%s: inputs must be [%s, %d], got %s' % (who, 'time, batch' if self.time_major else 'batch, time', self.input_size, s))
        B = s[1 if self.time_major else 0]
        L = self.num_layers * self.num_directions
        per_layer = None
        if initial_states is not None:
            init = list(initial_states) if isinstance(initial_states, (list, tuple)) else [initial_states]
            if len(init) != self.state_components:
                raise ValueError('%s: initial_states must hold %d tensor(s), got %d' % (who, self.state_components, len(init)))
            dims = [self.proj_size or self.hidden_size, self.hidden_size] if self.state_components == 2 else [self.hidden_size]
            for i, t in enumerate(init):
                if list(t.shape) != [L, B, dims[i]]:
                    raise ValueError('%s: initial state %d must be %s, got %s' % (who, i, [L, B, dims[i]], list(t.shape)))
            per_layer = [paddle.unbind(t, 0) for t in init]

        def state_at(k):
            return None if per_layer is None else [u[k] for u in per_layer]

        finals = []
        x = inputs
        for l, layer in enumerate(self):
            if l > 0 and self.dropout > 0:
                x = paddle.nn.functional.dropout(x, self.dropout, training=self.training, mode='upscale_in_train')
            if isinstance(layer, BiRNN):
                x, (sf, sb) = layer._run(x, None if per_layer is None else (state_at(2 * l), state_at(2 * l + 1)), sequence_length, True)
                finals += [sf, sb]
            else:
                x, st = layer._run(x, state_at(l), sequence_length, True)
                finals.append(st)
        fin = [paddle.stack([f[c] for f in finals], 0) for c in range(self.state_components)]
        return x, _pack(fin)

    def extra_repr(self):
        s = '%d, %d' % (self.input_size, self.hidden_size)
        if self.num_layers != 1:
            s += ', num_layers=%d' % self.num_layers
        if self.time_major:
            s += ', time_major=True'
        if self.dropout != 0:
            s += ', dropout=%s' % self.dropout
        return s


class SimpleRNN(RNNBase):
    def __init__(self, input_size, hidden_size, num_layers=1, direction='forward', time_major=False, dropout=0.0, activation='tanh',
                 weight_ih_attr=None, weight_hh_attr=None, bias_ih_attr=None, bias_hh_attr=None, name=None):
        if activation not in ('tanh', 'relu'):
            raise ValueError("SimpleRNN: Unknown activation '%s'" % activation)
        super().__init__('RNN_TANH' if activation == 'tanh' else 'RNN_RELU', input_size, hidden_size, num_layers, direction, time_major, dropout,
                         weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr)
        self.activation = activation


class LSTM(RNNBase):
    def __init__(self, input_size, hidden_size, num_layers=1, direction='forward', time_major=False, dropout=0.0, weight_ih_attr=None,
                 weight_hh_attr=None, bias_ih_attr=None, bias_hh_attr=None, proj_size=0, name=None):
        super().__init__('LSTM', input_size, hidden_size, num_layers, direction, time_major, dropout, weight_ih_attr, weight_hh_attr,
                         bias_ih_attr, bias_hh_attr, proj_size)


class GRU(RNNBase):
    def __init__(self, input_size, hidden_size, num_layers=1, direction='forward', time_major=False, dropout=0.0, weight_ih_attr=None,
                 weight_hh_attr=None, bias_ih_attr=None, bias_hh_attr=None, name=None):
        super().__init__('GRU', input_size, hidden_size, num_layers, direction, time_major, dropout, weight_ih_attr, weight_hh_attr,
                         bias_ih_attr, bias_hh_attr)
