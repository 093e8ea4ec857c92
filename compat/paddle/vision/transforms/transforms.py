"""Transform classes over functional.py. Random ones draw from the Python generator that
paddle.seed seeds (framework.fallback_rng), so a seeded run repeats its augmentations without a
runtime call per sample. `_skiff_batch` marks transforms that can run on a whole [B, ...] batch
(MNIST's DataLoader fast path uses it)."""
from ...framework import fallback_rng
from . import functional as F


class BaseTransform:
    def __init__(self, keys=None):
        self.keys = keys

    def __call__(self, inputs):
        return self._apply_image(inputs)

    def _apply_image(self, image):
        raise NotImplementedError


class Compose:
    def __init__(self, transforms):
        self.transforms = list(transforms)
        if all(getattr(t, '_skiff_batch', None) is not None for t in self.transforms):
            self._skiff_batch = self._batch

    def __call__(self, data):
        for t in self.transforms:
            data = t(data)
        return data

    def _batch(self, x):
        for t in self.transforms:
            x = t._skiff_batch(x)
        return x

    def __repr__(self):
        return 'Compose(%s)' % ', '.join(type(t).__name__ for t in self.transforms)


class ToTensor(BaseTransform):
    def __init__(self, data_format='CHW', keys=None):
        super().__init__(keys)
        self.data_format = data_format

    def _apply_image(self, img):
        return F.to_tensor(img, self.data_format)

    def _skiff_batch(self, x):
        """[B, H, W] tensor images -> [B, 1, H, W] (or [B, H, W, 1] for HWC)."""
        if x.ndim != 3:
            raise ValueError('ToTensor: batched fast path expects [B, H, W], got {}'.format(x.shape))
        x = x.unsqueeze(1 if self.data_format == 'CHW' else 3)
        import paddle
        return x / 255.0 if x.dtype == paddle.uint8 else x.astype('float32')


class Normalize(BaseTransform):
    def __init__(self, mean=0.0, std=1.0, data_format='CHW', to_rgb=False, keys=None):
        super().__init__(keys)
        self.mean, self.std, self.data_format, self.to_rgb = mean, std, data_format, to_rgb

    def _apply_image(self, img):
        return F.normalize(img, self.mean, self.std, self.data_format, self.to_rgb)

    _skiff_batch = _apply_image   # per-channel broadcasting covers a leading batch axis


class Resize(BaseTransform):
    def __init__(self, size, interpolation='bilinear', keys=None):
        super().__init__(keys)
        self.size, self.interpolation = size, interpolation

    def _apply_image(self, img):
        return F.resize(img, self.size, self.interpolation)


class CenterCrop(BaseTransform):
    def __init__(self, size, keys=None):
        super().__init__(keys)
        self.size = size

    def _apply_image(self, img):
        return F.center_crop(img, self.size)


class RandomCrop(BaseTransform):
    def __init__(self, size, padding=None, pad_if_needed=False, fill=0, padding_mode='constant', keys=None):
        super().__init__(keys)
        self.size = (size, size) if isinstance(size, int) else tuple(size)
        self.padding, self.pad_if_needed, self.fill, self.padding_mode = padding, pad_if_needed, fill, padding_mode

    def _apply_image(self, img):
        img, _ = F._as_tensor(img)
        if self.padding is not None:
            img = F.pad(img, self.padding, self.fill, self.padding_mode)
        th, tw = self.size
        h, w = img.shape[-2], img.shape[-1]
        if self.pad_if_needed and (h < th or w < tw):
            dw, dh = max(tw - w, 0), max(th - h, 0)
            img = F.pad(img, (dw, dh, dw, dh), self.fill, self.padding_mode)
            h, w = img.shape[-2], img.shape[-1]
        if h < th or w < tw:
            raise ValueError('RandomCrop: crop size {} is larger than the image {}x{}'.format(self.size, h, w))
        rng = fallback_rng()
        top, left = rng.randint(0, h - th), rng.randint(0, w - tw)
        return F.crop(img, top, left, th, tw)


class RandomHorizontalFlip(BaseTransform):
    def __init__(self, prob=0.5, keys=None):
        super().__init__(keys)
        self.prob = prob

    def _apply_image(self, img):
        return F.hflip(img) if fallback_rng().random() < self.prob else F._as_tensor(img)[0]


class RandomVerticalFlip(BaseTransform):
    def __init__(self, prob=0.5, keys=None):
        super().__init__(keys)
        self.prob = prob

    def _apply_image(self, img):
        return F.vflip(img) if fallback_rng().random() < self.prob else F._as_tensor(img)[0]


class Transpose(BaseTransform):
    """HWC -> CHW (order (2, 0, 1)) or any permutation of the image axes."""

    def __init__(self, order=(2, 0, 1), keys=None):
        super().__init__(keys)
        self.order = list(order)

    def _apply_image(self, img):
        img, _ = F._as_tensor(img)
        if img.ndim == 2:
            img = img.unsqueeze(-1)
        return img.transpose(self.order)
