// RUN: passes fuse_linear_param_grad_add
// The weight gradient of a linear layer added to an accumulated gradient (what program
// autodiff emits for a weight used twice) becomes fused_linear_param_grad_add: 2-D x, 3-D x
// (autodiff sums the batched product over the batch), either add order. Not fused: a product
// without transpose_x (not a weight gradient), a product with another user.
// CHECK: (%0) = "pd_op.data" () {name:"x1", shape:shape[s0, 8], dtype:float32}
// CHECK-NEXT: (%1) = "pd_op.data" () {name:"g1", shape:shape[s0, 4], dtype:float32}
// CHECK-NEXT: (%2) = "pd_op.data" () {name:"x2", shape:shape[s0, 8], dtype:float32}
// CHECK-NEXT: (%3) = "pd_op.data" () {name:"g2", shape:shape[s0, 4], dtype:float32}
// CHECK-NEXT: (%4) = "pd_op.data" () {name:"x3", shape:shape[s0, 5, 8], dtype:float32}
// CHECK-NEXT: (%5) = "pd_op.data" () {name:"g3", shape:shape[s0, 5, 4], dtype:float32}
// CHECK-NEXT: (%6) = "pd_op.matmul" (%0, %1) {transpose_x:true, transpose_y:false}
// CHECK-NEXT: (%7, %8) = "pd_op.fused_linear_param_grad_add" (%2, %3, %6, none) {multi_precision:true, has_bias:false}
// CHECK-NEXT: (%9, %10) = "pd_op.fused_linear_param_grad_add" (%4, %5, %7, none) {multi_precision:true, has_bias:false}
// CHECK-NEXT: (%11) = "builtin.parameter" () {parameter_name:"w"}
// CHECK-NEXT: (%12) = "pd_op.matmul" (%0, %11) {transpose_x:false, transpose_y:false}
// CHECK-NEXT: (%13) = "pd_op.add" (%12, %1) {}
// CHECK-NEXT: (%14) = "pd_op.matmul" (%2, %1) {transpose_x:true, transpose_y:false}
// CHECK-NEXT: (%15) = "pd_op.add" (%11, %14) {}
// CHECK-NEXT: () = "pd_op.fetch" (%9) {name:"dw", col:0}
// CHECK-NEXT: () = "pd_op.fetch" (%13) {name:"o4", col:1}
// CHECK-NEXT: () = "pd_op.fetch" (%15) {name:"o5", col:2}
// CHECK-NEXT: () = "pd_op.fetch" (%14) {name:"dw5", col:3}
// CHECK-NEXT: }
{
  (%x1) = "pd_op.data" () {name:"x1", shape:shape[s0, 8], dtype:float32} : () -> tensor<s0x8xf32>
  (%g1) = "pd_op.data" () {name:"g1", shape:shape[s0, 4], dtype:float32} : () -> tensor<s0x4xf32>
  (%x2) = "pd_op.data" () {name:"x2", shape:shape[s0, 8], dtype:float32} : () -> tensor<s0x8xf32>
  (%g2) = "pd_op.data" () {name:"g2", shape:shape[s0, 4], dtype:float32} : () -> tensor<s0x4xf32>
  (%x3) = "pd_op.data" () {name:"x3", shape:shape[s0, 5, 8], dtype:float32} : () -> tensor<s0x5x8xf32>
  (%g3) = "pd_op.data" () {name:"g3", shape:shape[s0, 5, 4], dtype:float32} : () -> tensor<s0x5x4xf32>
  (%dw1) = "pd_op.matmul" (%x1, %g1) {transpose_x:true, transpose_y:false} : (tensor<s0x8xf32>, tensor<s0x4xf32>) -> tensor<8x4xf32>
  (%dw2) = "pd_op.matmul" (%x2, %g2) {transpose_x:true, transpose_y:false} : (tensor<s0x8xf32>, tensor<s0x4xf32>) -> tensor<8x4xf32>
  (%acc) = "pd_op.add" (%dw1, %dw2) {} : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  (%bw3) = "pd_op.matmul" (%x3, %g3) {transpose_x:true, transpose_y:false} : (tensor<s0x5x8xf32>, tensor<s0x5x4xf32>) -> tensor<s0x8x4xf32>
  (%dw3) = "pd_op.sum" (%bw3) {axis:i64[0], dtype:none, keepdim:false} : (tensor<s0x8x4xf32>) -> tensor<8x4xf32>
  (%acc2) = "pd_op.add" (%dw3, %acc) {} : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  (%w) = "builtin.parameter" () {parameter_name:"w"} : () -> tensor<8x4xf32>
  (%p4) = "pd_op.matmul" (%x1, %w) {transpose_x:false, transpose_y:false} : (tensor<s0x8xf32>, tensor<8x4xf32>) -> tensor<s0x4xf32>
  (%o4) = "pd_op.add" (%p4, %g1) {} : (tensor<s0x4xf32>, tensor<s0x4xf32>) -> tensor<s0x4xf32>
  (%dw5) = "pd_op.matmul" (%x2, %g1) {transpose_x:true, transpose_y:false} : (tensor<s0x8xf32>, tensor<s0x4xf32>) -> tensor<8x4xf32>
  (%o5) = "pd_op.add" (%w, %dw5) {} : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  () = "pd_op.fetch" (%acc2) {name:"dw", col:0} : (tensor<8x4xf32>) -> ()
  () = "pd_op.fetch" (%o4) {name:"o4", col:1} : (tensor<s0x4xf32>) -> ()
  () = "pd_op.fetch" (%o5) {name:"o5", col:2} : (tensor<8x4xf32>) -> ()
  () = "pd_op.fetch" (%dw5) {name:"dw5", col:3} : (tensor<8x4xf32>) -> ()
}
