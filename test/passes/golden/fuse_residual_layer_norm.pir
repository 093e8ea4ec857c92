// RUN: passes fuse_residual_layer_norm
// layer_norm of a residual sum becomes fused_bias_residual_layernorm; the sum's later users read
// its residual_out. Not fused: a sum read before the layer_norm (the fused op is created at the
// layer_norm), a broadcasting add (a bias-like operand of another shape).
// CHECK: (%0) = "pd_op.data" () {name:"x", shape:shape[s0, 6, 16], dtype:float32}
// CHECK-NEXT: (%1) = "pd_op.data" () {name:"h", shape:shape[s0, 6, 16], dtype:float32}
// CHECK-NEXT: (%2) = "builtin.parameter" () {parameter_name:"g"}
// CHECK-NEXT: (%3) = "builtin.parameter" () {parameter_name:"b"}
// CHECK-NEXT: (%4, %5, %6, %7) = "pd_op.fused_bias_residual_layernorm" (%0, none, %1, %2, %3) {epsilon:0.00001, residual_alpha:1.0, begin_norm_axis:2}
// CHECK-NEXT: (%8) = "pd_op.tanh" (%4) {}
// CHECK-NEXT: (%9) = "pd_op.add" (%5, %8) {}
// CHECK-NEXT: (%10) = "pd_op.add" (%9, %1) {}
// CHECK-NEXT: (%11) = "pd_op.exp" (%10) {}
// CHECK-NEXT: (%12, %13, %14) = "pd_op.layer_norm" (%10, none, none) {epsilon:0.00001, begin_norm_axis:2}
// CHECK-NEXT: (%15) = "pd_op.add" (%12, %3) {}
// CHECK-NEXT: (%16, %17, %18) = "pd_op.layer_norm" (%15, %2, %3) {epsilon:0.00001, begin_norm_axis:2}
// CHECK-NEXT: () = "pd_op.fetch" (%16) {name:"out", col:0}
// CHECK-NEXT: () = "pd_op.fetch" (%11) {name:"e2", col:1}
// CHECK-NEXT: }
{
  (%x) = "pd_op.data" () {name:"x", shape:shape[s0, 6, 16], dtype:float32} : () -> tensor<s0x6x16xf32>
  (%h) = "pd_op.data" () {name:"h", shape:shape[s0, 6, 16], dtype:float32} : () -> tensor<s0x6x16xf32>
  (%g) = "builtin.parameter" () {parameter_name:"g"} : () -> tensor<16xf32>
  (%b) = "builtin.parameter" () {parameter_name:"b"} : () -> tensor<16xf32>
  (%s1) = "pd_op.add" (%x, %h) {} : (tensor<s0x6x16xf32>, tensor<s0x6x16xf32>) -> tensor<s0x6x16xf32>
  (%n1, %m1, %v1) = "pd_op.layer_norm" (%s1, %g, %b) {epsilon:0.00001, begin_norm_axis:2} : (tensor<s0x6x16xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<s0x6x16xf32>, tensor<(s0*6)xf32>, tensor<(s0*6)xf32>)
  (%t1) = "pd_op.tanh" (%n1) {} : (tensor<s0x6x16xf32>) -> tensor<s0x6x16xf32>
  (%o1) = "pd_op.add" (%s1, %t1) {} : (tensor<s0x6x16xf32>, tensor<s0x6x16xf32>) -> tensor<s0x6x16xf32>
  (%s2) = "pd_op.add" (%o1, %h) {} : (tensor<s0x6x16xf32>, tensor<s0x6x16xf32>) -> tensor<s0x6x16xf32>
  (%e2) = "pd_op.exp" (%s2) {} : (tensor<s0x6x16xf32>) -> tensor<s0x6x16xf32>
  (%n2, %m2, %v2) = "pd_op.layer_norm" (%s2, none, none) {epsilon:0.00001, begin_norm_axis:2} : (tensor<s0x6x16xf32>, none, none) -> (tensor<s0x6x16xf32>, tensor<(s0*6)xf32>, tensor<(s0*6)xf32>)
  (%s3) = "pd_op.add" (%n2, %b) {} : (tensor<s0x6x16xf32>, tensor<16xf32>) -> tensor<s0x6x16xf32>
  (%n3, %m3, %v3) = "pd_op.layer_norm" (%s3, %g, %b) {epsilon:0.00001, begin_norm_axis:2} : (tensor<s0x6x16xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<s0x6x16xf32>, tensor<(s0*6)xf32>, tensor<(s0*6)xf32>)
  () = "pd_op.fetch" (%n3) {name:"out", col:0} : (tensor<s0x6x16xf32>) -> ()
  () = "pd_op.fetch" (%e2) {name:"e2", col:1} : (tensor<s0x6x16xf32>) -> ()
}
