"""paddle.vision.transforms: the basics, on paddle Tensors (Skiff has no PIL or cv2)."""
from .transforms import (BaseTransform, Compose, ToTensor, Normalize, Resize, RandomCrop, CenterCrop,  # noqa: F401
                         RandomHorizontalFlip, RandomVerticalFlip, Transpose)
from . import functional  # noqa: F401
from .functional import to_tensor, normalize, resize, crop, center_crop, hflip, vflip  # noqa: F401
