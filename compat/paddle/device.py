"""paddle.device: CPU only."""
from .framework import set_device, get_device, is_compiled_with_cuda, device_count  # noqa: F401


class cuda:
    @staticmethod
    def device_count():
        return 0

    @staticmethod
    def is_available():
        return False


def get_all_device_type():
    return ['cpu']


def get_available_device():
    return ['cpu']
