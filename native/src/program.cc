// N-API surface of the static program runner and the one-time validation of a lowered program.
// programCreate checks the whole plan by simulating it (every slot defined once before it is
// read and never read after it is dropped, a buffer rewritten only when nothing live still uses
// it, inputs never written, parameters written only when declared mutable), so a planner bug is
// an error at creation, never a silent wrong answer or a crash during a run.
#include <napi.h>
#include <algorithm>
#include <cstdlib>
#include <unordered_map>
#include <unordered_set>
#include "program_format.h"

namespace skiff {
namespace {

std::unordered_map<int32_t, std::shared_ptr<Program>>& programs() { static std::unordered_map<int32_t, std::shared_ptr<Program>> m; return m; }
std::unordered_map<int32_t, std::unique_ptr<RunState>>& suspended() { static std::unordered_map<int32_t, std::unique_ptr<RunState>> m; return m; }
int32_t next_program = 1, next_state = 1;

// ---- reading the wire format ----

std::vector<int32_t> i32_field(const Napi::Object& d, const char* key) {
  Napi::Value v = d.Get(key);
  if (!v.IsTypedArray() || v.As<Napi::TypedArray>().TypedArrayType() != napi_int32_array)
    throw SkiffError(std::string("programCreate: '") + key + "' must be an Int32Array");
  auto a = v.As<Napi::Int32Array>();
  return std::vector<int32_t>(a.Data(), a.Data() + a.ElementLength());
}
std::vector<double> f64_field(const Napi::Object& d, const char* key) {
  Napi::Value v = d.Get(key);
  if (!v.IsTypedArray() || v.As<Napi::TypedArray>().TypedArrayType() != napi_float64_array)
    throw SkiffError(std::string("programCreate: '") + key + "' must be a Float64Array");
  auto a = v.As<Napi::Float64Array>();
  return std::vector<double>(a.Data(), a.Data() + a.ElementLength());
}
std::vector<std::string> str_field(const Napi::Object& d, const char* key) {
  Napi::Value v = d.Get(key);
  if (!v.IsArray()) throw SkiffError(std::string("programCreate: '") + key + "' must be an array of strings");
  auto a = v.As<Napi::Array>();
  std::vector<std::string> out(a.Length());
  for (uint32_t i = 0; i < a.Length(); i++) {
    Napi::Value e = a.Get(i);
    if (!e.IsString()) throw SkiffError(std::string("programCreate: '") + key + "' element " + std::to_string(i) + " is not a string");
    out[i] = e.As<Napi::String>().Utf8Value();
  }
  return out;
}
int32_t int_field(const Napi::Object& d, const char* key) {
  Napi::Value v = d.Get(key);
  if (!v.IsNumber()) throw SkiffError(std::string("programCreate: '") + key + "' must be a number");
  double x = v.As<Napi::Number>().DoubleValue();
  if (x != (double)(int32_t)x || x < 0) throw SkiffError(std::string("programCreate: '") + key + "' must be a non-negative integer");
  return (int32_t)x;
}
int64_t as_int(double x, const char* what) {
  if (!(x == x) || x != (double)(int64_t)x) throw SkiffError(std::string("programCreate: ") + what + " " + std::to_string(x) + " is not an integer");
  return (int64_t)x;
}
std::vector<int64_t> slice_ints(const std::vector<double>& v, int64_t start, int64_t n, const char* what) {
  if (start < 0 || n < 0 || start + n > (int64_t)v.size()) throw SkiffError(std::string("programCreate: ") + what + " range out of bounds");
  std::vector<int64_t> out((size_t)n);
  for (int64_t i = 0; i < n; i++) out[(size_t)i] = as_int(v[(size_t)(start + i)], what);
  return out;
}
std::vector<int32_t> slice_args(const std::vector<int32_t>& args, int32_t start, int32_t n, const std::string& what) {
  if (start < 0 || n < 0 || (int64_t)start + n > (int64_t)args.size()) throw SkiffError(what + ": argument range out of bounds");
  return std::vector<int32_t>(args.begin() + start, args.begin() + start + n);
}

// ---- decoding ----

void decode_slots(Program& p, const Napi::Object& d, int32_t n_inputs, int32_t n_params) {
  auto raw = i32_field(d, "slots");
  auto dims = f64_field(d, "dims");
  auto labels = str_field(d, "labels");
  if (raw.size() % 7) throw SkiffError("programCreate: 'slots' length is not a multiple of 7");
  size_t n = raw.size() / 7;
  if (labels.size() != n) throw SkiffError("programCreate: " + std::to_string(labels.size()) + " labels for " + std::to_string(n) + " slots");
  p.slots.resize(n);
  p.input_slot.assign((size_t)n_inputs, -1);
  p.param_slot.assign((size_t)n_params, -1);
  for (size_t i = 0; i < n; i++) {
    const int32_t* r = &raw[i * 7];
    SlotSpec& s = p.slots[i];
    s.label = labels[i];
    std::string w = "programCreate: slot " + std::to_string(i) + " (" + s.label + ")";
    if (r[0] < 0 || r[0] > (int32_t)SlotKind::ParamAlias) throw SkiffError(w + ": invalid kind " + std::to_string(r[0]));
    s.kind = (SlotKind)r[0];
    s.index = r[1];
    if (!dtype_valid(r[2])) throw SkiffError(w + ": invalid dtype code " + std::to_string(r[2]));
    s.dtype = (DType)r[2];
    s.shape = slice_ints(dims, r[4], r[3], "shape");
    int64_t numel = checked_numel(s.shape, "programCreate");
    s.nbytes = (size_t)numel * dtype_size(s.dtype);
    if (r[5] < 0 || r[5] > 2) throw SkiffError(w + ": invalid layout " + std::to_string(r[5]));
    s.layout = (Layout)r[5];
    s.is_mutable = (r[6] & 1) != 0;
    s.is_constant = (r[6] & 2) != 0;
    if (s.is_constant && (s.kind != SlotKind::Param || s.is_mutable)) throw SkiffError(w + ": only parameters that are not written can be constant");
    bool bound = s.kind == SlotKind::Input || s.kind == SlotKind::Param;
    if (!bound && s.layout != Layout::Any) throw SkiffError(w + ": only inputs and parameters carry a layout");
    if (s.is_mutable && s.kind != SlotKind::Param) throw SkiffError(w + ": only parameters can be mutable");
    s.strides = s.layout == Layout::Exact ? slice_ints(dims, r[4] + r[3], r[3], "strides") : contiguous_strides(s.shape);
    if (s.kind == SlotKind::Input || s.kind == SlotKind::Param) {
      auto& table = s.kind == SlotKind::Input ? p.input_slot : p.param_slot;
      if (s.index < 0 || s.index >= (int32_t)table.size()) throw SkiffError(w + ": index " + std::to_string(s.index) + " out of range");
      if (table[(size_t)s.index] >= 0) throw SkiffError(w + ": bound twice");
      table[(size_t)s.index] = (int32_t)i;
    }
  }
  for (size_t i = 0; i < p.input_slot.size(); i++) if (p.input_slot[i] < 0) throw SkiffError("programCreate: input " + std::to_string(i) + " has no slot");
  for (size_t i = 0; i < p.param_slot.size(); i++) if (p.param_slot[i] < 0) throw SkiffError("programCreate: parameter " + std::to_string(i) + " has no slot");
  for (size_t i = 0; i < n; i++) {
    const SlotSpec& s = p.slots[i];
    std::string w = "programCreate: slot " + std::to_string(i) + " (" + s.label + ")";
    if (s.kind == SlotKind::Buffer) {
      if (s.index < 0 || s.index >= (int32_t)p.buf_bytes.size()) throw SkiffError(w + ": buffer " + std::to_string(s.index) + " out of range");
      if ((int64_t)s.nbytes > p.buf_bytes[(size_t)s.index])
        throw SkiffError(w + ": needs " + std::to_string(s.nbytes) + " bytes but buffer " + std::to_string(s.index) + " has " + std::to_string(p.buf_bytes[(size_t)s.index]));
    } else if (s.kind == SlotKind::ParamAlias) {
      if (s.index < 0 || s.index >= (int32_t)n || p.slots[(size_t)s.index].kind != SlotKind::Param) throw SkiffError(w + ": does not alias a parameter slot");
      const SlotSpec& par = p.slots[(size_t)s.index];
      if (!par.is_mutable) throw SkiffError(w + ": writes parameter " + par.label + ", which is not mutable");
      if (par.layout != Layout::Contiguous) throw SkiffError(w + ": writes parameter " + par.label + " whose layout is not known to be contiguous");
      if (par.dtype != s.dtype || par.shape != s.shape) throw SkiffError(w + ": dtype/shape differ from parameter " + par.label);
    }
  }
}

// Kernels that assign every element of every output (never read it, never leave gaps), checked by
// reading them: the GEMM paths store with beta == 0 (C written, not read), the elementwise
// blocks and pools assign each output element once. Their fresh plan buffers need no clear
// (4-10 MB per MobileNetV2 run at batch 1). Anything not listed keeps zeroed fresh buffers.
// Kernels with extra statistics outputs (batch_norm, layer_norm) are left out.
bool overwrites_outputs(const std::string& op) {
  static const std::unordered_set<std::string> ops = {
      "conv2d", "fused_conv2d_add_act", "matmul", "bmm", "fused_gemm_epilogue",
      "add", "subtract", "multiply", "divide", "maximum", "minimum",
      "relu", "relu6", "hardswish", "sigmoid", "tanh", "gelu", "silu", "exp", "sqrt", "rsqrt",
      "avg_pool2d", "max_pool2d", "adaptive_avg_pool2d", "softmax"};
  return ops.count(op) > 0;
}

void decode_instrs(Program& p, const Napi::Object& d) {
  auto raw = i32_field(d, "instrs");
  auto args = i32_field(d, "args");
  auto attrs = f64_field(d, "attrs");
  auto names = str_field(d, "names");
  if (raw.size() % 10) throw SkiffError("programCreate: 'instrs' length is not a multiple of 10");
  size_t n = raw.size() / 10;
  if (names.size() != n) throw SkiffError("programCreate: " + std::to_string(names.size()) + " names for " + std::to_string(n) + " instructions");
  p.instrs.resize(n);
  for (size_t k = 0; k < n; k++) {
    const int32_t* r = &raw[k * 10];
    Instr& I = p.instrs[k];
    I.name = names[k];
    std::string w = "programCreate: instruction " + std::to_string(k) + " (" + I.name + ")";
    if (r[0] < 0 || r[0] > (int32_t)Opcode::Copy) throw SkiffError(w + ": invalid opcode " + std::to_string(r[0]));
    I.op = (Opcode)r[0];
    I.fn = r[1];
    I.in = slice_args(args, r[2], r[3], w);
    I.out = slice_args(args, r[4], r[5], w);
    if (r[6] < 0 || r[7] < 0 || (int64_t)r[6] + r[7] > (int64_t)attrs.size()) throw SkiffError(w + ": attribute range out of bounds");
    I.attrs.assign(attrs.begin() + r[6], attrs.begin() + r[6] + r[7]);
    for (int32_t f : slice_args(args, r[8], r[9], w)) {
      if (f >= 0) I.clear.push_back(f);
      else I.release.push_back(-f - 1);
    }
    for (int32_t s : I.in) if (s < 0 || s >= (int32_t)p.slots.size()) throw SkiffError(w + ": input slot " + std::to_string(s) + " out of range");
    for (int32_t s : I.out) if (s < 0 || s >= (int32_t)p.slots.size()) throw SkiffError(w + ": output slot " + std::to_string(s) + " out of range");
    for (int32_t s : I.clear) if (s >= (int32_t)p.slots.size()) throw SkiffError(w + ": freed slot " + std::to_string(s) + " out of range");
    for (int32_t b : I.release) if (b >= (int32_t)p.buf_bytes.size()) throw SkiffError(w + ": released buffer " + std::to_string(b) + " out of range");
    auto kind_of = [&](int32_t s) { return p.slots[(size_t)s].kind; };
    switch (I.op) {
      case Opcode::Kernel:
        I.kernel = kernel_fn(I.fn);
        I.out_uninit = overwrites_outputs(I.name);
        for (size_t i = 0; i < I.in.size() && i < 32; i++)
          if (p.slots[(size_t)I.in[i]].is_constant) I.const_mask |= 1u << i;
        if (I.const_mask) I.const_cache.resize(I.in.size());
        for (int32_t s : I.out)
          if (kind_of(s) != SlotKind::Buffer && kind_of(s) != SlotKind::ParamAlias) throw SkiffError(w + ": kernel output " + p.slots[(size_t)s].label + " is not a buffer slot");
        break;
      case Opcode::View: {
        if (I.in.size() != 1 || I.out.size() != 1) throw SkiffError(w + ": a view takes one input and one output");
        const SlotSpec& o = p.slots[(size_t)I.out[0]];
        if (o.kind != SlotKind::View) throw SkiffError(w + ": view output " + o.label + " is not a view slot");
        if (o.dtype != p.slots[(size_t)I.in[0]].dtype) throw SkiffError(w + ": a view cannot change the dtype");
        if (I.attrs.empty()) throw SkiffError(w + ": view attributes missing");
        int64_t nd = as_int(I.attrs[0], "view rank");
        if (nd < 0 || (int64_t)I.attrs.size() != 2 * nd + 2) throw SkiffError(w + ": malformed view attributes");
        I.vshape = slice_ints(I.attrs, 1, nd, "view shape");
        I.vstrides = slice_ints(I.attrs, 1 + nd, nd, "view strides");
        I.voffset = as_int(I.attrs[(size_t)(2 * nd + 1)], "view offset");
        if (I.vshape != o.shape) throw SkiffError(w + ": view shape " + shape_str(I.vshape) + " differs from its slot's " + shape_str(o.shape));
        for (auto st : I.vstrides) if (st < 0) throw SkiffError(w + ": negative view strides are not supported");
        p.slots[(size_t)I.out[0]].is_constant = p.slots[(size_t)I.in[0]].is_constant;
        break;
      }
      case Opcode::Host:
        if (I.fn < 0 || I.fn >= p.n_host) throw SkiffError(w + ": host function " + std::to_string(I.fn) + " out of range");
        for (int32_t s : I.out) if (kind_of(s) != SlotKind::Host) throw SkiffError(w + ": host output " + p.slots[(size_t)s].label + " is not a host slot");
        break;
      case Opcode::Copy: {
        if (I.in.size() != 1 || I.out.size() != 1) throw SkiffError(w + ": a copy takes one input and one output");
        const SlotSpec &a = p.slots[(size_t)I.in[0]], &o = p.slots[(size_t)I.out[0]];
        if (o.kind == SlotKind::Param ? !o.is_mutable : o.kind != SlotKind::Buffer) throw SkiffError(w + ": copy target " + o.label + " is neither a buffer nor a mutable parameter");
        if (a.dtype != o.dtype || a.shape != o.shape) throw SkiffError(w + ": copy between different dtypes/shapes");
        break;
      }
    }
  }
}

// Simulates the plan once; see the comment at the top of this file.
void verify_plan(const Program& p) {
  enum { Undefined = 0, Live = 1, Dropped = 2 };
  size_t ns = p.slots.size();
  std::vector<int> state(ns, Undefined);
  std::vector<int32_t> buf_root(ns, -1), param_root(ns, -1);
  std::vector<int64_t> live_on(p.buf_bytes.size(), 0);
  std::vector<bool> released(p.buf_bytes.size(), false), overwritten(p.param_slot.size(), false);
  for (int32_t s : p.input_slot) state[(size_t)s] = Live;
  for (size_t j = 0; j < p.param_slot.size(); j++) { state[(size_t)p.param_slot[j]] = Live; param_root[(size_t)p.param_slot[j]] = (int32_t)j; }
  for (size_t k = 0; k < p.instrs.size(); k++) {
    const Instr& I = p.instrs[k];
    std::string w = "programCreate: instruction " + std::to_string(k) + " (" + I.name + ")";
    auto label = [&](int32_t s) { return p.slots[(size_t)s].label; };
    for (int32_t s : I.in) {
      if (state[(size_t)s] != Live) throw SkiffError(w + ": reads " + label(s) + (state[(size_t)s] == Undefined ? " before it is defined" : " after it was freed"));
      if (param_root[(size_t)s] >= 0 && overwritten[(size_t)param_root[(size_t)s]]) throw SkiffError(w + ": reads " + label(s) + " after its parameter was overwritten");
    }
    std::vector<int32_t> written;
    for (int32_t s : I.out) {
      const SlotSpec& o = p.slots[(size_t)s];
      if (I.op == Opcode::Copy && o.kind == SlotKind::Param) { written.push_back(param_root[(size_t)s]); continue; }
      if (state[(size_t)s] != Undefined) throw SkiffError(w + ": defines " + label(s) + " twice");
      state[(size_t)s] = Live;
      if (o.kind == SlotKind::Buffer) {
        int32_t b = o.index;
        if (released[(size_t)b]) throw SkiffError(w + ": writes buffer " + std::to_string(b) + " after it was released");
        // Whatever still lives on this buffer must be an input of this instruction dropped right after it (inplace).
        int64_t inplace = 0;
        std::vector<int32_t> seen;
        for (int32_t x : I.in) {
          if (buf_root[(size_t)x] != b || p.slots[(size_t)x].kind != SlotKind::Buffer || std::find(seen.begin(), seen.end(), x) != seen.end()) continue;
          seen.push_back(x);
          if (std::find(I.clear.begin(), I.clear.end(), x) != I.clear.end()) inplace++;
        }
        if (live_on[(size_t)b] != inplace) throw SkiffError(w + ": writes buffer " + std::to_string(b) + " into " + label(s) + " while another value still uses it");
        buf_root[(size_t)s] = b;
        live_on[(size_t)b]++;
      } else if (o.kind == SlotKind::ParamAlias) {
        written.push_back(param_root[(size_t)o.index]);
      } else if (o.kind == SlotKind::View) {
        buf_root[(size_t)s] = buf_root[(size_t)I.in[0]];
        param_root[(size_t)s] = param_root[(size_t)I.in[0]];
        if (buf_root[(size_t)s] >= 0) live_on[(size_t)buf_root[(size_t)s]]++;
      }
    }
    for (int32_t s : I.clear) {
      if (state[(size_t)s] != Live) throw SkiffError(w + ": frees " + label(s) + ", which is not live");
      state[(size_t)s] = Dropped;
      if (buf_root[(size_t)s] >= 0) live_on[(size_t)buf_root[(size_t)s]]--;
    }
    for (int32_t b : I.release) {
      if (released[(size_t)b]) throw SkiffError(w + ": releases buffer " + std::to_string(b) + " twice");
      if (live_on[(size_t)b] != 0) throw SkiffError(w + ": releases buffer " + std::to_string(b) + " while a value still uses it");
      released[(size_t)b] = true;
    }
    for (int32_t j : written) overwritten[(size_t)j] = true;
  }
  for (int32_t s : p.outputs) {
    if (s < 0 || s >= (int32_t)ns) throw SkiffError("programCreate: output slot " + std::to_string(s) + " out of range");
    if (state[(size_t)s] != Live) throw SkiffError("programCreate: output " + p.slots[(size_t)s].label + " is not live at the end");
    if (param_root[(size_t)s] >= 0 && overwritten[(size_t)param_root[(size_t)s]]) throw SkiffError("programCreate: output " + p.slots[(size_t)s].label + " aliases an overwritten parameter");
  }
}

std::shared_ptr<Program> build(const Napi::Object& d) {
  auto p = std::make_shared<Program>();
  const char* poison = std::getenv("SKIFF_POISON_PLAN_BUFFERS");
  p->poison = poison && poison[0] && std::string(poison) != "0";
  int32_t n_inputs = int_field(d, "nInputs"), n_params = int_field(d, "nParams");
  p->n_host = int_field(d, "nHost");
  for (double b : f64_field(d, "buffers")) {
    int64_t v = as_int(b, "buffer size");
    if (v < 0) throw SkiffError("programCreate: negative buffer size");
    p->buf_bytes.push_back(v);
  }
  decode_slots(*p, d, n_inputs, n_params);
  decode_instrs(*p, d);
  p->outputs = i32_field(d, "outputs");
  verify_plan(*p);
  return p;
}

// ---- N-API entries ----

std::vector<int64_t> handle_list(const Napi::Value& v, const char* what) {
  if (!v.IsTypedArray() || v.As<Napi::TypedArray>().TypedArrayType() != napi_int32_array)
    throw SkiffError(std::string("program: ") + what + " must be an Int32Array of handles");
  auto a = v.As<Napi::Int32Array>();
  return std::vector<int64_t>(a.Data(), a.Data() + a.ElementLength());
}

Napi::Int32Array handle_array(const Napi::Value& v, const char* what) {
  if (!v.IsTypedArray() || v.As<Napi::TypedArray>().TypedArrayType() != napi_int32_array)
    throw SkiffError(std::string("program: ") + what + " must be an Int32Array of handles");
  return v.As<Napi::Int32Array>();
}

const std::shared_ptr<Program>& get_program(const Napi::Value& v) {
  if (!v.IsNumber()) throw SkiffError("program: id must be a number");
  int32_t id = v.As<Napi::Number>().Int32Value();
  auto it = programs().find(id);
  if (it == programs().end()) throw SkiffError("program: unknown or freed program " + std::to_string(id));
  return it->second;
}

Napi::Int32Array out_array(const Napi::Value& v, const Program& p) {
  if (!v.IsTypedArray() || v.As<Napi::TypedArray>().TypedArrayType() != napi_int32_array)
    throw SkiffError("program: outputs must be an Int32Array");
  auto a = v.As<Napi::Int32Array>();
  if (a.ElementLength() != p.outputs.size())
    throw SkiffError("program " + std::to_string(p.id) + ": output array holds " + std::to_string(a.ElementLength()) + " handles, the program has " + std::to_string(p.outputs.size()) + " outputs");
  return a;
}

// Runs until completion (outputs written into `outs`, returns 0) or a host call (returns
// {state, instr, host, args}; the state waits in the table for programResume/programAbort).
Napi::Value drive(Napi::Env env, std::unique_ptr<RunState> st, Napi::Int32Array outs) {
  if (execute(*st)) {
    auto hs = finish_run(*st);
    for (size_t i = 0; i < hs.size(); i++) outs[i] = hs[i];
    recycle_run(std::move(st));
    return Napi::Number::New(env, 0);
  }
  const Instr& I = st->prog->instrs[st->pc];
  auto args = Napi::Int32Array::New(env, I.in.size());
  for (size_t i = 0; i < I.in.size(); i++) args[i] = handles().add(st->slots[(size_t)I.in[i]]);
  auto o = Napi::Object::New(env);
  int32_t sid = next_state++;
  o.Set("state", Napi::Number::New(env, sid));
  o.Set("instr", Napi::Number::New(env, (double)st->pc));
  o.Set("host", Napi::Number::New(env, I.fn));
  o.Set("args", args);
  suspended()[sid] = std::move(st);
  return o;
}

Napi::Value ProgramCreate(const Napi::CallbackInfo& info) {
  if (!info[0].IsObject()) throw SkiffError("programCreate: expected a program description object");
  auto p = build(info[0].As<Napi::Object>());
  p->id = next_program++;
  programs()[p->id] = p;
  program_counters().created++;
  return Napi::Number::New(info.Env(), p->id);
}

Napi::Value ProgramRun(const Napi::CallbackInfo& info) {
  auto p = get_program(info[0]);
  auto outs = out_array(info[3], *p);
  auto ins = handle_array(info[1], "inputs"), pars = handle_array(info[2], "params");
  auto st = bind_run(p, ins.Data(), ins.ElementLength(), pars.Data(), pars.ElementLength());
  return drive(info.Env(), std::move(st), outs);
}

Napi::Value ProgramResume(const Napi::CallbackInfo& info) {
  if (!info[0].IsNumber()) throw SkiffError("programResume: state must be a number");
  int32_t sid = info[0].As<Napi::Number>().Int32Value();
  auto it = suspended().find(sid);
  if (it == suspended().end()) throw SkiffError("programResume: no suspended run " + std::to_string(sid));
  std::unique_ptr<RunState> st = std::move(it->second);
  suspended().erase(it);  // an error below abandons the run and frees its buffers
  auto results = handle_list(info[1], "host results");
  auto outs = out_array(info[2], *st->prog);
  program_counters().resumes++;
  accept_host_results(*st, results);
  return drive(info.Env(), std::move(st), outs);
}

Napi::Value ProgramAbort(const Napi::CallbackInfo& info) {
  if (!info[0].IsNumber()) throw SkiffError("programAbort: state must be a number");
  return Napi::Boolean::New(info.Env(), suspended().erase(info[0].As<Napi::Number>().Int32Value()) > 0);
}

Napi::Value ProgramFree(const Napi::CallbackInfo& info) {
  if (!info[0].IsNumber()) throw SkiffError("programFree: id must be a number");
  bool ok = programs().erase(info[0].As<Napi::Number>().Int32Value()) > 0;
  if (ok) program_counters().freed++;
  return Napi::Boolean::New(info.Env(), ok);
}

Napi::Value ProgramInfo(const Napi::CallbackInfo& info) {
  const auto& p = get_program(info[0]);
  auto o = Napi::Object::New(info.Env());
  int64_t total = 0;
  for (auto b : p->buf_bytes) total += b;
  o.Set("instructions", (double)p->instrs.size());
  o.Set("slots", (double)p->slots.size());
  o.Set("buffers", (double)p->buf_bytes.size());
  o.Set("bufferBytes", (double)total);
  o.Set("runs", (double)p->runs);
  o.Set("lastPeakBytes", (double)p->last_peak);
  o.Set("lastInstructions", (double)p->last_instructions);
  return o;
}

// programProfile(id, on): on = true starts timing each instruction (clearing earlier totals),
// false stops; returns Float64Array [runs, total ns of instruction 0, 1, ...] so far.
Napi::Value ProgramProfile(const Napi::CallbackInfo& info) {
  const auto& p = get_program(info[0]);
  if (!info[1].IsBoolean()) throw SkiffError("programProfile: 'on' must be a boolean");
  const bool on = info[1].As<Napi::Boolean>().Value();
  if (on && !p->profiling) {
    p->prof_ns.assign(p->instrs.size(), 0.0);
    p->prof_runs = 0;
  }
  p->profiling = on;
  auto a = Napi::Float64Array::New(info.Env(), p->instrs.size() + 1);
  a[0] = (double)p->prof_runs;
  for (size_t i = 0; i < p->prof_ns.size() && i < p->instrs.size(); i++) a[i + 1] = p->prof_ns[i];
  return a;
}

Napi::Value ConstCacheStats(const Napi::CallbackInfo& info) {
  auto o = Napi::Object::New(info.Env());
  o.Set("built", (double)const_values_built());
  return o;
}

Napi::Value ProgramStats(const Napi::CallbackInfo& info) {
  const auto& c = program_counters();
  auto o = Napi::Object::New(info.Env());
  o.Set("created", (double)c.created);
  o.Set("live", (double)programs().size());
  o.Set("suspended", (double)suspended().size());
  o.Set("runs", (double)c.runs);
  o.Set("resumes", (double)c.resumes);
  o.Set("instructions", (double)c.instructions);
  o.Set("kernels", (double)c.kernels);
  o.Set("views", (double)c.views);
  o.Set("hostCalls", (double)c.host_calls);
  o.Set("copies", (double)c.copies);
  o.Set("buffersAllocated", (double)c.buffers_allocated);
  o.Set("lastPeakBytes", (double)c.last_peak);
  o.Set("maxPeakBytes", (double)c.max_peak);
  return o;
}

template <Napi::Value (*F)(const Napi::CallbackInfo&)>
Napi::Value Guard(const Napi::CallbackInfo& info) {
  try {
    return F(info);
  } catch (const Napi::Error&) {
    throw;
  } catch (const std::bad_alloc&) {
    throw Napi::Error::New(info.Env(), "program: out of memory");
  } catch (const std::exception& e) {
    throw Napi::Error::New(info.Env(), e.what());
  }
}

}  // namespace

void register_program_api(Napi::Env env, Napi::Object exports) {
  exports.Set("programCreate", Napi::Function::New<Guard<ProgramCreate>>(env));
  exports.Set("programRun", Napi::Function::New<Guard<ProgramRun>>(env));
  exports.Set("programResume", Napi::Function::New<Guard<ProgramResume>>(env));
  exports.Set("programAbort", Napi::Function::New<Guard<ProgramAbort>>(env));
  exports.Set("programFree", Napi::Function::New<Guard<ProgramFree>>(env));
  exports.Set("programInfo", Napi::Function::New<Guard<ProgramInfo>>(env));
  exports.Set("programStats", Napi::Function::New<Guard<ProgramStats>>(env));
  exports.Set("programProfile", Napi::Function::New<Guard<ProgramProfile>>(env));
  exports.Set("constCacheStats", Napi::Function::New<Guard<ConstCacheStats>>(env));
}

}  // namespace skiff
