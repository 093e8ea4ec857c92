// RUN: roundtrip
// Every attribute kind. Floats print in their shortest exact form and always look like floats;
// strings use JSON escapes; typed arrays say their element type, so empty ones keep their kind.
// CHECK: {i:3, neg:-7, big:9007199254740991, zero:0}
// CHECK: {f:0.1, one:1.0, tiny:5e-324, huge:1.7976931348623157e+308, e21:1e+21, small:1e-7, f32:0.10000000149011612, nz:-0.0, pinf:inf, ninf:-inf, nan:nan}
// CHECK: {t:true, f:false, nothing:none, dt:bfloat16, dt2:int64}
// CHECK: s:"a \"quoted\" \\ back\nslash\ttab \u0001 ü"
// CHECK-SAME: empty:""
// CHECK: {ints:i64[1, -2, 3], eints:i64[], floats:f64[0.5, 1.0, -2.5e-8, nan], efloats:f64[]}
// CHECK: {arr:[1, 2.0, "x", [true, none, i64[]]], earr:[]}
// CHECK: {sh:shape[s0, ?, 3, (s0+1), (max_x)], esh:shape[], "weird key":1, dotted.key:2}
// CHECK-NOT: {{\bundefined\b}}
{
  () = "gen.attrs" () {i:3, neg:-7, big:9007199254740991, zero:0} : () -> ()
  () = "gen.attrs" () {f:0.1, one:1.0, tiny:5e-324, huge:1.7976931348623157e+308, e21:1e+21, small:1e-7, f32:0.10000000149011612, nz:-0.0, pinf:inf, ninf:-inf, nan:nan} : () -> ()
  () = "gen.attrs" () {t:true, f:false, nothing:none, dt:bfloat16, dt2:int64} : () -> ()
  () = "gen.attrs" () {s:"a \"quoted\" \\ back\nslash\ttab \u0001 ü", empty:""} : () -> ()
  () = "gen.attrs" () {ints:i64[1, -2, 3], eints:i64[], floats:f64[0.5, 1.0, -2.5e-8, nan], efloats:f64[]} : () -> ()
  () = "gen.attrs" () {arr:[1, 2.0, "x", [true, none, i64[]]], earr:[]} : () -> ()
  () = "gen.attrs" () {sh:shape[s0, ?, 3, (s0+1), (max_x)], esh:shape[], "weird key":1, dotted.key:2} : () -> ()
}
