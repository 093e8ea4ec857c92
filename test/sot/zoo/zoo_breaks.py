# Capture quality of the Python zoo: each model (eval mode, small input) translated with
# to_static; prints one JSON row per model: graphs, breaks (code@line), and the captured-op share
# of a cached call (ops run inside graphs / all ops run, from paddle.profiler's rows).
# test/sot/zoo_breaks.test.ts compares the rows with test/sot/zoo_breaks.csv.
import json
import os
import sys

import paddle
import paddle.profiler as profiler
from paddle.hapi.host import host_dir
from paddle.vision.models import LeNet, mobilenet_v2, resnet18, resnet50, vgg11
from paddle.vision.models.vit import VisionTransformer

_MODELS = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', 'models'))
sys.path.insert(0, host_dir(_MODELS))
from text import LSTMLanguageModel, bert_tiny, gpt_mini  # noqa: E402

paddle.seed(0)
img = lambda s: paddle.randn([2, 3, s, s])
ids = paddle.randint(0, 100, [2, 8])
ZOO = [
    ('lenet', lambda: LeNet(), paddle.randn([2, 1, 28, 28])),
    ('resnet18', lambda: resnet18(num_classes=10), img(32)),
    ('resnet50', lambda: resnet50(num_classes=10), img(32)),
    ('mobilenet_v2', lambda: mobilenet_v2(scale=0.25, num_classes=10), img(32)),
    ('vgg11', lambda: vgg11(num_classes=10), img(32)),
    ('vit_small', lambda: VisionTransformer(img_size=32, patch_size=8, class_num=10, embed_dim=64, depth=2, num_heads=4, mlp_ratio=3), img(32)),
    ('bert_tiny', lambda: bert_tiny(vocab_size=100), ids),
    ('gpt_mini', lambda: gpt_mini(vocab_size=100, num_hidden_layers=2), ids),
    ('lstm_lm', lambda: LSTMLanguageModel(100, embed_dim=32, hidden_size=32), ids),
]
for name, make, x in ZOO:
    model = make()
    model.eval()
    paddle.jit.to_static(model)
    model(x)
    e = paddle.jit.sot.explain(model.forward, x)
    with profiler.Profiler() as p:
        model(x)
    in_graphs = sum(r['ops'] * r['calls'] for r in p._rows('graph'))
    eager = sum(r['calls'] for r in p._rows('op'))
    share = in_graphs / (in_graphs + eager) if in_graphs + eager else 0.0
    breaks = ['%s@%s:%d' % (b['code'], os.path.basename(b['file']), b['line']) for b in e.get('breaks', [])]
    print(json.dumps({'model': name, 'graphs': e.get('graphCount', 0), 'breaks': breaks, 'share': round(share, 3),
                      'eager': bool(e.get('eager'))}))
