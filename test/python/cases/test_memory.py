"""Handles and native tensors return to their baseline after many eager ops; buffers passed to
the runtime for to_tensor are released (their refcount is back where it was)."""
import gc
import sys

import paddle
from paddle import _bridge


def _settle():
    gc.collect()
    _bridge.flush_frees()


def test_100k_eager_ops_return_to_baseline():
    x = paddle.to_tensor([1.0])
    y = paddle.to_tensor([2.0])
    n = paddle.to_tensor([3])
    z = x + 1 + y * 2.0 + (n + 1)  # warm the scalar cache and op paths
    del z
    _settle()
    tensors, handles, proxies = _bridge.live_tensors(), _bridge.live_handles(), _bridge.proxy_balance()
    for i in range(25000):
        a = x + 1
        b = a * y
        c = paddle.add(b, x)
        d = n + 1
    del a, b, c, d
    _settle()
    assert _bridge.live_handles() == handles, (_bridge.live_handles(), handles)
    assert _bridge.live_tensors() == tensors, (_bridge.live_tensors(), tensors)
    assert _bridge.proxy_balance() == proxies


def test_big_tensors_are_freed_at_once():
    _settle()
    before = _bridge.live_tensors()
    big = paddle.zeros([256, 256])   # 256 KiB: freed without batching
    assert _bridge.live_tensors() == before + 1
    del big
    assert _bridge.live_tensors() == before


def test_to_tensor_buffers_are_released():
    data = bytes(range(200)) * 10
    base = sys.getrefcount(data)
    p = _bridge.proxy_balance()
    for _ in range(500):
        paddle.to_tensor(data)
    _settle()
    assert sys.getrefcount(data) == base
    assert _bridge.proxy_balance() == p


def test_tolist_conversions_do_not_accumulate():
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    _settle()
    before = _bridge.live_tensors()
    for _ in range(500):
        x.tolist()
        x.item(0)
        repr(x)
    _settle()
    assert _bridge.live_tensors() == before
