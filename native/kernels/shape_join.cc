// Joining and splitting along one axis (attrs [axis] for all four). Each piece is one strided
// copy between the piece and the matching window of the big tensor, so views are read in place.
//   concat(x0..xn) -> out     stack(x0..xn) -> out     split(x) -> out0..outn     unbind(x) -> out0..outn
#include "kernel.h"

namespace skiff {

void copy_elems(const std::vector<int64_t>& shape, char* dst, const std::vector<int64_t>& dst_strides,
                const char* src, const std::vector<int64_t>& src_strides, int64_t es);  // shape_copy.cc

namespace {

int64_t axis_attr(KernelCall& c, size_t rank) {
  int64_t axis = c.iattr(0);
  if (axis < 0 || axis >= (int64_t)rank) throw SkiffError(std::string(c.op) + ": axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  return axis;
}

template <typename V>
V without(const V& v, int64_t axis) { V out(v); out.erase(out.begin() + axis); return out; }

void expect_dtypes(KernelCall& c, const std::vector<std::shared_ptr<Tensor>>& ts, DType dt) {
  for (auto& t : ts)
    if (t->dtype != dt) throw SkiffError(std::string(c.op) + ": all tensors must have the same dtype, got " + dtype_name(dt) + " and " + dtype_name(t->dtype));
}

void k_concat(KernelCall& c) {
  c.expect_outputs(1);
  if (c.in.empty()) throw SkiffError("concat: no inputs");
  Tensor& o = c.output(0);
  expect_dtypes(c, c.in, o.dtype);
  size_t rank = o.shape.size();
  int64_t axis = axis_attr(c, rank);
  int64_t total = 0;
  for (auto& t : c.in) {
    if (t->shape.size() != rank || without(t->shape, axis) != without(o.shape, axis))
      throw SkiffError("concat: input " + shape_str(t->shape) + " does not match output " + shape_str(o.shape) + " outside axis " + std::to_string(axis));
    total += t->shape[axis];
  }
  auto expect = o.shape;
  expect[axis] = total;
  c.expect_out_shape(0, expect);
  int64_t es = (int64_t)o.itemsize(), at = 0;
  for (auto& t : c.in) {
    copy_elems(t->shape, (char*)o.raw() + at * o.strides[axis] * es, o.strides, (const char*)t->raw(), t->strides, es);
    at += t->shape[axis];
  }
}

void k_stack(KernelCall& c) {
  c.expect_outputs(1);
  if (c.in.empty()) throw SkiffError("stack: no inputs");
  Tensor& o = c.output(0);
  expect_dtypes(c, c.in, o.dtype);
  int64_t axis = axis_attr(c, o.shape.size());
  auto expect = c.in[0]->shape;
  expect.insert(expect.begin() + axis, (int64_t)c.in.size());
  c.expect_out_shape(0, expect);
  auto dst_strides = without(o.strides, axis);
  int64_t es = (int64_t)o.itemsize();
  for (size_t k = 0; k < c.in.size(); k++) {
    auto& t = c.in[k];
    if (t->shape != c.in[0]->shape) throw SkiffError("stack: all inputs must have the same shape, got " + shape_str(c.in[0]->shape) + " and " + shape_str(t->shape));
    copy_elems(t->shape, (char*)o.raw() + (int64_t)k * o.strides[axis] * es, dst_strides, (const char*)t->raw(), t->strides, es);
  }
}

void k_split(KernelCall& c) {
  c.expect_inputs(1);
  Tensor& x = c.input(0);
  expect_dtypes(c, c.out, x.dtype);
  int64_t axis = axis_attr(c, x.shape.size());
  int64_t total = 0;
  for (size_t k = 0; k < c.out.size(); k++) {
    auto& t = c.out[k];
    if (t->shape.size() != x.shape.size() || without(t->shape, axis) != without(x.shape, axis))
      throw SkiffError("split: output " + shape_str(t->shape) + " does not match x " + shape_str(x.shape) + " outside axis " + std::to_string(axis));
    c.expect_out_shape(k, t->shape);
    total += t->shape[axis];
  }
  if (total != x.shape[axis]) throw SkiffError("split: outputs cover " + std::to_string(total) + " of the " + std::to_string(x.shape[axis]) + " entries of axis " + std::to_string(axis));
  int64_t es = (int64_t)x.itemsize(), at = 0;
  for (auto& t : c.out) {
    if (t->numel() > 0) copy_elems(t->shape, (char*)t->raw(), t->strides, (const char*)x.raw() + at * x.strides[axis] * es, x.strides, es);
    at += t->shape[axis];
  }
}

void k_unbind(KernelCall& c) {
  c.expect_inputs(1);
  Tensor& x = c.input(0);
  expect_dtypes(c, c.out, x.dtype);
  int64_t axis = axis_attr(c, x.shape.size());
  if ((int64_t)c.out.size() != x.shape[axis])
    throw SkiffError("unbind: " + std::to_string(c.out.size()) + " outputs for axis " + std::to_string(axis) + " of x " + shape_str(x.shape));
  auto shape = without(x.shape, axis), src_strides = without(x.strides, axis);
  int64_t es = (int64_t)x.itemsize();
  for (size_t k = 0; k < c.out.size(); k++) {
    c.expect_out_shape(k, shape);
    copy_elems(shape, (char*)c.out[k]->raw(), c.out[k]->strides, (const char*)x.raw() + (int64_t)k * x.strides[axis] * es, src_strides, es);
  }
}

}  // namespace

SKIFF_KERNEL("concat", k_concat);
SKIFF_KERNEL("stack", k_stack);
SKIFF_KERNEL("split", k_split);
SKIFF_KERNEL("unbind", k_unbind);

}  // namespace skiff
