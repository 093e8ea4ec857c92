"""Translator: train()/eval() switching. A layer's mode is guarded (through the layer structure
version), so switching it translates the graph of the other mode; the graphs record the mode
they were captured in (paddle.jit.sot.symbolic.compile_cache.CompileSIRCache, Paddle's view of
compiled graphs), and results equal eager in both modes, random ops included."""
import paddle
from paddle.jit.sot.opcode_translator.executor.executor_cache import OpcodeExecutorCache
from paddle.jit.sot.symbolic.compile_cache import CompileSIRCache
from sot_check import explain, same


class ModeNet(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = paddle.nn.Linear(8, 8)

    def forward(self, x):
        if self.training:
            return paddle.nn.functional.dropout(self.fc(x), p=0.5, training=True)
        return self.fc(x) * 2


def _modes(cache):
    return [(w.partial_program.training, w.partial_program.op_count > 0) for w in cache.cache.values()]


def test_compile_cache_is_a_singleton_over_the_trees():
    cache = CompileSIRCache()
    assert CompileSIRCache() is cache
    cache.clear()
    assert cache.cache == {} and len(cache) == 0

    def f(x):
        return x * 2 + 1

    sf = paddle.jit.to_static(f)
    x = paddle.rand([3])
    sf(x)
    sf(x)                                  # a cache hit captures nothing new
    entries = list(cache.cache.values())
    assert len(entries) == 1, entries
    assert entries[0].name.partition('#')[0].endswith('f'), entries[0].name   # (3.10: no qualname)
    assert 'scale' in entries[0].SIR or 'multiply' in entries[0].SIR, entries[0].SIR
    cache.clear()
    assert len(cache) == 0
    sf(x)
    assert len(cache) == 0                 # graphs made before clear() keep running, unlisted


def test_switching_modes_records_each_graph_mode():
    cache = CompileSIRCache()
    x = paddle.rand([4, 8])
    net = ModeNet()
    eager_fwd = net.forward
    paddle.seed(11)
    net.eval()
    want_eval = eager_fwd(x)
    net.train()
    want_train = eager_fwd(x)

    paddle.seed(11)
    cache.clear()
    paddle.jit.to_static(net)
    net.eval()
    same(net(x), want_eval)
    assert _modes(cache) == [(False, True)], _modes(cache)
    cache.clear()
    net.train()
    same(net(x), want_train)
    assert _modes(cache) == [(True, True)], _modes(cache)
    assert not explain(net.forward).get('eager')


def test_mode_switch_retranslates_and_hits_afterwards():
    # a conv + batch-norm block called through a plain function, with an input of 64 KiB or
    # more (the size at which tensors cross the call boundary with negative handles)
    net = paddle.nn.Sequential(paddle.nn.Conv2D(3, 4, 3), paddle.nn.BatchNorm2D(4), paddle.nn.ReLU())

    def call(x, layer):
        return layer(x)

    ref = paddle.nn.Sequential(paddle.nn.Conv2D(3, 4, 3), paddle.nn.BatchNorm2D(4), paddle.nn.ReLU())
    ref.set_state_dict(net.state_dict())
    x = paddle.rand([2, 3, 64, 64])
    ctx = OpcodeExecutorCache()
    ctx.clear()
    sf = paddle.jit.to_static(call)
    modes = ('eval', 'eval', 'train', 'train')
    counts, got = [], []
    for mode in modes:          # eval() on a model already in eval mode changes nothing
        getattr(net, mode)()
        got.append(sf(x, net))
        counts.append(ctx.translate_count)
    assert counts == [1, 1, 2, 2], counts
    for mode, g in zip(modes, got):
        getattr(ref, mode)()
        same(g, ref(x))
    # batch-norm statistics were updated in place exactly as eagerly
    same(net[1]._mean, ref[1]._mean)
    same(net[1]._variance, ref[1]._variance)
    assert not explain(sf).get('eager')
    ctx.clear()


def test_switching_back_to_a_mode_reuses_its_translation():
    # train()/eval() every epoch: two translations in all, not one per switch (a state seen since
    # the last structural change gets its version back), and each call equals eager in its mode.
    net = ModeNet()
    ref = ModeNet()
    ref.set_state_dict(net.state_dict())
    x = paddle.rand([4, 8])
    ctx = OpcodeExecutorCache()
    ctx.clear()
    paddle.jit.to_static(net)
    counts = []
    for epoch in range(6):
        for mode in ('train', 'eval'):
            getattr(net, mode)()
            getattr(ref, mode)()
            paddle.seed(epoch)
            got = net(x)
            paddle.seed(epoch)
            same(got, ref(x))
        counts.append(ctx.translate_count)
    assert counts == [2] * 6, counts
    # only a sublayer switched: a state of its own (its mode is what forward reads through fc)
    net.train()
    net.fc.eval()
    assert net.training and not net.fc.training
    ref.train()
    ref.fc.eval()
    paddle.seed(7)
    got = net(x)
    paddle.seed(7)
    same(got, ref(x))
    # a structural change forgets the states: the next switch translates again
    before = ctx.translate_count
    net.extra = paddle.nn.Linear(2, 2)
    net.eval()
    ref.eval()
    same(net(x), ref(x))
    assert ctx.translate_count == before + 1, (before, ctx.translate_count)
    net.train()
    net.eval()                 # back to the state after that change: its translation again
    same(net(x), ref(x))
    assert ctx.translate_count == before + 1, (before, ctx.translate_count)
    assert not explain(net.forward).get('eager')
    ctx.clear()
