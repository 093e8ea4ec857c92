// N-API surface of the native runtime. JS passes only numbers, small arrays and handles;
// every entry validates its arguments before touching native memory.
#include <napi.h>
#include "kernel.h"
#include "tensor.h"
#include "threadpool.h"

namespace skiff {
namespace {

std::vector<int64_t> to_dims(const Napi::Value& v, const char* what) {
  std::vector<int64_t> out;
  if (v.IsTypedArray()) {
    auto ta = v.As<Napi::TypedArray>();
    if (ta.TypedArrayType() == napi_int32_array) {
      auto a = v.As<Napi::Int32Array>();
      for (size_t i = 0; i < a.ElementLength(); i++) out.push_back(a[i]);
      return out;
    }
    if (ta.TypedArrayType() == napi_float64_array) {
      auto a = v.As<Napi::Float64Array>();
      for (size_t i = 0; i < a.ElementLength(); i++) out.push_back((int64_t)a[i]);
      return out;
    }
  }
  if (!v.IsArray()) throw SkiffError(std::string(what) + ": expected an array of integers");
  auto a = v.As<Napi::Array>();
  uint32_t n = a.Length();
  out.reserve(n);
  for (uint32_t i = 0; i < n; i++) {
    Napi::Value e = a.Get(i);
    if (!e.IsNumber()) throw SkiffError(std::string(what) + ": element " + std::to_string(i) + " is not a number");
    double d = e.As<Napi::Number>().DoubleValue();
    if (d != (double)(int64_t)d) throw SkiffError(std::string(what) + ": element " + std::to_string(i) + " is not an integer");
    out.push_back((int64_t)d);
  }
  return out;
}

DType to_dtype(const Napi::Value& v) {
  if (!v.IsNumber()) throw SkiffError("dtype code must be a number");
  int32_t c = v.As<Napi::Number>().Int32Value();
  if (!dtype_valid(c)) throw SkiffError("invalid dtype code " + std::to_string(c));
  return (DType)c;
}

int64_t to_int(const Napi::Value& v, const char* what) {
  if (!v.IsNumber()) throw SkiffError(std::string(what) + " must be a number");
  return v.As<Napi::Number>().Int64Value();
}

Napi::Value Empty(const Napi::CallbackInfo& info) {
  auto t = make_tensor(to_dtype(info[0]), to_dims(info[1], "shape"));
  return Napi::Number::New(info.Env(), handles().add(std::move(t)));
}

// fromBytes(dtype, shape, typedArrayOrArrayBuffer): one copy of the data into native memory.
Napi::Value FromBytes(const Napi::CallbackInfo& info) {
  DType dt = to_dtype(info[0]);
  auto shape = to_dims(info[1], "shape");
  const uint8_t* src = nullptr;
  size_t len = 0;
  if (info[2].IsTypedArray()) {
    auto ta = info[2].As<Napi::TypedArray>();
    src = static_cast<const uint8_t*>(ta.ArrayBuffer().Data()) + ta.ByteOffset();
    len = ta.ByteLength();
  } else if (info[2].IsArrayBuffer()) {
    auto ab = info[2].As<Napi::ArrayBuffer>();
    src = static_cast<const uint8_t*>(ab.Data());
    len = ab.ByteLength();
  } else throw SkiffError("fromBytes: data must be a typed array or ArrayBuffer");
  auto t = make_tensor(dt, shape, "to_tensor");
  size_t need = (size_t)t->numel() * dtype_size(dt);
  if (len != need)
    throw SkiffError("to_tensor: " + std::to_string(len) + " bytes given for shape " + shape_str(shape) + " of " + dtype_name(dt) + " (needs " + std::to_string(need) + ")");
  if (need) std::memcpy(t->storage->data, src, need);
  return Napi::Number::New(info.Env(), handles().add(std::move(t)));
}

// toBytes(h): a new ArrayBuffer with the tensor's elements in row-major order.
Napi::Value ToBytes(const Napi::CallbackInfo& info) {
  auto t = contiguous(handles().get(to_int(info[0], "handle"), "toBytes"));
  size_t n = (size_t)t->numel() * t->itemsize();
  auto ab = Napi::ArrayBuffer::New(info.Env(), n);
  if (n) std::memcpy(ab.Data(), t->raw(), n);
  return ab;
}

// view(h, shape, strides, offset): a new handle sharing storage. Bounds are checked against the storage.
Napi::Value View(const Napi::CallbackInfo& info) {
  const auto& base = handles().get(to_int(info[0], "handle"), "view");
  auto shape = to_dims(info[1], "view shape");
  auto strides = to_dims(info[2], "view strides");
  int64_t offset = to_int(info[3], "view offset");
  if (shape.size() != strides.size()) throw SkiffError("view: shape " + shape_str(shape) + " and strides " + shape_str(strides) + " differ in rank");
  checked_numel(shape, "view");
  int64_t cap = (int64_t)(base->storage->bytes / base->itemsize());
  if (offset < 0) throw SkiffError("view: negative offset");
  int64_t last = offset;
  bool empty = false;
  for (size_t i = 0; i < shape.size(); i++) {
    if (strides[i] < 0) throw SkiffError("view: negative strides are not supported");
    if (shape[i] == 0) empty = true;
    else last += (shape[i] - 1) * strides[i];
  }
  if (!empty && last >= cap)
    throw SkiffError("view: shape " + shape_str(shape) + " strides " + shape_str(strides) + " offset " + std::to_string(offset) + " exceeds storage of " + std::to_string(cap) + " elements");
  auto t = std::make_shared<Tensor>();
  t->storage = base->storage; t->dtype = base->dtype; t->shape = shape; t->strides = strides; t->offset = offset;
  return Napi::Number::New(info.Env(), handles().add(std::move(t)));
}

Napi::Value Meta(const Napi::CallbackInfo& info) {
  const auto& t = handles().get(to_int(info[0], "handle"), "meta");
  auto env = info.Env();
  auto o = Napi::Object::New(env);
  o.Set("dtype", (int)t->dtype);
  auto sh = Napi::Array::New(env, t->shape.size()), st = Napi::Array::New(env, t->strides.size());
  for (size_t i = 0; i < t->shape.size(); i++) { sh.Set((uint32_t)i, (double)t->shape[i]); st.Set((uint32_t)i, (double)t->strides[i]); }
  o.Set("shape", sh); o.Set("strides", st); o.Set("offset", (double)t->offset);
  o.Set("storageElements", (double)(t->storage->bytes / t->itemsize()));
  return o;
}

Napi::Value Release(const Napi::CallbackInfo& info) {
  return Napi::Boolean::New(info.Env(), handles().release(to_int(info[0], "handle")));
}

Napi::Value ReleaseMany(const Napi::CallbackInfo& info) {
  auto hs = to_dims(info[0], "handles");
  int n = 0;
  for (auto h : hs) n += handles().release(h);
  return Napi::Number::New(info.Env(), n);
}

Napi::Value SameStorage(const Napi::CallbackInfo& info) {
  const auto& a = handles().get(to_int(info[0], "handle"), "sameStorage");
  const auto& b = handles().get(to_int(info[1], "handle"), "sameStorage");
  return Napi::Boolean::New(info.Env(), a->storage == b->storage);
}

Napi::Value KernelIdOf(const Napi::CallbackInfo& info) {
  if (!info[0].IsString()) throw SkiffError("kernelId: name must be a string");
  return Napi::Number::New(info.Env(), kernel_id(info[0].As<Napi::String>().Utf8Value()));
}

Napi::Value KernelNames(const Napi::CallbackInfo& info) {
  auto names = kernel_names();
  auto a = Napi::Array::New(info.Env(), names.size());
  for (size_t i = 0; i < names.size(); i++) a.Set((uint32_t)i, names[i]);
  return a;
}

void fill_handles(const Napi::Value& v, std::vector<std::shared_ptr<Tensor>>& dst, const char* op, const char* what) {
  if (v.IsNumber()) { dst.push_back(handles().get(v.As<Napi::Number>().Int64Value(), op)); return; }
  for (auto h : to_dims(v, what)) dst.push_back(handles().get(h, op));
}

// run(kernelId, inputs, outputs, attrs): runs one kernel on handles; outputs are preallocated.
Napi::Value Run(const Napi::CallbackInfo& info) {
  int id = (int)to_int(info[0], "kernel id");
  KernelFn fn = kernel_fn(id);
  KernelCall call;
  call.op = kernel_name(id);
  fill_handles(info[1], call.in, call.op, "inputs");
  fill_handles(info[2], call.out, call.op, "outputs");
  if (info.Length() > 3 && !info[3].IsUndefined()) {
    if (info[3].IsTypedArray() && info[3].As<Napi::TypedArray>().TypedArrayType() == napi_float64_array) {
      auto a = info[3].As<Napi::Float64Array>();
      call.attrs.assign(a.Data(), a.Data() + a.ElementLength());
    } else if (info[3].IsArray()) {
      auto a = info[3].As<Napi::Array>();
      for (uint32_t i = 0; i < a.Length(); i++) {
        Napi::Value e = a.Get(i);
        if (e.IsBoolean()) call.attrs.push_back(e.As<Napi::Boolean>().Value() ? 1 : 0);
        else if (e.IsNumber()) call.attrs.push_back(e.As<Napi::Number>().DoubleValue());
        else throw SkiffError(std::string(call.op) + ": attribute " + std::to_string(i) + " is not a number");
      }
    } else throw SkiffError(std::string(call.op) + ": attrs must be an array of numbers");
  }
  fn(call);
  return info.Env().Undefined();
}

// Shared scratch arrays for the eager hot path: JS writes handles/attrs/output specs into them
// and calls runAlloc with four small integers, so no JS arrays cross per op.
struct Scratch {
  Napi::Reference<Napi::Int32Array> iref;
  Napi::Reference<Napi::Float64Array> dref;
  int32_t* i = nullptr;
  size_t ni = 0;
  double* d = nullptr;
  size_t nd = 0;
};
Scratch& scratch() { static Scratch s; return s; }

Napi::Value SetScratch(const Napi::CallbackInfo& info) {
  if (!info[0].IsTypedArray() || info[0].As<Napi::TypedArray>().TypedArrayType() != napi_int32_array ||
      !info[1].IsTypedArray() || info[1].As<Napi::TypedArray>().TypedArrayType() != napi_float64_array)
    throw SkiffError("setScratch: expected (Int32Array, Float64Array)");
  auto& s = scratch();
  auto ia = info[0].As<Napi::Int32Array>();
  auto da = info[1].As<Napi::Float64Array>();
  s.iref = Napi::Persistent(ia);
  s.dref = Napi::Persistent(da);
  s.i = ia.Data(); s.ni = ia.ElementLength();
  s.d = da.Data(); s.nd = da.ElementLength();
  return info.Env().Undefined();
}

// runAlloc(kernelId, nIn, nOut, nAttrs): inputs are scratchI[0..nIn); attrs scratchD[0..nAttrs);
// then per output (dtype, ndim, dims...) in scratchD. Allocates outputs, runs the kernel and
// writes output handles to scratchI[nIn..nIn+nOut). On error nothing is left allocated.
Napi::Value RunAlloc(const Napi::CallbackInfo& info) {
  auto& s = scratch();
  if (!s.i) throw SkiffError("runAlloc: setScratch was not called");
  int id = (int)to_int(info[0], "kernel id");
  int64_t nin = to_int(info[1], "nIn"), nout = to_int(info[2], "nOut"), nattr = to_int(info[3], "nAttrs");
  if (nin < 0 || nout < 0 || nattr < 0 || (size_t)(nin + nout) > s.ni || (size_t)nattr > s.nd)
    throw SkiffError("runAlloc: counts exceed the scratch buffers");
  KernelFn fn = kernel_fn(id);
  KernelCall call;
  call.op = kernel_name(id);
  call.in.reserve((size_t)nin);
  for (int64_t k = 0; k < nin; k++) call.in.push_back(handles().get(s.i[k], call.op));
  call.attrs.assign(s.d, s.d + nattr);
  size_t pos = (size_t)nattr;
  call.out.reserve((size_t)nout);
  std::vector<int64_t> dims;
  for (int64_t k = 0; k < nout; k++) {
    if (pos + 2 > s.nd) throw SkiffError(std::string(call.op) + ": output spec exceeds the scratch buffer");
    int32_t code = (int32_t)s.d[pos];
    int64_t nd = (int64_t)s.d[pos + 1];
    pos += 2;
    if (!dtype_valid(code)) throw SkiffError(std::string(call.op) + ": invalid output dtype code " + std::to_string(code));
    if (nd < 0 || pos + (size_t)nd > s.nd) throw SkiffError(std::string(call.op) + ": invalid output rank");
    dims.assign(s.d + pos, s.d + pos + nd);
    pos += (size_t)nd;
    bool dynamic = false;
    for (auto d : dims) dynamic = dynamic || d < 0;
    if (dynamic) {  // a data-dependent output: the kernel allocates it (KernelCall::alloc_output)
      auto t = std::make_shared<Tensor>();
      t->dtype = (DType)code;
      t->shape = dims;
      call.out.push_back(std::move(t));
    } else call.out.push_back(make_tensor((DType)code, dims, call.op));
  }
  fn(call);
  for (int64_t k = 0; k < nout; k++)
    if (!call.out[(size_t)k]->storage) throw SkiffError(std::string(call.op) + ": kernel left data-dependent output " + std::to_string(k) + " unallocated");
  for (int64_t k = 0; k < nout; k++) s.i[nin + k] = handles().add(call.out[(size_t)k]);
  return info.Env().Undefined();
}

Napi::Value MemStatsJs(const Napi::CallbackInfo& info) {
  auto& m = mem_stats();
  auto o = Napi::Object::New(info.Env());
  o.Set("liveTensors", (double)handles().live());
  o.Set("liveStorages", (double)m.live_storages.load());
  o.Set("liveBytes", (double)m.live_bytes.load());
  o.Set("peakBytes", (double)m.peak_bytes.load());
  return o;
}

Napi::Value ResetPeak(const Napi::CallbackInfo& info) {
  auto& m = mem_stats();
  m.peak_bytes = m.live_bytes.load();
  return info.Env().Undefined();
}

Napi::Value NumThreads(const Napi::CallbackInfo& info) {
  if (info.Length() > 0 && info[0].IsNumber()) set_num_threads((int)to_int(info[0], "threads"));
  return Napi::Number::New(info.Env(), num_threads());
}

// Wraps an entry so SkiffError and std exceptions become JS Errors with their message.
template <Napi::Value (*F)(const Napi::CallbackInfo&)>
Napi::Value Guarded(const Napi::CallbackInfo& info) {
  try {
    return F(info);
  } catch (const Napi::Error&) {
    throw;
  } catch (const std::bad_alloc&) {
    throw Napi::Error::New(info.Env(), "out of memory");
  } catch (const std::exception& e) {
    throw Napi::Error::New(info.Env(), e.what());
  }
}

}  // namespace

void register_program_api(Napi::Env env, Napi::Object exports);  // native/src/program.cc

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  exports.Set("empty", Napi::Function::New<Guarded<Empty>>(env));
  exports.Set("fromBytes", Napi::Function::New<Guarded<FromBytes>>(env));
  exports.Set("toBytes", Napi::Function::New<Guarded<ToBytes>>(env));
  exports.Set("view", Napi::Function::New<Guarded<View>>(env));
  exports.Set("meta", Napi::Function::New<Guarded<Meta>>(env));
  exports.Set("release", Napi::Function::New<Guarded<Release>>(env));
  exports.Set("releaseMany", Napi::Function::New<Guarded<ReleaseMany>>(env));
  exports.Set("sameStorage", Napi::Function::New<Guarded<SameStorage>>(env));
  exports.Set("kernelId", Napi::Function::New<Guarded<KernelIdOf>>(env));
  exports.Set("kernelNames", Napi::Function::New<Guarded<KernelNames>>(env));
  exports.Set("run", Napi::Function::New<Guarded<Run>>(env));
  exports.Set("setScratch", Napi::Function::New<Guarded<SetScratch>>(env));
  exports.Set("runAlloc", Napi::Function::New<Guarded<RunAlloc>>(env));
  exports.Set("memStats", Napi::Function::New<Guarded<MemStatsJs>>(env));
  exports.Set("resetPeak", Napi::Function::New<Guarded<ResetPeak>>(env));
  exports.Set("numThreads", Napi::Function::New<Guarded<NumThreads>>(env));
  register_program_api(env, exports);
  return exports;
}

}  // namespace skiff

static Napi::Object InitSkiff(Napi::Env env, Napi::Object exports) { return skiff::Init(env, exports); }
NODE_API_MODULE(skiff_native, InitSkiff)
