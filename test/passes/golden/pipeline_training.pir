// RUN: pipeline training
// The training pipeline on the program of pipeline_inference.pir: the same folding,
// canonicalization, CSE and DCE, but no fusion (fused_gemm_epilogue has no grad rule).
// CHECK: (%0) = "pd_op.data" () {name:"x"
// CHECK-NEXT: (%1) = "builtin.parameter" () {parameter_name:"w1"}
// CHECK-NEXT: (%2) = "builtin.parameter" () {parameter_name:"b1"}
// CHECK-NEXT: (%3) = "pd_op.matmul" (%0, %1)
// CHECK-NEXT: (%4) = "pd_op.add" (%3, %2)
// CHECK-NEXT: (%5) = "pd_op.relu" (%4)
// CHECK-NEXT: (%6) = "pd_op.add" (%5, %5)
// CHECK-NEXT: "pd_op.fetch" (%6) {name:"out", col:0}
// CHECK-NEXT: }
// CHECK-NOT: fused_gemm_epilogue
{
  (%x) = "pd_op.data" () {name:"x", shape:shape[s0, 8], dtype:float32} : () -> tensor<s0x8xf32>
  (%w1) = "builtin.parameter" () {parameter_name:"w1"} : () -> tensor<8x16xf32>
  (%b1) = "builtin.parameter" () {parameter_name:"b1"} : () -> tensor<16xf32>
  (%unused) = "builtin.parameter" () {parameter_name:"unused"} : () -> tensor<16xf32>
  (%two) = "builtin.constant" () {value:2.0} : () -> tensor<f32>
  (%half) = "pd_op.full" () {shape:i64[], fill_value:0.5, dtype:float32} : () -> tensor<f32>
  (%one) = "pd_op.multiply" (%two, %half) {} : (tensor<f32>, tensor<f32>) -> tensor<f32>
  (%xt) = "pd_op.transpose" (%x) {perm:i64[1, 0]} : (tensor<s0x8xf32>) -> tensor<8xs0xf32>
  (%xtt) = "pd_op.transpose" (%xt) {perm:i64[1, 0]} : (tensor<8xs0xf32>) -> tensor<s0x8xf32>
  (%xs) = "pd_op.multiply" (%xtt, %one) {} : (tensor<s0x8xf32>, tensor<f32>) -> tensor<s0x8xf32>
  (%m1) = "pd_op.matmul" (%xs, %w1) {transpose_x:false, transpose_y:false} : (tensor<s0x8xf32>, tensor<8x16xf32>) -> tensor<s0x16xf32>
  (%h1) = "pd_op.add" (%m1, %b1) {} : (tensor<s0x16xf32>, tensor<16xf32>) -> tensor<s0x16xf32>
  (%r1) = "pd_op.relu" (%h1) {} : (tensor<s0x16xf32>) -> tensor<s0x16xf32>
  (%m2) = "pd_op.matmul" (%x, %w1) {transpose_x:false, transpose_y:false} : (tensor<s0x8xf32>, tensor<8x16xf32>) -> tensor<s0x16xf32>
  (%h2) = "pd_op.add" (%m2, %b1) {} : (tensor<s0x16xf32>, tensor<16xf32>) -> tensor<s0x16xf32>
  (%r2) = "pd_op.relu" (%h2) {} : (tensor<s0x16xf32>) -> tensor<s0x16xf32>
  (%dead) = "pd_op.exp" (%r2) {} : (tensor<s0x16xf32>) -> tensor<s0x16xf32>
  (%out) = "pd_op.add" (%r1, %r2) {} : (tensor<s0x16xf32>, tensor<s0x16xf32>) -> tensor<s0x16xf32>
  () = "pd_op.fetch" (%out) {name:"out", col:0} : (tensor<s0x16xf32>) -> ()
}
