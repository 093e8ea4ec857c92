// RUN: append_backward loss wrt w,b
// mean(relu(x @ w + b)): the seed is ones_like(loss); mean's rule scales and broadcasts it back;
// relu masks with (out > 0); add's rule sums the bias gradient over the batch; matmul's rule
// gives x^T @ g for w. x is a feed not asked for, so no gradient ops compute dx.
// CHECK: () = "pd_op.fetch" (%6) {name:"loss", col:0} : (tensor<f32>) -> ()
// CHECK-NEXT: (%7) = "pd_op.ones_like" (%6) {dtype:none} : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT: (%8) = "pd_op.scale" (%7) {scale:0.125, bias:0.0, bias_after_scale:true} : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT: (%9) = "pd_op.reshape" (%8) {shape:i64[1, 1]} : (tensor<f32>) -> tensor<1x1xf32>
// CHECK-NEXT: (%10) = "pd_op.expand" (%9) {shape:i64[4, 2]} : (tensor<1x1xf32>) -> tensor<4x2xf32>
// CHECK-NEXT: (%11) = "pd_op.full" () {shape:i64[], fill_value:0, dtype:float32} : () -> tensor<f32>
// CHECK-NEXT: (%12) = "pd_op.greater_than" (%5, %11) {} : (tensor<4x2xf32>, tensor<f32>) -> tensor<4x2xbool>
// CHECK-NEXT: (%13) = "pd_op.full" () {shape:i64[], fill_value:0, dtype:float32} : () -> tensor<f32>
// CHECK-NEXT: (%14) = "pd_op.where" (%12, %10, %13) {} : (tensor<4x2xbool>, tensor<4x2xf32>, tensor<f32>) -> tensor<4x2xf32>
// CHECK-NEXT: (%15) = "pd_op.sum" (%14) {axis:i64[0], dtype:none, keepdim:false} : (tensor<4x2xf32>) -> tensor<2xf32>
// CHECK-NEXT: (%16) = "pd_op.matmul" (%0, %14) {transpose_x:true, transpose_y:false} : (tensor<4x3xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
// CHECK-NEXT: () = "pd_op.fetch" (%16) {name:"w@GRAD", col:1} : (tensor<3x2xf32>) -> ()
// CHECK-NEXT: () = "pd_op.fetch" (%15) {name:"b@GRAD", col:2} : (tensor<2xf32>) -> ()
{
  (%x) = "pd_op.data" () {name:"x", shape:shape[4, 3], dtype:float32} : () -> tensor<4x3xf32>
  (%w) = "builtin.parameter" () {parameter_name:"w"} : () -> tensor<3x2xf32>
  (%b) = "builtin.parameter" () {parameter_name:"b"} : () -> tensor<2xf32>
  (%h) = "pd_op.matmul" (%x, %w) {transpose_x:false, transpose_y:false} : (tensor<4x3xf32>, tensor<3x2xf32>) -> tensor<4x2xf32>
  (%z) = "pd_op.add" (%h, %b) {} : (tensor<4x2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
  (%r) = "pd_op.relu" (%z) {} : (tensor<4x2xf32>) -> tensor<4x2xf32>
  (%l) = "pd_op.mean" (%r) {axis:none, keepdim:false} : (tensor<4x2xf32>) -> tensor<f32>
  () = "pd_op.fetch" (%l) {name:"loss", col:0} : (tensor<f32>) -> ()
}
