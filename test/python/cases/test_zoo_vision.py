"""The vision zoo in Python (compat/paddle/vision/models): Paddle's parameter names and counts,
forward shapes, and one SGD step that gives every parameter a gradient and lowers the loss.
Reduced inputs (32x32) and widths keep it fast; the full-size factories are checked by
parameter count (VGG-11's 133M parameters are only counted through its config)."""
import paddle
import paddle.nn.functional as F
from paddle.vision.models import (VGG, LeNet, MobileNetV2, mobilenet_v2, resnet18, resnet34, resnet50,  # noqa: F401
                                  vgg11)
from paddle.vision.models.vgg import make_layers, cfgs


def _count(model):
    return sum(p.size for p in model.parameters())


def _train_step(model, x, classes, step=1e-3):
    """One SGD step on a fixed batch: every parameter gets a gradient and the loss goes down.
    Batch norm trains on batch statistics; dropout is switched off so both losses see one network.
    The learning rate makes the step `step` long in parameter space: deep post-norm nets at init
    on a tiny batch have gradient norms in the thousands (ResNet-50 here), and a fixed rate would
    test the curvature rather than the gradients."""
    label = paddle.arange(x.shape[0]) % classes
    model.train()
    for layer in model.sublayers():
        if isinstance(layer, paddle.nn.Dropout):
            layer.eval()
    loss = F.cross_entropy(model(x), label)
    loss.backward()
    missing = [n for n, p in model.named_parameters() if p.grad is None]
    assert not missing, 'no gradient for %s' % missing[:5]
    norm = sum((p.grad * p.grad).sum().item() for p in model.parameters()) ** 0.5
    assert norm > 0
    opt = paddle.optimizer.SGD(learning_rate=step / norm, parameters=model.parameters())
    opt.step()
    opt.clear_grad()
    after = F.cross_entropy(model(x), label)
    assert after.item() < loss.item(), 'loss %f -> %f' % (loss.item(), after.item())


def test_resnet_names_and_counts():
    m = resnet18()
    keys = list(m.state_dict())
    assert keys[:5] == ['conv1.weight', 'bn1.weight', 'bn1.bias', 'bn1._mean', 'bn1._variance']
    assert 'layer2.0.downsample.0.weight' in keys and 'layer2.0.downsample.1._variance' in keys
    assert keys[-2:] == ['fc.weight', 'fc.bias']
    assert _count(m) == 11689512
    assert _count(resnet34()) == 21797672
    m50 = resnet50()
    assert _count(m50) == 25557032
    assert list(m50.state_dict()['layer1.0.conv3.weight'].shape) == [256, 64, 1, 1]
    assert not hasattr(resnet18(num_classes=0), 'fc')


def test_resnet18_forward_and_train_step():
    paddle.seed(1)
    m = resnet18(num_classes=10)
    x = paddle.randn([4, 3, 32, 32])
    assert m(x).shape == [4, 10]
    assert resnet18(num_classes=0, with_pool=False)(x).shape == [4, 512, 1, 1]
    _train_step(m, x, 10)


def test_resnet50_bottleneck_train_step():
    paddle.seed(2)
    m = resnet50(num_classes=5)
    x = paddle.randn([4, 3, 64, 64])   # 2x2 maps in layer4: batch norm over 16 values, not 4
    assert m(x).shape == [4, 5]
    _train_step(m, x, 5)


def test_pretrained_is_refused():
    for f in (resnet18, mobilenet_v2, vgg11):
        try:
            f(pretrained=True)
        except NotImplementedError as e:
            assert 'pretrained' in str(e) and 'set_state_dict' in str(e)
        else:
            raise AssertionError('%s(pretrained=True) did not raise' % f.__name__)


def test_mobilenetv2():
    assert _count(MobileNetV2()) == 3504872
    paddle.seed(3)
    m = mobilenet_v2(scale=0.35, num_classes=7)
    keys = list(m.state_dict())
    assert keys[:2] == ['features.0.0.weight', 'features.0.1.weight']
    assert 'features.1.conv.1.weight' in keys and 'features.2.conv.0.0.weight' in keys
    assert keys[-2:] == ['classifier.1.weight', 'classifier.1.bias']
    x = paddle.randn([2, 3, 32, 32])
    assert m(x).shape == [2, 7]
    _train_step(m, x, 7)


def test_vgg():
    # VGG-11's config gives Paddle's names; its size is counted from the config, not built.
    convs = [v for v in cfgs['A'] if v != 'M']
    conv_params = sum(9 * a * b + b for a, b in zip([3] + convs[:-1], convs))
    assert conv_params + (25088 * 4096 + 4096) + (4096 * 4096 + 4096) + (4096 * 1000 + 1000) == 132863336
    # the factory's real feature stack (9.2M parameters) without the 123M-parameter classifier
    feats = vgg11(num_classes=0)
    assert _count(feats) == conv_params and len(feats.features) == 21
    bn = vgg11(batch_norm=True, num_classes=0)
    assert len(bn.features) == 29 and 'features.1._mean' in bn.state_dict() and 'features.28.weight' not in bn.state_dict()
    paddle.seed(4)
    for bn in (False, True):
        feats = make_layers([8, 'M', 16, 'M', 16, 'M'], batch_norm=bn)
        m = VGG(feats, num_classes=0, with_pool=True)
        keys = list(m.state_dict())
        assert keys[:2] == ['features.0.weight', 'features.0.bias']
        assert ('features.1._mean' in keys) == bn
        x = paddle.randn([2, 3, 32, 32])
        assert m(x).shape == [2, 16, 7, 7]
        # a small classifier in the place of the 25088 x 4096 one, to train the whole path
        m.classifier = paddle.nn.Sequential(paddle.nn.Linear(16 * 49, 32), paddle.nn.ReLU(), paddle.nn.Dropout(),
                                            paddle.nn.Linear(32, 32), paddle.nn.ReLU(), paddle.nn.Dropout(),
                                            paddle.nn.Linear(32, 3))
        m.num_classes = 3
        assert m(x).shape == [2, 3]
        _train_step(m, x, 3)
    try:
        make_layers([8, 'X'])
    except ValueError as e:
        assert 'make_layers' in str(e)
    else:
        raise AssertionError('bad cfg accepted')


def test_vit():
    from paddle.vision.models import VisionTransformer, vit_tiny
    assert _count(vit_tiny()) == 5717416   # DeiT-tiny's count
    paddle.seed(5)
    m = VisionTransformer(img_size=32, patch_size=8, class_num=5, embed_dim=32, depth=2, num_heads=4, qkv_bias=True)
    keys = list(m.state_dict())
    assert keys[:4] == ['pos_embed', 'cls_token', 'patch_embed.proj.weight', 'patch_embed.proj.bias']
    assert 'blocks.1.attn.qkv.bias' in keys and 'blocks.1.mlp.fc2.weight' in keys and keys[-2:] == ['head.weight', 'head.bias']
    assert list(m.pos_embed.shape) == [1, 17, 32]
    x = paddle.randn([3, 3, 32, 32])
    assert m(x).shape == [3, 5]
    _train_step(m, x, 5)
    try:
        m(paddle.randn([1, 3, 16, 16]))
    except ValueError as e:
        assert 'PatchEmbed' in str(e)
    else:
        raise AssertionError('wrong image size accepted')
