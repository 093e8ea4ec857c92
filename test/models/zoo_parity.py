"""Python half of test/models/zoo_parity.test.ts: builds a zoo model by name, moves its state
through a directory of .npy files (one per state_dict key) and writes its outputs on x.npy.

    zoo_parity.py <model> load <dir>   # load <dir>/state/*.npy, write <dir>/py_eval.npy, py_train.npy
    zoo_parity.py <model> save <dir>   # seed, build, write <dir>/state/*.npy, py_eval.npy, py_train.npy
"""
import os
import sys

import numpy as np
import paddle
from paddle.vision.models import VGG, VisionTransformer, mobilenet_v2, resnet18, resnet50
from paddle.vision.models.vgg import make_layers

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from zoo_parity_models import TEXT_BUILDERS  # noqa: E402

BUILDERS = {
    'resnet18': lambda: resnet18(num_classes=10),
    'resnet50': lambda: resnet50(num_classes=4),
    'mobilenet_v2': lambda: mobilenet_v2(scale=0.35, num_classes=6),
    'vgg_bn': lambda: VGG(make_layers([8, 'M', 16, 'M'], batch_norm=True), num_classes=0),
    'vit': lambda: VisionTransformer(img_size=32, patch_size=8, class_num=5, embed_dim=32, depth=2, num_heads=4, qkv_bias=True),
}
BUILDERS.update(TEXT_BUILDERS)


def first(out):
    """A model's main output: logits when it also returns states (LSTM LM)."""
    return out[0] if isinstance(out, (tuple, list)) else out


def outputs(model, inputs, d):
    """Eval output first (fresh running statistics), then train mode with dropout off (also the
    dropout inside MultiHeadAttention and between LSTM layers)."""
    model.eval()
    np.save(os.path.join(d, 'py_eval.npy'), first(model(*inputs)).numpy())
    model.train()
    for layer in model.sublayers():
        if isinstance(layer, (paddle.nn.Dropout, paddle.nn.MultiHeadAttention, paddle.nn.LSTM)):
            layer.eval()
    np.save(os.path.join(d, 'py_train.npy'), first(model(*inputs)).numpy())


def main():
    name, mode, d = sys.argv[1:4]
    state_dir = os.path.join(d, 'state')
    inputs = [paddle.to_tensor(np.load(os.path.join(d, f))) for f in sorted(os.listdir(d)) if f.startswith('x') and f.endswith('.npy')]
    if mode == 'save':
        paddle.seed(123)
        model = BUILDERS[name]()
        os.makedirs(state_dir, exist_ok=True)
        for k, v in model.state_dict().items():
            np.save(os.path.join(state_dir, k + '.npy'), v.numpy())
    else:
        model = BUILDERS[name]()
        state = {f[:-4]: paddle.to_tensor(np.load(os.path.join(state_dir, f))) for f in os.listdir(state_dir)}
        missing, unexpected = model.set_state_dict(state)
        # nn.LSTM lists its cells' parameters twice (weight_ih_l0 and 0.cell.weight_ih, one tensor);
        # TypeScript's state_dict lists a shared tensor once, so only those aliases may be missing
        assert not [k for k in missing if '.cell.' not in k] and not unexpected, (missing, unexpected)
    outputs(model, inputs, d)


main()
