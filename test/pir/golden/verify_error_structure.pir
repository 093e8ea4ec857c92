// RUN: verify-error
// Structural errors named with the op and its position: operand counts, attributes, unknown
// ops of a known dialect, a missing terminator, and list plumbing.
// CHECK: op #1 "pd_op.add": expects 2 operand(s) (x, y), got 1
// CHECK: op #2 "pd_op.cast": missing attribute 'dtype'
// CHECK-NEXT: at: (%2) = "pd_op.cast" (%0) {} : (tensor<3xf32>) -> tensor<3xf32>
// CHECK: op #3 "pd_op.cast": attribute 'dtype' (dtype) cannot be int
// CHECK: op #4 "pd_op.full": unexpected attribute 'color' (expected shape, fill_value, dtype)
// CHECK: op #5 "pd_op.no_such_op": unknown op 'pd_op.no_such_op' in dialect 'pd_op'
// CHECK: op #6 "test.loop": block 0 of region 0 does not end with a terminator
// CHECK: op #7 "builtin.yield": a terminator must be the last op of its block
// CHECK: op #9 "pd_op.concat": variadic input 'x' must be a vector, got tensor<3xf32>
// CHECK: op #11 "builtin.split": result 1 has type tensor<3xf64> but infer-meta gives tensor<3xf32>
// CHECK: op #12 "pd_op.fetch": missing attribute 'col'
// CHECK-NOT: op #0
{
  (%0) = "pd_op.data" () {name:"x", shape:shape[3], dtype:float32} : () -> tensor<3xf32>
  (%1) = "pd_op.add" (%0) {} : (tensor<3xf32>) -> tensor<3xf32>
  (%2) = "pd_op.cast" (%0) {} : (tensor<3xf32>) -> tensor<3xf32>
  (%3) = "pd_op.cast" (%0) {dtype:3} : (tensor<3xf32>) -> tensor<3xf32>
  (%4) = "pd_op.full" () {shape:i64[3], fill_value:1, dtype:float32, color:"red"} : () -> tensor<3xf32>
  (%5) = "pd_op.no_such_op" (%0) {} : (tensor<3xf32>) -> tensor<3xf32>
  (%6) = "test.loop" (%0) {} ({
    ^bb0(%7: tensor<3xf32>):
      () = "builtin.yield" (%7) {} : (tensor<3xf32>) -> ()
      (%8) = "pd_op.add" (%7, %7) {} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  }) : (tensor<3xf32>) -> tensor<3xf32>
  (%9) = "pd_op.concat" (%0) {axis:0} : (tensor<3xf32>) -> tensor<3xf32>
  (%10) = "builtin.combine" (%0, %0) {} : (tensor<3xf32>, tensor<3xf32>) -> vec[tensor<3xf32>, tensor<3xf32>]
  (%11, %12) = "builtin.split" (%10) {} : (vec[tensor<3xf32>, tensor<3xf32>]) -> (tensor<3xf32>, tensor<3xf64>)
  () = "pd_op.fetch" (%11) {name:"y"} : (tensor<3xf32>) -> ()
}
