// RUN: verify
// A program the verifier accepts: feeds with symbolic dims, a parameter and its update, a dense
// constant, an inplace op, a variadic input (combine -> concat), a list output (split ->
// builtin.split), a host call, a region op ending in yield, and fetches.
// CHECK-LABEL: {
// CHECK-NEXT: (%0) = "pd_op.data" () {name:"x", shape:shape[s0, 4], dtype:float32} : () -> tensor<s0x4xf32>
// CHECK-NEXT: (%1) = "builtin.parameter" () {parameter_name:"w"}
// CHECK:      "pd_op.add_" (%2, %3)
// CHECK-NEXT: (%5) = "builtin.combine" (%0, %4)
// CHECK-NEXT: (%6) = "pd_op.concat" (%5) {axis:1} : (vec[tensor<s0x4xf32>, tensor<s0x4xf32>]) -> tensor<s0x8xf32>
// CHECK-NEXT: (%7) = "pd_op.split"
// CHECK-NEXT: (%8, %9) = "builtin.split" (%7)
// CHECK-NOT:  "pd_op.fetch"
// CHECK:      "builtin.set_parameter" (%12) {parameter_name:"w"}
// CHECK:      "builtin.host_call" (%10, %11) {callee:"log_value"}
// CHECK-NEXT: (%14) = "test.loop" (%13) {} ({
// CHECK:      () = "builtin.yield" (%16)
// CHECK:      () = "pd_op.fetch" (%14) {name:"out", col:0}
// CHECK-NEXT: () = "pd_op.fetch" (%8) {name:"first", col:1}
// CHECK-NEXT: }
{
  (%0) = "pd_op.data" () {name:"x", shape:shape[s0, 4], dtype:float32} : () -> tensor<s0x4xf32>
  (%1) = "builtin.parameter" () {parameter_name:"w"} : () -> tensor<4xf32>
  (%2) = "pd_op.add" (%0, %1) {} : (tensor<s0x4xf32>, tensor<4xf32>) -> tensor<s0x4xf32>
  (%3) = "builtin.constant" () {value:f64[1.0, 2.0, 3.0, 4.0]} : () -> tensor<4xf32>
  (%4) = "pd_op.add_" (%2, %3) {} : (tensor<s0x4xf32>, tensor<4xf32>) -> tensor<s0x4xf32>
  (%5) = "builtin.combine" (%0, %4) {} : (tensor<s0x4xf32>, tensor<s0x4xf32>) -> vec[tensor<s0x4xf32>, tensor<s0x4xf32>]
  (%6) = "pd_op.concat" (%5) {axis:1} : (vec[tensor<s0x4xf32>, tensor<s0x4xf32>]) -> tensor<s0x8xf32>
  (%7) = "pd_op.split" (%6) {num_or_sections:2, axis:1} : (tensor<s0x8xf32>) -> vec[tensor<s0x4xf32>, tensor<s0x4xf32>]
  (%8, %9) = "builtin.split" (%7) {} : (vec[tensor<s0x4xf32>, tensor<s0x4xf32>]) -> (tensor<s0x4xf32>, tensor<s0x4xf32>)
  (%10) = "pd_op.cast" (%9) {dtype:float64} : (tensor<s0x4xf32>) -> tensor<s0x4xf64>
  (%11) = "builtin.constant" () {value:2} : () -> tensor<i64>
  (%12) = "pd_op.add" (%1, %3) {} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  () = "builtin.set_parameter" (%12) {parameter_name:"w"} : (tensor<4xf32>) -> ()
  (%13) = "builtin.host_call" (%10, %11) {callee:"log_value"} : (tensor<s0x4xf64>, tensor<i64>) -> tensor<s0x4xf64>
  (%14) = "test.loop" (%13) {} ({
    ^bb0(%15: tensor<s0x4xf64>):
      (%16) = "pd_op.add" (%15, %10) {} : (tensor<s0x4xf64>, tensor<s0x4xf64>) -> tensor<s0x4xf64>
      () = "builtin.yield" (%16) {} : (tensor<s0x4xf64>) -> ()
  }) : (tensor<s0x4xf64>) -> tensor<s0x4xf64>
  () = "pd_op.fetch" (%14) {name:"out", col:0} : (tensor<s0x4xf64>) -> ()
  () = "pd_op.fetch" (%8) {name:"first", col:1} : (tensor<s0x4xf32>) -> ()
}
