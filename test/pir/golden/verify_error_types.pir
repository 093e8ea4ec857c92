// RUN: verify-error
// Declared result types that disagree with the registry's infer (re-run by the verifier).
// CHECK: PIR verification failed with 3 error(s):
// CHECK-NEXT: op #2 "pd_op.add": result 0 has type tensor<2x5xf32> but infer-meta gives tensor<2x4xf32>
// CHECK-NEXT: at: (%2) = "pd_op.add" (%0, %1) {} : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x5xf32>
// CHECK-NEXT: op #3 "pd_op.cast": result 0 has type tensor<2x4xf32> but infer-meta gives tensor<2x4xi32>
// CHECK-NEXT: at: (%3) = "pd_op.cast"
// CHECK-NEXT: op #5 "pd_op.add": infer-meta rejects the operands: add: shapes [2, 4] and [3] cannot be broadcast
{
  (%0) = "pd_op.data" () {name:"x", shape:shape[2, 4], dtype:float32} : () -> tensor<2x4xf32>
  (%1) = "builtin.parameter" () {parameter_name:"b"} : () -> tensor<4xf32>
  (%2) = "pd_op.add" (%0, %1) {} : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x5xf32>
  (%3) = "pd_op.cast" (%0) {dtype:int32} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  (%4) = "builtin.parameter" () {parameter_name:"c"} : () -> tensor<3xf32>
  (%5) = "pd_op.add" (%0, %4) {} : (tensor<2x4xf32>, tensor<3xf32>) -> tensor<2x4xf32>
}
