// RUN: append_backward loss wrt w
// w is used twice (tanh(w) * w): its two gradient contributions are summed with one add. The
// integer argmax and the shape-only zeros_like carry no gradient, and nothing is emitted for u,
// whose path to the loss does not involve w.
// CHECK: () = "pd_op.fetch" (%9) {name:"loss", col:0} : (tensor<f32>) -> ()
// CHECK-NEXT: (%10) = "pd_op.ones_like" (%9) {dtype:none} : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT: (%11) = "pd_op.reshape" (%10) {shape:i64[1]} : (tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT: (%12) = "pd_op.expand" (%11) {shape:i64[3]} : (tensor<1xf32>) -> tensor<3xf32>
// CHECK-NEXT: (%13) = "pd_op.multiply" (%12, %0) {} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT: (%14) = "pd_op.multiply" (%12, %2) {} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT: (%15) = "pd_op.square" (%2) {} : (tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT: (%16) = "pd_op.scale" (%15) {scale:-1.0, bias:1.0, bias_after_scale:true} : (tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT: (%17) = "pd_op.multiply" (%13, %16) {} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT: (%18) = "pd_op.add" (%14, %17) {} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT: () = "pd_op.fetch" (%18) {name:"w@GRAD", col:1} : (tensor<3xf32>) -> ()
{
  (%w) = "builtin.parameter" () {parameter_name:"w"} : () -> tensor<3xf32>
  (%u) = "builtin.parameter" () {parameter_name:"u"} : () -> tensor<3xf32>
  (%t) = "pd_op.tanh" (%w) {} : (tensor<3xf32>) -> tensor<3xf32>
  (%m) = "pd_op.multiply" (%t, %w) {} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  (%i) = "pd_op.argmax" (%m) {axis:0, keepdim:false, dtype:int64} : (tensor<3xf32>) -> tensor<i64>
  (%z) = "pd_op.zeros_like" (%m) {dtype:none} : (tensor<3xf32>) -> tensor<3xf32>
  (%e) = "pd_op.exp" (%u) {} : (tensor<3xf32>) -> tensor<3xf32>
  (%s0) = "pd_op.add" (%m, %z) {} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  (%s1) = "pd_op.add" (%s0, %e) {} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  (%l) = "pd_op.sum" (%s1) {axis:none, dtype:none, keepdim:false} : (tensor<3xf32>) -> tensor<f32>
  () = "pd_op.fetch" (%l) {name:"loss", col:0} : (tensor<f32>) -> ()
}
