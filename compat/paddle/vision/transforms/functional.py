"""paddle.vision.transforms.functional on tensors.

Image conventions (Skiff has no PIL): a paddle Tensor image is HW or CHW (Paddle's tensor
layout); to_tensor also accepts Skiff's numpy arrays and nested lists, which are HW or HWC as
numpy images are. Geometry works on the last two axes, so it applies to batches too.
"""
import math


def _paddle():
    import paddle
    return paddle


def _as_tensor(pic):
    paddle = _paddle()
    if isinstance(pic, paddle.Tensor):
        return pic, False
    f = getattr(pic, '_skiff_tensor', None)
    if f is not None:
        return f(), True
    if isinstance(pic, (list, tuple)):
        return paddle.to_tensor(pic), True
    raise TypeError('pic should be a paddle.Tensor, a numpy array or a nested list, got {}'.format(type(pic)))


def to_tensor(pic, data_format='CHW'):
    """HW -> [1, H, W]; HWC arrays -> CHW ('CHW') or kept HWC; uint8 scaled to 0..1; float32 out."""
    paddle = _paddle()
    if data_format not in ('CHW', 'HWC'):
        raise ValueError('data_format should be CHW or HWC, got {}'.format(data_format))
    t, hwc = _as_tensor(pic)
    if t.ndim == 2:
        t = t.unsqueeze(0 if data_format == 'CHW' else -1)
    elif t.ndim == 3 and hwc and data_format == 'CHW':
        t = t.transpose([2, 0, 1])
    elif t.ndim == 3 and not hwc and data_format == 'HWC':
        t = t.transpose([1, 2, 0])
    elif t.ndim != 3:
        raise ValueError('to_tensor: expected an image of rank 2 or 3, got shape {}'.format(t.shape))
    scale = t.dtype == paddle.uint8
    t = t.astype('float32') if t.dtype != paddle.float32 else t
    return t / 255.0 if scale else t


def normalize(img, mean, std, data_format='CHW', to_rgb=False):
    """(img - mean) / std per channel; channel axis -3 for CHW (batches broadcast), -1 for HWC."""
    paddle = _paddle()
    img, _ = _as_tensor(img)
    mean = [float(m) for m in (mean if isinstance(mean, (list, tuple)) else [mean])]
    std = [float(s) for s in (std if isinstance(std, (list, tuple)) else [std])]
    shape = [len(mean), 1, 1] if data_format == 'CHW' else [len(mean)]
    m = paddle.to_tensor(mean, dtype=img.dtype).reshape(shape)
    s = paddle.to_tensor(std, dtype=img.dtype).reshape([len(std)] + shape[1:])
    return (img - m) / s


def _size_hw(size, h, w):
    if isinstance(size, int):   # the shorter side becomes `size`, keeping the aspect ratio
        if h <= w:
            return size, max(1, int(size * w / h))
        return max(1, int(size * h / w)), size
    size = list(size)
    if len(size) != 2:
        raise ValueError('size should be an int or (h, w), got {}'.format(size))
    return int(size[0]), int(size[1])


def _axis_sources(n_in, n_out, mode):
    """Per output index: (i0, i1, weight of i1). Bilinear uses half-pixel centres."""
    out = []
    for d in range(n_out):
        if mode == 'nearest':
            i = min(int(math.floor(d * n_in / n_out)), n_in - 1)
            out.append((i, i, 0.0))
        else:
            s = max((d + 0.5) * n_in / n_out - 0.5, 0.0)
            i0 = min(int(math.floor(s)), n_in - 1)
            i1 = min(i0 + 1, n_in - 1)
            out.append((i0, i1, s - i0))
    return out


def resize(img, size, interpolation='bilinear'):
    """Resizes the last two axes with 'nearest' or 'bilinear' (half-pixel, no antialiasing)."""
    paddle = _paddle()
    img, _ = _as_tensor(img)
    if interpolation not in ('nearest', 'bilinear'):
        raise NotImplementedError("resize: Skiff supports 'nearest' and 'bilinear', got {!r}".format(interpolation))
    h, w = img.shape[-2], img.shape[-1]
    oh, ow = _size_hw(size, h, w)
    ys, xs = _axis_sources(h, oh, interpolation), _axis_sources(w, ow, interpolation)
    nd = img.ndim
    if interpolation == 'nearest':
        out = paddle.index_select(img, paddle.to_tensor([a for a, _, _ in ys], dtype='int64'), axis=nd - 2)
        return paddle.index_select(out, paddle.to_tensor([a for a, _, _ in xs], dtype='int64'), axis=nd - 1)
    x = img if img.dtype.kind == 'f' else img.astype('float32')

    def lerp(t, src, axis, shape):
        a = paddle.index_select(t, paddle.to_tensor([s[0] for s in src], dtype='int64'), axis=axis)
        b = paddle.index_select(t, paddle.to_tensor([s[1] for s in src], dtype='int64'), axis=axis)
        wt = paddle.to_tensor([s[2] for s in src], dtype=t.dtype).reshape(shape)
        return a + (b - a) * wt

    x = lerp(x, ys, nd - 2, [oh, 1])
    x = lerp(x, xs, nd - 1, [ow])
    return x if img.dtype.kind == 'f' else x.round().astype(img.dtype)


def crop(img, top, left, height, width):
    img, _ = _as_tensor(img)
    return img[..., top:top + height, left:left + width]


def center_crop(img, output_size):
    img, _ = _as_tensor(img)
    th, tw = (output_size, output_size) if isinstance(output_size, int) else output_size
    h, w = img.shape[-2], img.shape[-1]
    return crop(img, int(round((h - th) / 2.0)), int(round((w - tw) / 2.0)), th, tw)


def pad(img, padding, fill=0, padding_mode='constant'):
    """Pads the last two axes: padding is an int, (lr, tb) or (left, top, right, bottom)."""
    paddle = _paddle()
    img, _ = _as_tensor(img)
    if padding_mode != 'constant':
        raise NotImplementedError("pad: Skiff supports padding_mode='constant' only, got {!r}".format(padding_mode))
    if isinstance(padding, int):
        l = t = r = b = padding
    elif len(padding) == 2:
        l, t = padding
        r, b = padding
    else:
        l, t, r, b = padding
    shape = img.shape
    x4 = img.reshape([-1, 1] + shape[-2:])
    out = paddle.nn.functional.pad(x4, [l, r, t, b], mode='constant', value=float(fill))
    return out.reshape(shape[:-2] + out.shape[-2:])


def hflip(img):
    img, _ = _as_tensor(img)
    return _paddle().flip(img, [img.ndim - 1])


def vflip(img):
    img, _ = _as_tensor(img)
    return _paddle().flip(img, [img.ndim - 2])
