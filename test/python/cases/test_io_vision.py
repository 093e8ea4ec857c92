"""paddle.vision: the MNIST dataset (shapes, dtypes, labels, a fixed split) and transforms."""
import paddle
from paddle.io import DataLoader
from paddle.vision import transforms as T
from paddle.vision.datasets import MNIST
from paddle.vision.models import LeNet


def test_mnist_items():
    train, test = MNIST(mode='train'), MNIST(mode='test')
    assert len(train) == 8995 and len(test) == 1005        # 90% / 10% of each digit
    img, label = train[0]
    assert img.shape == [1, 28, 28] and img.dtype == paddle.float32
    assert label.shape == [1] and label.dtype == paddle.int64
    for i in (0, 17, len(test) - 1):
        img, label = test[i]
        v = img.tolist()[0]
        assert 0.0 <= min(min(r) for r in v) and max(max(r) for r in v) <= 1.0
        assert 0 <= label.item() <= 9


def test_mnist_split_is_fixed():
    # the split and order come from a fixed seed, not from paddle.seed or Math.random
    paddle.seed(123)
    a = MNIST(mode='test').labels[:12].reshape([-1]).tolist()
    assert a == [8, 6, 3, 0, 7, 3, 6, 7, 5, 6, 7, 6]
    assert MNIST(mode='train').labels[:5].reshape([-1]).tolist() == [1, 9, 6, 9, 8]


def test_mnist_transform_and_fast_batches():
    ds = MNIST(mode='test', transform=T.Compose([T.ToTensor(), T.Normalize([0.5], [0.5])]))
    img, _ = ds[4]
    x, y = next(iter(DataLoader(ds, batch_size=8)))
    assert x.shape == [8, 1, 28, 28] and y.shape == [8, 1] and y.dtype == paddle.int64
    assert abs(x[4].tolist()[0][14][14] - img.tolist()[0][14][14]) < 1e-6   # batched path == per item
    flip = MNIST(mode='test', transform=T.Compose([T.ToTensor(), T.RandomHorizontalFlip(1.0)]))
    xf, _ = next(iter(DataLoader(flip, batch_size=2)))
    plain = MNIST(mode='test', transform=T.ToTensor())
    assert xf.shape == [2, 1, 28, 28]      # per-item path (flips are random)
    assert xf[0].tolist()[0][10] == list(reversed(plain[0][0].tolist()[0][10]))


def test_transforms_basics():
    img = paddle.arange(16, dtype='float32').reshape([4, 4])
    t = T.ToTensor()(img)
    assert t.shape == [1, 4, 4]
    n = T.Normalize(mean=[1.0], std=[2.0])(t)
    assert n.tolist()[0][0][:2] == [-0.5, 0.0]
    assert T.Resize((2, 2), interpolation='nearest')(t).tolist() == [[[0.0, 2.0], [8.0, 10.0]]]
    assert T.Resize((2, 2))(t).tolist() == [[[2.5, 4.5], [10.5, 12.5]]]    # bilinear, half-pixel
    assert T.Resize(8)(t).shape == [1, 8, 8]
    assert T.RandomHorizontalFlip(1.0)(t).tolist()[0][0] == [3.0, 2.0, 1.0, 0.0]
    assert T.RandomHorizontalFlip(0.0)(t).tolist()[0][0] == [0.0, 1.0, 2.0, 3.0]
    assert T.CenterCrop(2)(t).tolist() == [[[5.0, 6.0], [9.0, 10.0]]]
    paddle.seed(7)
    c1 = T.RandomCrop(2)(t).tolist()
    paddle.seed(7)
    assert T.RandomCrop(2)(t).tolist() == c1
    p = T.RandomCrop(6, padding=1)(t)
    assert p.shape == [1, 6, 6] and p.tolist()[0][0] == [0.0] * 6
    u8 = T.ToTensor()(paddle.to_tensor([[255, 0, 51]], dtype='uint8'))    # uint8 is scaled to 0..1
    assert u8.dtype == paddle.float32 and [round(v, 4) for v in u8.tolist()[0][0]] == [1.0, 0.0, 0.2]
    assert T.ToTensor()([[[1.0, 2.0]], [[3.0, 4.0]]]).shape == [2, 2, 1]    # nested lists are HWC


def test_lenet_shapes_and_names():
    net = LeNet()
    out = net(paddle.rand([2, 1, 28, 28]))
    assert out.shape == [2, 10]
    names = list(net.state_dict().keys())
    assert names[:2] == ['features.0.weight', 'features.0.bias'] and 'fc.2.weight' in names
    assert LeNet(num_classes=0)(paddle.rand([1, 1, 28, 28])).shape == [1, 16, 5, 5]
