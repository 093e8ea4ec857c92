// RUN: verify-error
// SSA dominance: a use before the definition, a value used outside the region defining it,
// and an op using its own result. Op numbers count nested ops in pre-order.
// CHECK: op #0 "pd_op.add": operand 0 (%1) is used before its definition
// CHECK-NEXT: at: (%0) = "pd_op.add" (%1, %1)
// CHECK-NEXT: op #0 "pd_op.add": operand 1 (%1) is used before its definition
// CHECK: op #5 "pd_op.add": operand 0 (%4) is used outside the region that defines it
// CHECK: op #6 "pd_op.add": operand 1 (%6) is used inside the op that defines it
{
  (%0) = "pd_op.add" (%1, %1) {} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  (%1) = "pd_op.data" () {name:"x", shape:shape[3], dtype:float32} : () -> tensor<3xf32>
  (%2) = "test.loop" (%1) {} ({
    ^bb0(%3: tensor<3xf32>):
      (%4) = "pd_op.add" (%3, %1) {} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
      () = "builtin.yield" (%4) {} : (tensor<3xf32>) -> ()
  }) : (tensor<3xf32>) -> tensor<3xf32>
  (%5) = "pd_op.add" (%4, %1) {} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  (%6) = "pd_op.add" (%1, %6) {} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
}
