// Advanced-indexing kernels (src/ops/defs/index_adv.ts):
//   gather_nd(x, index)                       out[b, ...] = x[index[b, 0], ..., index[b, k-1], ...]
//   index_put(x, indices..., value) [accumulate]  out = x; out[i0, i1, ...] = (or +=) value
//   masked_select(x, mask)                    out = x[mask] (x and mask broadcast), data-dependent length
//   masked_scatter(x, mask, value)            out = x; the k-th true position of mask takes value.flat[k]
//   nonzero(x)                                int64 [n, rank] coordinates of non-zero elements
// Indices are int32/int64 (index_put also takes bool masks, expanded to their true coordinates);
// negative ones wrap once, as in Paddle, and every index is validated before the output is
// touched. masked_select and nonzero have data-dependent output shapes: they count first
// (per-chunk counts in parallel, then a prefix sum) and then allocate with c.alloc_output.
#include <cstring>
#include <type_traits>
#include "iter.h"
#include "kernel.h"

namespace skiff {
namespace {

std::string op_of(const KernelCall& c) { return std::string(c.op); }


// Wraps negative indices; throws naming the position, axis and size for anything out of range.
void wrap_check(const KernelCall& c, int64_t& v, int64_t dim, int64_t axis, const std::vector<int64_t>& xshape, const char* what) {
  if (v < -dim || v >= dim)
    throw SkiffError(op_of(c) + ": " + what + " value " + std::to_string(v) + " is out of range for axis " + std::to_string(axis) +
                     " with size " + std::to_string(dim) + " of x " + shape_str(xshape));
  if (v < 0) v += dim;
}

// Calls fn(flat, offA, offB) for flat positions [b, e) of `shape`, with element offsets into
// two operands of the given (possibly 0 = broadcast) strides: an odometer, no division per step.
template <typename F>
void walk2(const std::vector<int64_t>& shape, const std::vector<int64_t>& sa, const std::vector<int64_t>& sb, int64_t b, int64_t e, F&& fn) {
  const int nd = (int)shape.size();
  std::vector<int64_t> idx((size_t)nd, 0);
  int64_t oa = 0, ob = 0, rem = b;
  for (int d = nd - 1; d >= 0; d--) {
    idx[d] = rem % shape[d];
    rem /= shape[d];
    oa += idx[d] * sa[d];
    ob += idx[d] * sb[d];
  }
  for (int64_t t = b; t < e; t++) {
    fn(t, oa, ob);
    for (int d = nd - 1; d >= 0; d--) {
      if (++idx[d] < shape[d]) { oa += sa[d]; ob += sb[d]; break; }
      oa -= sa[d] * (shape[d] - 1);
      ob -= sb[d] * (shape[d] - 1);
      idx[d] = 0;
    }
  }
}

int64_t shape_numel(const std::vector<int64_t>& s) { int64_t n = 1; for (auto d : s) n *= d; return n; }

// Splits [0, total) into chunks for count-then-write passes; chunk c covers [c*len, min(total, (c+1)*len)).
struct Chunks {
  int64_t n, len;
  explicit Chunks(int64_t total) {
    int64_t want = total < 65536 ? 1 : std::min<int64_t>(total / 32768, 4 * (int64_t)num_threads());
    n = std::max<int64_t>(1, want);
    len = (total + n - 1) / n;
    if (len == 0) len = 1;
  }
};

// Truth of a mask element of any dtype at element offset `off` (bool masks in practice).
inline bool truth(const char* base, int64_t off) { return base[off] != 0; }

// ---- gather_nd ---------------------------------------------------------------------------------

void k_gather_nd(KernelCall& c) {
  c.expect_inputs(2);
  c.expect_outputs(1);
  Tensor &x = c.input(0), &index = c.input(1);
  c.expect_out_dtype(0, x.dtype);
  if (index.shape.empty()) throw SkiffError("gather_nd: index must have at least one dim, got a 0-D tensor");
  const int64_t k = index.shape.back(), rank = x.ndim();
  if (k > rank) throw SkiffError("gather_nd: index " + shape_str(index.shape) + " has a last dim of " + std::to_string(k) + ", more than x " + shape_str(x.shape) + " has dims");
  std::vector<int64_t> expect(index.shape.begin(), index.shape.end() - 1);
  expect.insert(expect.end(), x.shape.begin() + k, x.shape.end());
  c.expect_out_shape(0, expect);
  auto idx = c.int64_values(1, "index");
  const int64_t rows = k == 0 ? 0 : (int64_t)idx.size() / k;
  for (int64_t r = 0; r < rows; r++)
    for (int64_t j = 0; j < k; j++) wrap_check(c, idx[r * k + j], x.shape[j], j, x.shape, "index");
  Tensor& out = c.output(0);
  if (out.numel() == 0) return;
  const Tensor& xd = c.dense(0);
  int64_t inner = 1;
  for (int64_t d = k; d < rank; d++) inner *= x.shape[d];
  std::vector<int64_t> xs = contiguous_strides(x.shape);
  const int64_t n = shape_numel(std::vector<int64_t>(index.shape.begin(), index.shape.end() - 1));
  const size_t row = (size_t)(inner * (int64_t)x.itemsize());
  const char* src = (const char*)xd.raw();
  char* dst = (char*)out.raw();
  parallel_for(n, std::max<int64_t>(1, 16384 / std::max<int64_t>(1, inner)), [&](int64_t b, int64_t e) {
    for (int64_t r = b; r < e; r++) {
      int64_t off = 0;
      for (int64_t j = 0; j < k; j++) off += idx[r * k + j] * xs[j];
      std::memcpy(dst + (size_t)r * row, src + (size_t)off * x.itemsize(), row);
    }
  });
}

// ---- index_put ---------------------------------------------------------------------------------

void k_index_put(KernelCall& c) {
  c.expect_outputs(1);
  if (c.in.size() < 3) throw SkiffError("index_put: expected x, at least one index tensor and value, got " + std::to_string(c.in.size()) + " inputs");
  const size_t m = c.in.size() - 2;
  Tensor& x = c.input(0);
  Tensor& value = c.input(m + 1);
  const bool accumulate = c.iattr(0) != 0;
  c.expect_out_dtype(0, x.dtype);
  c.expect_out_shape(0, x.shape);
  if (value.dtype != x.dtype) throw SkiffError(std::string("index_put: value dtype ") + dtype_name(value.dtype) + " differs from x dtype " + dtype_name(x.dtype));
  if (accumulate && x.dtype == DType::Bool) throw SkiffError("index_put: accumulate=True is not supported for bool x");
  // Expand bool masks to one int index per dim they cover (their true coordinates).
  std::vector<std::vector<int64_t>> ids;
  std::vector<std::vector<int64_t>> shapes;
  int64_t d = 0;
  for (size_t i = 1; i <= m; i++) {
    Tensor& t = c.input(i);
    if (t.dtype == DType::Bool) {
      const int64_t r = t.ndim();
      if (d + r > x.ndim()) throw SkiffError("index_put: too many indices for x " + shape_str(x.shape) + " (bool index " + shape_str(t.shape) + " at axis " + std::to_string(d) + ")");
      for (int64_t j = 0; j < r; j++)
        if (t.shape[j] != x.shape[d + j])
          throw SkiffError("index_put: bool index " + shape_str(t.shape) + " does not match x " + shape_str(x.shape) + " at axis " + std::to_string(d + j));
      const Tensor& td = c.dense(i);
      const char* p = (const char*)td.raw();
      const int64_t n = td.numel();
      int64_t cnt = 0;
      for (int64_t q = 0; q < n; q++) cnt += p[q] != 0;
      std::vector<std::vector<int64_t>> cols((size_t)std::max<int64_t>(r, 1), std::vector<int64_t>((size_t)cnt));
      auto st = contiguous_strides(t.shape);
      int64_t w = 0;
      for (int64_t q = 0; q < n; q++) {
        if (!p[q]) continue;
        int64_t rem = q;
        for (int64_t j = 0; j < r; j++) { cols[j][w] = rem / st[j]; rem %= st[j]; }
        w++;
      }
      if (r == 0) {  // a 0-D bool: numpy adds a dim of 1 (true) or 0 (false); nothing is indexed
        throw SkiffError("index_put: a 0-D bool index is not supported");
      }
      for (int64_t j = 0; j < r; j++) { ids.push_back(std::move(cols[j])); shapes.push_back({cnt}); }
      d += r;
    } else {
      if (d >= x.ndim()) throw SkiffError("index_put: too many indices for x " + shape_str(x.shape) + ": " + std::to_string(m) + " index tensors");
      ids.push_back(c.int64_values(i, "indices"));
      shapes.push_back(t.shape);
      d += 1;
    }
  }
  const int64_t k = d;
  std::vector<int64_t> bshape;
  for (auto& s : shapes) bshape = broadcast_shapes(bshape, s, "index_put: indices");
  std::vector<int64_t> region = bshape;
  region.insert(region.end(), x.shape.begin() + k, x.shape.end());
  // value broadcasts to the indexed region.
  if (value.ndim() > (int64_t)region.size()) throw SkiffError("index_put: value " + shape_str(value.shape) + " cannot be broadcast to the indexed shape " + shape_str(region));
  auto vstr = broadcast_strides(value, region, "index_put: value");
  for (size_t j = 0; j < ids.size(); j++)
    for (auto& v : ids[j]) wrap_check(c, v, x.shape[j], (int64_t)j, x.shape, "indices");
  Tensor& out = c.output(0);
  if (out.numel() == 0) return;
  const Tensor& xd = c.dense(0);
  if (out.raw() != xd.raw()) std::memcpy(out.raw(), xd.raw(), (size_t)out.numel() * x.itemsize());  // inplace: out is x
  const int64_t N = shape_numel(bshape);
  int64_t S = 1;
  for (int64_t q = k; q < x.ndim(); q++) S *= x.shape[q];
  if (N == 0 || S == 0) return;
  // Destination row of each index position (indices broadcast to bshape by stride 0).
  auto xs = contiguous_strides(x.shape);
  std::vector<std::vector<int64_t>> istr(ids.size());
  for (size_t j = 0; j < ids.size(); j++) {
    Tensor meta;
    meta.shape = shapes[j];
    meta.strides = contiguous_strides(shapes[j]);
    istr[j] = broadcast_strides(meta, bshape, "index_put: indices");
  }
  std::vector<int64_t> dest((size_t)N);
  std::vector<int64_t> zero(bshape.size(), 0);
  parallel_for(N, 4096, [&](int64_t b, int64_t e) {
    for (size_t j = 0; j < ids.size(); j++) {
      const int64_t* iv = ids[j].data();
      const int64_t sx = xs[j];
      walk2(bshape, istr[j], zero, b, e, [&](int64_t t, int64_t oi, int64_t) { dest[t] = (j ? dest[t] : 0) + iv[oi] * sx; });
    }
  });
  // value element of (index position t, inner element i): split vstr into the bshape part and the inner part.
  std::vector<int64_t> vb(vstr.begin(), vstr.begin() + (int64_t)bshape.size());
  std::vector<int64_t> vi(vstr.begin() + (int64_t)bshape.size(), vstr.end());
  std::vector<int64_t> voff((size_t)N);
  parallel_for(N, 4096, [&](int64_t b, int64_t e) { walk2(bshape, vb, zero, b, e, [&](int64_t t, int64_t o, int64_t) { voff[t] = o; }); });
  std::vector<int64_t> inner(x.shape.begin() + k, x.shape.end()), izero(inner.size(), 0);
  bool inner_dense = true;  // value rows contiguous along the inner dims (the common case)
  {
    int64_t ex = 1;
    for (int64_t q = (int64_t)inner.size() - 1; q >= 0; q--) { if (inner[q] != 1 && vi[q] != ex) inner_dense = false; ex *= inner[q]; }
  }
  // Threads own disjoint ranges of output rows and each walks every index position in order, so
  // duplicates resolve as a serial loop would (last write wins, sums in order) without atomics.
  const int64_t parts = N * S >= 32768 ? std::max<int64_t>(1, std::min<int64_t>(num_threads(), shape_numel(x.shape) / std::max<int64_t>(1, S))) : 1;
  const int64_t rows = shape_numel(x.shape) / S;
  const int64_t per = (rows + parts - 1) / parts;
  const Tensor& vd = value;  // read through its strides (vstr), never densified
  dispatch_all(x.dtype, "index_put", [&](auto tag) {
    using T = decltype(tag);
    using C = Compute<T>;
    T* o = out.data<T>();
    const T* v = vd.data<T>();
    parallel_for(parts, 1, [&](int64_t pb, int64_t pe) {
      for (int64_t p = pb; p < pe; p++) {
        const int64_t lo = p * per * S, hi = std::min(rows, (p + 1) * per) * S;
        for (int64_t t = 0; t < N; t++) {
          const int64_t base = dest[t];
          if (base < lo || base >= hi) continue;
          T* row = o + base;
          const T* vr = v + voff[t];
          if (inner_dense) {
            if (accumulate) { if constexpr (!std::is_same_v<T, bool>) for (int64_t i = 0; i < S; i++) row[i] = C::store(C::load(row[i]) + C::load(vr[i])); }
            else for (int64_t i = 0; i < S; i++) row[i] = vr[i];
          } else {
            walk2(inner, vi, izero, 0, S, [&](int64_t i, int64_t ov, int64_t) {
              if constexpr (!std::is_same_v<T, bool>) { if (accumulate) { row[i] = C::store(C::load(row[i]) + C::load(vr[ov])); return; } }
              row[i] = vr[ov];
            });
          }
        }
      }
    });
  });
}

// Prefix counts of true mask elements per chunk: start[q] is where chunk q's selected elements
// begin in the packed order (start[ch.n] = the total). masked_select and masked_scatter both
// need it so that chunks can then write (or read) their packed elements in parallel.
std::vector<int64_t> mask_chunk_starts(const std::vector<int64_t>& shape, const std::vector<int64_t>& sm, const char* mb, const Chunks& ch,
                                       int64_t total) {
  std::vector<int64_t> start((size_t)ch.n + 1, 0);
  parallel_for(ch.n, 1, [&](int64_t b, int64_t e) {
    for (int64_t q = b; q < e; q++) {
      int64_t cnt = 0;
      walk2(shape, sm, sm, q * ch.len, std::min(total, (q + 1) * ch.len), [&](int64_t, int64_t om, int64_t) { cnt += truth(mb, om); });
      start[q + 1] = cnt;
    }
  });
  for (int64_t q = 0; q < ch.n; q++) start[q + 1] += start[q];
  return start;
}

// ---- masked_select -----------------------------------------------------------------------------

void k_masked_select(KernelCall& c) {
  c.expect_inputs(2);
  c.expect_outputs(1);
  Tensor &x = c.input(0), &mask = c.input(1);
  if (mask.dtype != DType::Bool) throw SkiffError(std::string("masked_select: mask must be bool, got ") + dtype_name(mask.dtype));
  auto shape = broadcast_shapes(x.shape, mask.shape, "masked_select");
  auto sx = broadcast_strides(x, shape, "masked_select"), sm = broadcast_strides(mask, shape, "masked_select");
  const int64_t total = shape_numel(shape);
  const char* mb = (const char*)mask.storage->data + mask.offset;
  Chunks ch(total);
  const std::vector<int64_t> start = mask_chunk_starts(shape, sm, mb, ch, total);
  Tensor& out = c.alloc_output(0, {start[ch.n]});
  if (out.numel() == 0) return;
  const size_t es = x.itemsize();
  const char* xb = (const char*)x.storage->data + x.offset * (int64_t)es;
  char* ob = (char*)out.raw();
  parallel_for(ch.n, 1, [&](int64_t b, int64_t e) {
    for (int64_t q = b; q < e; q++) {
      int64_t w = start[q];
      walk2(shape, sx, sm, q * ch.len, std::min(total, (q + 1) * ch.len), [&](int64_t, int64_t ox, int64_t om) {
        if (truth(mb, om)) std::memcpy(ob + (size_t)(w++) * es, xb + ox * (int64_t)es, es);
      });
    }
  });
}

// ---- masked_scatter ----------------------------------------------------------------------------

void k_masked_scatter(KernelCall& c) {
  c.expect_inputs(3);
  c.expect_outputs(1);
  Tensor &x = c.input(0), &mask = c.input(1), &value = c.input(2);
  if (mask.dtype != DType::Bool) throw SkiffError(std::string("masked_scatter: mask must be bool, got ") + dtype_name(mask.dtype));
  if (value.dtype != x.dtype) throw SkiffError(std::string("masked_scatter: value dtype ") + dtype_name(value.dtype) + " differs from x dtype " + dtype_name(x.dtype));
  c.expect_out_dtype(0, x.dtype);
  c.expect_out_shape(0, x.shape);
  auto sm = broadcast_strides(mask, x.shape, "masked_scatter: mask");
  std::vector<int64_t> sx = contiguous_strides(x.shape);
  const int64_t total = x.numel();
  const char* mb = (const char*)mask.storage->data + mask.offset;
  Chunks ch(total);
  const std::vector<int64_t> start = mask_chunk_starts(x.shape, sm, mb, ch, total);
  if (start[ch.n] > value.numel())
    throw SkiffError("masked_scatter: mask has " + std::to_string(start[ch.n]) + " true elements but value " + shape_str(value.shape) + " has only " +
                     std::to_string(value.numel()));
  Tensor& out = c.output(0);
  if (total == 0) return;
  const size_t es = x.itemsize();
  if (out.raw() != c.dense(0).raw()) std::memcpy(out.raw(), c.dense(0).raw(), (size_t)total * es);  // inplace: out is x
  if (start[ch.n] == 0) return;
  const char* vb = (const char*)c.dense(2).raw();
  char* ob = (char*)out.raw();
  parallel_for(ch.n, 1, [&](int64_t b, int64_t e) {
    for (int64_t q = b; q < e; q++) {
      int64_t w = start[q];
      walk2(x.shape, sx, sm, q * ch.len, std::min(total, (q + 1) * ch.len), [&](int64_t, int64_t ox, int64_t om) {
        if (truth(mb, om)) std::memcpy(ob + ox * (int64_t)es, vb + (size_t)(w++) * es, es);
      });
    }
  });
}

// ---- nonzero -----------------------------------------------------------------------------------

void k_nonzero(KernelCall& c) {
  c.expect_inputs(1);
  c.expect_outputs(1);
  Tensor& x = c.input(0);
  const int64_t total = x.numel(), rank = x.ndim();
  const Tensor& xd = c.dense(0);
  // One byte per element: is it non-zero (NaN counts, -0.0 does not), computed once for both passes.
  std::vector<uint8_t> nz((size_t)total);
  dispatch_all(x.dtype, "nonzero", [&](auto tag) {
    using T = decltype(tag);
    using C = Compute<T>;
    const T* p = xd.data<T>();
    parallel_for(total, 32768, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; i++) nz[i] = C::load(p[i]) != compute_t<T>(0);
    });
  });
  Chunks ch(total);
  std::vector<int64_t> start((size_t)ch.n + 1, 0);
  parallel_for(ch.n, 1, [&](int64_t b, int64_t e) {
    for (int64_t q = b; q < e; q++) {
      int64_t cnt = 0;
      for (int64_t i = q * ch.len, hi = std::min(total, (q + 1) * ch.len); i < hi; i++) cnt += nz[i];
      start[q + 1] = cnt;
    }
  });
  for (int64_t q = 0; q < ch.n; q++) start[q + 1] += start[q];
  Tensor& out = c.alloc_output(0, {start[ch.n], rank});
  if (out.numel() == 0) return;
  int64_t* o = out.data<int64_t>();
  parallel_for(ch.n, 1, [&](int64_t b, int64_t e) {
    std::vector<int64_t> idx((size_t)rank);
    for (int64_t q = b; q < e; q++) {
      int64_t w = start[q];
      const int64_t lo = q * ch.len, hi = std::min(total, (q + 1) * ch.len);
      int64_t rem = lo;
      for (int64_t d = rank - 1; d >= 0; d--) { idx[d] = rem % x.shape[d]; rem /= x.shape[d]; }
      for (int64_t i = lo; i < hi; i++) {
        if (nz[i]) { for (int64_t d = 0; d < rank; d++) o[w * rank + d] = idx[d]; w++; }
        for (int64_t d = rank - 1; d >= 0; d--) { if (++idx[d] < x.shape[d]) break; idx[d] = 0; }
      }
    }
  });
}

}  // namespace

SKIFF_KERNEL("gather_nd", k_gather_nd);
SKIFF_KERNEL("index_put", k_index_put);
SKIFF_KERNEL("masked_select", k_masked_select);
SKIFF_KERNEL("masked_scatter", k_masked_scatter);
SKIFF_KERNEL("nonzero", k_nonzero);

}  // namespace skiff
