// RUN: passes fuse_gemm_epilogue
// matmul + bias add becomes fused_gemm_epilogue, the add in either operand order, and a following
// relu/gelu moves into the epilogue. Not fused: a matmul with another user (it would be computed
// twice), a 2-D bias, a 1-D x.
// CHECK: (%5) = "pd_op.fused_gemm_epilogue" (%0, %1, %2) {trans_x:false, trans_y:false, activation:"relu"} : (tensor<s0x8xf32>, tensor<8x16xf32>, tensor<16xf32>) -> tensor<s0x16xf32>
// CHECK-NEXT: (%6) = "pd_op.fused_gemm_epilogue" (%5, %3, %4) {trans_x:false, trans_y:true, activation:"gelu_tanh"}
// CHECK-NEXT: (%7) = "pd_op.matmul" (%0, %1)
// CHECK-NEXT: (%8) = "pd_op.add" (%7, %2)
// CHECK-NEXT: (%9) = "pd_op.data" () {name:"bias2d"
// CHECK-NEXT: (%10) = "pd_op.matmul" (%0, %1)
// CHECK-NEXT: (%11) = "pd_op.add" (%10, %9)
// CHECK-NEXT: (%12) = "pd_op.data" () {name:"v"
// CHECK-NEXT: (%13) = "pd_op.matmul" (%12, %1)
// CHECK-NEXT: (%14) = "pd_op.add" (%13, %2)
// CHECK-NEXT: "pd_op.fetch" (%6) {name:"out"
// CHECK-NOT: pd_op.relu
// CHECK-NOT: pd_op.gelu
{
  (%x) = "pd_op.data" () {name:"x", shape:shape[s0, 8], dtype:float32} : () -> tensor<s0x8xf32>
  (%w1) = "builtin.parameter" () {parameter_name:"w1"} : () -> tensor<8x16xf32>
  (%b1) = "builtin.parameter" () {parameter_name:"b1"} : () -> tensor<16xf32>
  (%w2) = "builtin.parameter" () {parameter_name:"w2"} : () -> tensor<4x16xf32>
  (%b2) = "builtin.parameter" () {parameter_name:"b2"} : () -> tensor<4xf32>
  (%m1) = "pd_op.matmul" (%x, %w1) {transpose_x:false, transpose_y:false} : (tensor<s0x8xf32>, tensor<8x16xf32>) -> tensor<s0x16xf32>
  (%h1) = "pd_op.add" (%m1, %b1) {} : (tensor<s0x16xf32>, tensor<16xf32>) -> tensor<s0x16xf32>
  (%r1) = "pd_op.relu" (%h1) {} : (tensor<s0x16xf32>) -> tensor<s0x16xf32>
  (%m2) = "pd_op.matmul" (%r1, %w2) {transpose_x:false, transpose_y:true} : (tensor<s0x16xf32>, tensor<4x16xf32>) -> tensor<s0x4xf32>
  (%h2) = "pd_op.add" (%b2, %m2) {} : (tensor<4xf32>, tensor<s0x4xf32>) -> tensor<s0x4xf32>
  (%g2) = "pd_op.gelu" (%h2) {approximate:true} : (tensor<s0x4xf32>) -> tensor<s0x4xf32>
  (%m3) = "pd_op.matmul" (%x, %w1) {transpose_x:false, transpose_y:false} : (tensor<s0x8xf32>, tensor<8x16xf32>) -> tensor<s0x16xf32>
  (%h3) = "pd_op.add" (%m3, %b1) {} : (tensor<s0x16xf32>, tensor<16xf32>) -> tensor<s0x16xf32>
  (%bias2d) = "pd_op.data" () {name:"bias2d", shape:shape[s0, 16], dtype:float32} : () -> tensor<s0x16xf32>
  (%m4) = "pd_op.matmul" (%x, %w1) {transpose_x:false, transpose_y:false} : (tensor<s0x8xf32>, tensor<8x16xf32>) -> tensor<s0x16xf32>
  (%h4) = "pd_op.add" (%m4, %bias2d) {} : (tensor<s0x16xf32>, tensor<s0x16xf32>) -> tensor<s0x16xf32>
  (%v) = "pd_op.data" () {name:"v", shape:shape[8], dtype:float32} : () -> tensor<8xf32>
  (%m5) = "pd_op.matmul" (%v, %w1) {transpose_x:false, transpose_y:false} : (tensor<8xf32>, tensor<8x16xf32>) -> tensor<16xf32>
  (%h5) = "pd_op.add" (%m5, %b1) {} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  () = "pd_op.fetch" (%g2) {name:"out", col:0} : (tensor<s0x4xf32>) -> ()
  () = "pd_op.fetch" (%h3) {name:"h3", col:1} : (tensor<s0x16xf32>) -> ()
  () = "pd_op.fetch" (%m3) {name:"m3", col:2} : (tensor<s0x16xf32>) -> ()
  () = "pd_op.fetch" (%h4) {name:"h4", col:3} : (tensor<s0x16xf32>) -> ()
  () = "pd_op.fetch" (%h5) {name:"h5", col:4} : (tensor<16xf32>) -> ()
}
