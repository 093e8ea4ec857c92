"""paddle.summary(net, input_size=None, dtypes=None, input=None): one forward pass with a post
hook on every layer; prints Paddle's table (layer, input shape, output shape, parameter count)
and returns {'total_params', 'trainable_params'}. src/nn/summary.ts is the TypeScript twin."""


def _shapes(input_size):
    many = isinstance(input_size, (list, tuple)) and len(input_size) > 0 and isinstance(input_size[0], (list, tuple))
    out = []
    for s in (input_size if many else [input_size]):
        if not isinstance(s, (list, tuple)):
            raise TypeError('summary: input_size must be a shape or a list of shapes, got %r' % (input_size,))
        dims = []
        for d in s:
            if d is None or d == -1:
                dims.append(1)
            elif isinstance(d, int) and d >= 0:
                dims.append(d)
            else:
                raise ValueError('summary: input_size dims must be non-negative integers, -1 or None, got %r' % (s,))
        out.append(dims)
    return out


def _shape_str(v):
    from .tensor import Tensor
    if isinstance(v, Tensor):
        return str(list(v.shape))
    if isinstance(v, (list, tuple)):
        return '[' + ', '.join(_shape_str(t) for t in v) + ']'
    return ''


def _elems(v):
    from .tensor import Tensor
    if isinstance(v, Tensor):
        return int(v.size)
    if isinstance(v, (list, tuple)):
        return sum(_elems(t) for t in v)
    return 0


def _prod(s):
    n = 1
    for d in s:
        n *= d
    return n


def summary(net, input_size=None, dtypes=None, input=None):
    import paddle
    from .nn.layer.layers import Layer
    from .nn.layer.container import LayerList, Sequential
    from .nn.layer.rnn import RNNBase
    from .tensor import Tensor
    if not isinstance(net, Layer):
        raise TypeError('summary: net must be a paddle.nn.Layer')
    if input_size is None and input is None:
        raise ValueError('summary: give input_size or input')
    if input is not None:
        inputs = list(input) if isinstance(input, (list, tuple)) else [input]
    else:
        shapes = _shapes(input_size)
        dts = list(dtypes) if isinstance(dtypes, (list, tuple)) else [dtypes or 'float32'] * len(shapes)
        if len(dts) != len(shapes):
            raise ValueError('summary: %d input shapes but %d dtypes' % (len(shapes), len(dts)))
        inputs = [paddle.rand(s).astype(d) for s, d in zip(shapes, dts)]
    rows, hooks = [], []
    layers = net.sublayers(include_self=True)
    leaf_model = len(layers) == 1

    def hook(layer, ins, out):
        own = [p for p in layer._parameters.values() if p is not None]
        rows.append(('%s-%d' % (type(layer).__name__, len(rows) + 1), _shape_str([t for t in ins if isinstance(t, Tensor)]),
                     _shape_str(out), sum(_prod(p.shape) for p in own), _elems(out)))

    for layer in layers:
        # Containers only pass data through; the model gets a row when it has no sublayers (as in Paddle).
        # RNN layers (SimpleRNN/LSTM/GRU) always get a row: their cells are not called as layers.
        rnn = isinstance(layer, RNNBase)
        if not rnn and (isinstance(layer, Sequential) or isinstance(layer, LayerList) or (layer is net and not leaf_model)):
            continue
        hooks.append(layer.register_forward_post_hook(hook))
    was_training = net.training
    try:
        net.eval()
        with paddle.no_grad():
            net(*inputs)
    finally:
        for h in hooks:
            h.remove()
        if was_training:
            net.train()
    # Totals count each parameter once, even when a layer also exposes its sublayers' tensors (RNN's weight_ih_l0).
    params = net.parameters()
    total = sum(_prod(p.shape) for p in params)
    trainable = sum(_prod(p.shape) for p in params if not p.stop_gradient)
    head = ['Layer (type)', 'Input Shape', 'Output Shape', 'Param #']
    cells = [[r[0], r[1], r[2], '{:,}'.format(r[3])] for r in rows]
    widths = [max([len(h)] + [len(c[i]) for c in cells]) + 4 for i, h in enumerate(head)]

    def line(c):
        return ' '.join(s.center(widths[i]) for i, s in enumerate(c)).rstrip()

    width = sum(widths) + 3

    def mb(n):
        return '%.2f' % (n * 4 / 1024 / 1024)

    in_elems = sum(int(t.size) for t in inputs)
    fwd = 2 * sum(r[4] for r in rows)
    out = ['-' * width, line(head), '=' * width] + [line(c) for c in cells] + [
        '=' * width, 'Total params: {:,}'.format(total), 'Trainable params: {:,}'.format(trainable),
        'Non-trainable params: {:,}'.format(total - trainable), '-' * width,
        'Input size (MB): ' + mb(in_elems), 'Forward/backward pass size (MB): ' + mb(fwd), 'Params size (MB): ' + mb(total),
        'Estimated Total Size (MB): ' + mb(in_elems + fwd + total), '-' * width]
    print('\n'.join(out))
    return {'total_params': total, 'trainable_params': trainable}
