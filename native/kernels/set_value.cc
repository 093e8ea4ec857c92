// set_value (Paddle's set_value_with_tensor): o = x with `value`, broadcast, written into a
// strided region of it. Serves Tensor.__setitem__ and the generic inplace path (src/ops/dispatch.ts
// runOpInplace), where o is x itself and may be a strided view; it is also how that path copies a
// temporary result back into a non-contiguous x.
//
// Attrs: per dim d of x [first, step, count, decreased] (4 * rank numbers), then
// [n_none, pos...]: Paddle's none_axes, x dims before which the index had a None (newaxis).
// The assign shape is the region's non-decreased dims with a 1 inserted at each None; value
// aligns right against it (size-1 dims broadcast, extra leading size-1 dims allowed).
#include <cstring>
#include "iter.h"
#include "kernel.h"

namespace skiff {

// native/kernels/shape_copy.cc
void copy_elems(const std::vector<int64_t>& shape, char* dst, const std::vector<int64_t>& dst_strides,
                const char* src, const std::vector<int64_t>& src_strides, int64_t es);

namespace {

struct RegionDim { int64_t first, step, count; bool decreased; };

std::string region_str(const std::vector<RegionDim>& r) {
  std::vector<int64_t> s;
  for (auto& d : r) if (!d.decreased) s.push_back(d.count);
  return shape_str(s);
}

// o is x itself (the inplace call): same storage, offset, shape and strides.
bool same_view(const Tensor& a, const Tensor& b) {
  return a.storage == b.storage && a.offset == b.offset && a.shape == b.shape && a.strides == b.strides;
}

// Two dims of a view with size > 1 that land on the same element make writes through it race.
void expect_writable(const char* op, const Tensor& o) {
  for (size_t d = 0; d < o.shape.size(); d++)
    if (o.shape[d] > 1 && o.strides[d] == 0)
      throw SkiffError(std::string(op) + ": cannot write into output of shape " + shape_str(o.shape) + " with strides " + shape_str(o.strides) +
                       ": dim " + std::to_string(d) + " has stride 0 (an expanded view; several elements share memory)");
}

void k_set_value(KernelCall& c) {
  c.expect_inputs(2);
  c.expect_outputs(1);
  const Tensor& x = c.input(0);
  std::shared_ptr<Tensor> vp = c.in[1];
  Tensor& o = c.output(0);
  const size_t r = x.shape.size();
  if (vp->dtype != x.dtype)
    throw SkiffError(std::string(c.op) + ": value dtype " + dtype_name(vp->dtype) + " differs from x dtype " + dtype_name(x.dtype));
  c.expect_out_dtype(0, x.dtype);
  if (o.shape != x.shape)
    throw SkiffError(std::string(c.op) + ": output shape " + shape_str(o.shape) + " differs from x " + shape_str(x.shape));
  if (c.attrs.size() < 4 * r + 1)
    throw SkiffError(std::string(c.op) + ": expected at least " + std::to_string(4 * r + 1) + " attributes for x " + shape_str(x.shape) + ", got " + std::to_string(c.attrs.size()));

  std::vector<RegionDim> reg(r);
  for (size_t d = 0; d < r; d++) {
    RegionDim& g = reg[d];
    g.first = c.iattr(4 * d); g.step = c.iattr(4 * d + 1); g.count = c.iattr(4 * d + 2);
    int64_t dec = c.iattr(4 * d + 3);
    const std::string where = " on axis " + std::to_string(d) + " of x " + shape_str(x.shape);
    if (g.step == 0) throw SkiffError(std::string(c.op) + ": step must not be 0" + where);
    if (g.count < 0) throw SkiffError(std::string(c.op) + ": negative count " + std::to_string(g.count) + where);
    if (dec != 0 && dec != 1) throw SkiffError(std::string(c.op) + ": decreased flag must be 0 or 1" + where);
    g.decreased = dec == 1;
    if (g.decreased && g.count != 1) throw SkiffError(std::string(c.op) + ": a decreased axis must select one element, got " + std::to_string(g.count) + where);
    if (g.count > 0) {
      int64_t last = g.first + (g.count - 1) * g.step;
      if (g.first < 0 || g.first >= x.shape[d] || last < 0 || last >= x.shape[d])
        throw SkiffError(std::string(c.op) + ": indices " + std::to_string(g.first) + ".." + std::to_string(last) + " are out of range" + where);
    }
  }
  const size_t n_none_pos = 4 * r;
  const int64_t n_none = c.iattr(n_none_pos);
  if (n_none < 0 || c.attrs.size() != 4 * r + 1 + (size_t)n_none)
    throw SkiffError(std::string(c.op) + ": bad none_axes count " + std::to_string(n_none) + " for " + std::to_string(c.attrs.size()) + " attributes");
  std::vector<int64_t> none_at;
  for (int64_t k = 0; k < n_none; k++) {
    int64_t p = c.iattr(n_none_pos + 1 + (size_t)k);
    if (p < 0 || p > (int64_t)r || (k > 0 && p < none_at.back()))
      throw SkiffError(std::string(c.op) + ": none_axes must be sorted positions in [0, " + std::to_string(r) + "], got " + std::to_string(p));
    none_at.push_back(p);
  }
  // Assign dims: x dim index, or -1 for a None.
  std::vector<int64_t> assign;
  size_t ni = 0;
  for (size_t d = 0; d <= r; d++) {
    while (ni < none_at.size() && none_at[ni] == (int64_t)d) { assign.push_back(-1); ni++; }
    if (d < r && !reg[d].decreased) assign.push_back((int64_t)d);
  }
  // Value strides on every dim of x's region (0 where value broadcasts or the dim is decreased).
  const Tensor& v = *vp;
  std::vector<int64_t> vstr(r, 0);
  auto bad_value = [&]() {
    std::vector<int64_t> as;
    for (auto a : assign) as.push_back(a < 0 ? 1 : reg[(size_t)a].count);
    return SkiffError(std::string(c.op) + ": value of shape " + shape_str(v.shape) + " cannot be broadcast to the assigned region " + shape_str(as) +
                      " of x " + shape_str(x.shape));
  };
  const int64_t vr = v.ndim(), ar = (int64_t)assign.size();
  for (int64_t k = 0; k < vr; k++) {
    int64_t j = ar - vr + k;  // assign position of value dim k
    int64_t vd = v.shape[(size_t)k];
    if (j < 0) { if (vd != 1) throw bad_value(); continue; }
    int64_t a = assign[(size_t)j];
    if (a < 0) { if (vd != 1) throw bad_value(); continue; }
    int64_t cnt = reg[(size_t)a].count;
    if (vd == cnt) vstr[(size_t)a] = cnt == 1 ? 0 : v.strides[(size_t)k];
    else if (vd != 1) throw bad_value();
  }
  expect_writable(c.op, o);

  // All checks done; now memory. A value sharing o's storage is read before anything is written.
  if (v.storage == o.storage && v.numel() > 0) {
    auto copy = make_tensor(v.dtype, v.shape, c.op);
    strided_copy(v, *copy);
    vp = copy;
    for (int64_t k = 0; k < vr; k++) {
      int64_t j = ar - vr + k;
      if (j >= 0 && assign[(size_t)j] >= 0 && vstr[(size_t)assign[(size_t)j]] != 0) vstr[(size_t)assign[(size_t)j]] = copy->strides[(size_t)k];
    }
  }
  if (!same_view(x, o)) {
    if (x.storage == o.storage)
      throw SkiffError(std::string(c.op) + ": output shares x's storage but is a different view (x " + shape_str(x.shape) + " strides " + shape_str(x.strides) +
                       ", output strides " + shape_str(o.strides) + ")");
    strided_copy(x, o);
  }
  std::vector<int64_t> shape(r), dst(r);
  int64_t es = (int64_t)x.itemsize();
  char* base = (char*)o.raw();
  bool empty = false;
  for (size_t d = 0; d < r; d++) {
    shape[d] = reg[d].count;
    if (reg[d].count == 0) empty = true;
    else base += reg[d].first * o.strides[d] * es;
    dst[d] = reg[d].step * o.strides[d];
  }
  if (empty) return;
  copy_elems(shape, base, dst, (const char*)vp->raw(), vstr, es);
}

}  // namespace

SKIFF_KERNEL("set_value_with_tensor", k_set_value);

}  // namespace skiff
