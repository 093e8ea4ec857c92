// RUN: append_backward loss wrt x
// Backward of pd_op.if: a second pd_op.if on the same condition; each branch recomputes its
// forward branch (the forward's region values are not visible outside it), differentiates it
// with the seed captured from outside, and yields x's gradient (zeros from the branch that
// does not use x).
// CHECK: () = "pd_op.fetch" (%5) {name:"loss", col:0} : (tensor<f32>) -> ()
// CHECK-NEXT: (%6) = "pd_op.ones_like" (%5) {dtype:none} : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT: (%7) = "pd_op.reshape" (%6) {shape:i64[1]} : (tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT: (%8) = "pd_op.expand" (%7) {shape:i64[3]} : (tensor<1xf32>) -> tensor<3xf32>
// CHECK-NEXT: (%9) = "pd_op.if" (%1) {} ({
// CHECK-NEXT: ^bb0:
// CHECK-NEXT: (%10) = "pd_op.exp" (%0) {} : (tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT: (%11) = "pd_op.multiply" (%8, %10) {} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT: () = "builtin.yield" (%11) {} : (tensor<3xf32>) -> ()
// CHECK-NEXT: }, {
// CHECK-NEXT: ^bb0:
// CHECK-NEXT: (%12) = "pd_op.zeros_like" (%0) {dtype:none} : (tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT: () = "builtin.yield" (%12) {} : (tensor<3xf32>) -> ()
// CHECK-NEXT: }) : (tensor<bool>) -> tensor<3xf32>
// CHECK-NEXT: () = "pd_op.fetch" (%9) {name:"x@GRAD", col:1} : (tensor<3xf32>) -> ()
{
  (%x) = "pd_op.data" () {name:"x", shape:shape[3], dtype:float32} : () -> tensor<3xf32>
  (%c) = "pd_op.data" () {name:"c", shape:shape[], dtype:bool} : () -> tensor<bool>
  (%k) = "pd_op.data" () {name:"k", shape:shape[3], dtype:float32} : () -> tensor<3xf32>
  (%y) = "pd_op.if" (%c) {} ({
    ^bb0:
      (%e) = "pd_op.exp" (%x) {} : (tensor<3xf32>) -> tensor<3xf32>
      () = "builtin.yield" (%e) {} : (tensor<3xf32>) -> ()
  }, {
    ^bb0:
      () = "builtin.yield" (%k) {} : (tensor<3xf32>) -> ()
  }) : (tensor<bool>) -> tensor<3xf32>
  (%l) = "pd_op.sum" (%y) {axis:none, dtype:none, keepdim:false} : (tensor<3xf32>) -> tensor<f32>
  () = "pd_op.fetch" (%l) {name:"loss", col:0} : (tensor<f32>) -> ()
}
