"""Position ids and the causal mask from input_ids [batch, seq] (twin of positions.ts).

With a known seq they are arange / tril; when seq is -1 (a program traced with
InputSpec([None, None]) by paddle.jit.save / paddle.onnx.export) they are built from the ids'
own shape by ops that need no size (cumsum of ones, a comparison), so the exported model keeps
a dynamic sequence length. Both give the same values.
"""
import paddle


def _positions(input_ids):
    seq = input_ids.shape[1]
    if seq >= 0:
        return paddle.arange(seq, dtype='int64')
    row = paddle.squeeze(paddle.slice(input_ids, axes=[0], starts=[0], ends=[1]), axis=0)  # ids[0] without a size
    ones = paddle.ones_like(row, dtype='int64')
    return paddle.cumsum(ones, axis=0) - paddle.ones_like(ones)


def position_ids(input_ids):
    """[1, seq] int64: 0, 1, ..., seq - 1."""
    return _positions(input_ids).unsqueeze(0)


def causal_mask(input_ids):
    """[seq, seq] bool, True = attend: position i sees positions <= i."""
    seq = input_ids.shape[1]
    if seq >= 0:
        return paddle.tril(paddle.ones([seq, seq], dtype='int64')).astype('bool')
    p = _positions(input_ids)
    return paddle.greater_equal(p.unsqueeze(1), p.unsqueeze(0))
