// Storages whose bytes are not cleared: for buffers every byte of which is written before it is
// read (the static runner's plan buffers under kernels that overwrite their whole output).
// Kept out of tensor.h on purpose: that header is included by every kernel file.
#pragma once
#include <memory>
#include "tensor.h"

namespace skiff {

// Like std::make_shared<Storage>(nbytes) but the contents are unspecified (a recycled mapping
// keeps its old bytes; a fresh mapping is zero, as mmap gives it).
std::shared_ptr<Storage> make_storage_uninit(size_t nbytes);

}  // namespace skiff
