// RUN: passes fuse_layer_norm,dce
// Hand-written layer normalization becomes layer_norm: mean / subtract / mean of the square /
// add eps / sqrt / divide, then * gamma + beta; also var(unbiased=False) with scale for eps and
// rsqrt-multiply, without the affine part. Not fused: a reduction over another axis.
// CHECK: (%0) = "pd_op.data" () {name:"x", shape:shape[s0, 6, 16], dtype:float32}
// CHECK-NEXT: (%1) = "builtin.parameter" () {parameter_name:"g"}
// CHECK-NEXT: (%2) = "builtin.parameter" () {parameter_name:"b"}
// CHECK-NEXT: (%3, %4, %5) = "pd_op.layer_norm" (%0, %1, %2) {epsilon:0.00001, begin_norm_axis:2}
// CHECK-NEXT: (%6, %7, %8) = "pd_op.layer_norm" (%3, none, none) {epsilon:0.001, begin_norm_axis:2}
// CHECK-NEXT: (%9) = "pd_op.mean" (%6) {axis:1, keepdim:true}
// CHECK-NEXT: (%10) = "pd_op.subtract" (%6, %9) {}
// CHECK-NEXT: (%11) = "pd_op.var" (%6) {axis:1, unbiased:false, keepdim:true}
// CHECK-NEXT: (%12) = "pd_op.scale" (%11) {scale:1.0, bias:0.001, bias_after_scale:true}
// CHECK-NEXT: (%13) = "pd_op.rsqrt" (%12) {}
// CHECK-NEXT: (%14) = "pd_op.multiply" (%10, %13) {}
// CHECK-NEXT: () = "pd_op.fetch" (%14) {name:"out", col:0}
// CHECK-NEXT: }
{
  (%x) = "pd_op.data" () {name:"x", shape:shape[s0, 6, 16], dtype:float32} : () -> tensor<s0x6x16xf32>
  (%g) = "builtin.parameter" () {parameter_name:"g"} : () -> tensor<16xf32>
  (%b) = "builtin.parameter" () {parameter_name:"b"} : () -> tensor<16xf32>
  (%mu) = "pd_op.mean" (%x) {axis:-1, keepdim:true} : (tensor<s0x6x16xf32>) -> tensor<s0x6x1xf32>
  (%xc) = "pd_op.subtract" (%x, %mu) {} : (tensor<s0x6x16xf32>, tensor<s0x6x1xf32>) -> tensor<s0x6x16xf32>
  (%sq) = "pd_op.square" (%xc) {} : (tensor<s0x6x16xf32>) -> tensor<s0x6x16xf32>
  (%var) = "pd_op.mean" (%sq) {axis:i64[2], keepdim:true} : (tensor<s0x6x16xf32>) -> tensor<s0x6x1xf32>
  (%eps) = "builtin.constant" () {value:0.00001} : () -> tensor<f32>
  (%ve) = "pd_op.add" (%var, %eps) {} : (tensor<s0x6x1xf32>, tensor<f32>) -> tensor<s0x6x1xf32>
  (%sd) = "pd_op.sqrt" (%ve) {} : (tensor<s0x6x1xf32>) -> tensor<s0x6x1xf32>
  (%n) = "pd_op.divide" (%xc, %sd) {} : (tensor<s0x6x16xf32>, tensor<s0x6x1xf32>) -> tensor<s0x6x16xf32>
  (%ng) = "pd_op.multiply" (%n, %g) {} : (tensor<s0x6x16xf32>, tensor<16xf32>) -> tensor<s0x6x16xf32>
  (%y1) = "pd_op.add" (%ng, %b) {} : (tensor<s0x6x16xf32>, tensor<16xf32>) -> tensor<s0x6x16xf32>
  (%mu2) = "pd_op.mean" (%y1) {axis:i64[-1], keepdim:true} : (tensor<s0x6x16xf32>) -> tensor<s0x6x1xf32>
  (%xc2) = "pd_op.subtract" (%y1, %mu2) {} : (tensor<s0x6x16xf32>, tensor<s0x6x1xf32>) -> tensor<s0x6x16xf32>
  (%v2) = "pd_op.var" (%y1) {axis:-1, unbiased:false, keepdim:true} : (tensor<s0x6x16xf32>) -> tensor<s0x6x1xf32>
  (%ve2) = "pd_op.scale" (%v2) {scale:1.0, bias:0.001, bias_after_scale:true} : (tensor<s0x6x1xf32>) -> tensor<s0x6x1xf32>
  (%r2) = "pd_op.rsqrt" (%ve2) {} : (tensor<s0x6x1xf32>) -> tensor<s0x6x1xf32>
  (%y2) = "pd_op.multiply" (%xc2, %r2) {} : (tensor<s0x6x16xf32>, tensor<s0x6x1xf32>) -> tensor<s0x6x16xf32>
  (%mu3) = "pd_op.mean" (%y2) {axis:1, keepdim:true} : (tensor<s0x6x16xf32>) -> tensor<s0x1x16xf32>
  (%xc3) = "pd_op.subtract" (%y2, %mu3) {} : (tensor<s0x6x16xf32>, tensor<s0x1x16xf32>) -> tensor<s0x6x16xf32>
  (%v3) = "pd_op.var" (%y2) {axis:1, unbiased:false, keepdim:true} : (tensor<s0x6x16xf32>) -> tensor<s0x1x16xf32>
  (%ve3) = "pd_op.scale" (%v3) {scale:1.0, bias:0.001, bias_after_scale:true} : (tensor<s0x1x16xf32>) -> tensor<s0x1x16xf32>
  (%r3) = "pd_op.rsqrt" (%ve3) {} : (tensor<s0x1x16xf32>) -> tensor<s0x1x16xf32>
  (%y3) = "pd_op.multiply" (%xc3, %r3) {} : (tensor<s0x6x16xf32>, tensor<s0x1x16xf32>) -> tensor<s0x6x16xf32>
  () = "pd_op.fetch" (%y3) {name:"out", col:0} : (tensor<s0x6x16xf32>) -> ()
}
