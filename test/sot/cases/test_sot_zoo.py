"""Translator: the zoo's ResNet-18 (reduced input) translates into one graph with no breaks and
gives eager's outputs, in eval and train mode."""
import paddle
from paddle.vision.models import resnet18
from sot_check import breaks, explain, same


def test_resnet18_one_graph_no_breaks():
    paddle.seed(21)
    model = resnet18(num_classes=10)
    x = paddle.randn([2, 3, 32, 32])
    model.eval()
    want = model(x)
    sm = paddle.jit.to_static(model)
    same(sm(x), want)
    same(sm(x), want)
    e = explain(sm.forward)
    assert not e.get('eager'), e.get('eagerReason')
    assert e['graphCount'] == 1 and breaks(sm.forward) == [], e
    model.train()   # batch statistics: a second translation, still one graph and eager's values
    want_train = type(model).forward(model, x)
    same(sm(x), want_train)
    assert breaks(sm.forward) == []
    assert explain(sm.forward)['graphCount'] == 2
