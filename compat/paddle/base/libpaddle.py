"""paddle.base.libpaddle: build queries of Paddle's C++ core, answered for Skiff's build.

Skiff runs on the CPU through its own native addon: no CUDA/ROCm/XPU/IPU/custom devices, no
oneDNN, no CINN, no distributed backends. Its kernels are compiled for the build machine
(-march=native) rather than for a fixed AVX level, so is_compiled_with_avx reports False.
"""


def _no(*args, **kwargs):
    return False


def is_compiled_with_custom_device(device_type):
    if not isinstance(device_type, str):
        raise TypeError('is_compiled_with_custom_device: device_type must be a str, got %s' % type(device_type).__name__)
    return False


is_compiled_with_avx = is_compiled_with_cuda = is_compiled_with_cudnn_frontend = is_compiled_with_rocm = _no
is_compiled_with_ipu = is_compiled_with_xpu = is_compiled_with_mkldnn = is_compiled_with_nccl = _no
is_compiled_with_mpi = is_compiled_with_mpi_aware = is_compiled_with_cinn = is_compiled_with_distribute = _no
is_compiled_with_brpc = is_compiled_with_dist = _no
