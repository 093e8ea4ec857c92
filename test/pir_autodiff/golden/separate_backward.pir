// RUN: backward_program loss wrt x
// The separate backward program of sum(exp(x) * x): the forward values the rules read (x and
// exp(x)) become feeds fwd_<k>, the target's gradient is the feed target_0@GRAD, and the input
// gradient is fetched as grad_0.
// CHECK: (%0) = "pd_op.data" () {name:"fwd_0", shape:shape[2, 2], dtype:float32} : () -> tensor<2x2xf32>
// CHECK-NEXT: (%1) = "pd_op.data" () {name:"fwd_1", shape:shape[2, 2], dtype:float32} : () -> tensor<2x2xf32>
// CHECK-NEXT: (%2) = "pd_op.data" () {name:"target_0@GRAD", shape:shape[], dtype:float32} : () -> tensor<f32>
// CHECK-NEXT: (%3) = "pd_op.reshape" (%2) {shape:i64[1, 1]} : (tensor<f32>) -> tensor<1x1xf32>
// CHECK-NEXT: (%4) = "pd_op.expand" (%3) {shape:i64[2, 2]} : (tensor<1x1xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: (%5) = "pd_op.multiply" (%4, %0) {} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: (%6) = "pd_op.multiply" (%4, %1) {} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: (%7) = "pd_op.multiply" (%5, %1) {} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: (%8) = "pd_op.add" (%6, %7) {} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: () = "pd_op.fetch" (%8) {name:"grad_0", col:0} : (tensor<2x2xf32>) -> ()
{
  (%x) = "pd_op.data" () {name:"x", shape:shape[2, 2], dtype:float32} : () -> tensor<2x2xf32>
  (%e) = "pd_op.exp" (%x) {} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  (%m) = "pd_op.multiply" (%e, %x) {} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  (%l) = "pd_op.sum" (%m) {axis:none, dtype:none, keepdim:false} : (tensor<2x2xf32>) -> tensor<f32>
  () = "pd_op.fetch" (%l) {name:"loss", col:0} : (tensor<f32>) -> ()
}
