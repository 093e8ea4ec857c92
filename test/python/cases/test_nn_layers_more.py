"""The layers whose ops gained gradient rules (issue 7) from Python: shapes and parameter names
follow Paddle, and one SGD step on a tiny net of them lowers the loss with every parameter
receiving a gradient."""
import paddle
import paddle.nn as nn
import paddle.nn.functional as F


def test_layer_shapes_and_parameters():
    assert nn.Conv1D(4, 6, 3, groups=2).weight.shape == [6, 2, 3]
    assert nn.Conv3D(2, 4, [1, 2, 3]).weight.shape == [4, 2, 1, 2, 3]
    assert nn.Conv2DTranspose(4, 6, 3, groups=2).weight.shape == [4, 3, 3, 3]
    assert sorted(nn.GroupNorm(2, 4).state_dict().keys()) == ['bias', 'weight']
    assert sorted(nn.InstanceNorm2D(3).state_dict().keys()) == ['bias', 'scale']
    x = paddle.randn([2, 4, 5, 6])
    assert nn.Conv2DTranspose(4, 2, 3, stride=2)(x, output_size=[12, 14]).shape == [2, 2, 12, 14]
    assert nn.Upsample(size=[7, 9], mode='bicubic')(x).shape == [2, 4, 7, 9]
    assert nn.PixelUnshuffle(2)(nn.PixelShuffle(2)(x)).shape == [2, 4, 5, 6]
    assert nn.AdaptiveMaxPool2D(2)(x).shape == [2, 4, 2, 2]
    assert nn.LocalResponseNorm(3)(x).shape == [2, 4, 5, 6]


def test_one_sgd_step_lowers_the_loss():
    paddle.seed(3)
    net = nn.Sequential(nn.Conv2DTranspose(1, 8, 2, stride=2), nn.GroupNorm(4, 8), nn.PixelShuffle(2), nn.InstanceNorm2D(2),
                        nn.AdaptiveAvgPool2D(4), nn.Upsample(scale_factor=2, mode='bilinear'))
    c1 = nn.Conv1D(2, 3, 3, stride=2, padding=1)
    c3 = nn.Conv3D(3, 2, [3, 1, 1], stride=[2, 1, 1])
    x = paddle.randn([4, 1, 4, 4])
    label = (x[:, :, :, :2].sum(axis=[1, 2, 3]) > x[:, :, :, 2:].sum(axis=[1, 2, 3])).astype('int64')
    params = net.parameters() + c1.parameters() + c3.parameters()
    assert len(params) == 10
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=params)

    def loss_fn():
        h = net(x)
        h = paddle.tanh(c1(h.reshape([4, 2, 64])))
        h = c3(h.reshape([4, 3, 32, 1, 1]))
        return F.cross_entropy(h.mean(axis=[2, 3, 4]), label)

    l0 = loss_fn()
    l0.backward()
    for p in params:
        assert float(p.grad.abs().sum()) > 0, p.name
    opt.step()
    opt.clear_grad()
    assert float(loss_fn()) < float(l0)
