// RUN: parse-error
// A value used but never defined: the error points at the use, naming the op.
// CHECK: 6:27: use of undefined value %7 (in "pd_op.add")
{
  (%0) = "pd_op.data" () {name:"x", shape:shape[3], dtype:float32} : () -> tensor<3xf32>
  (%1) = "pd_op.add" (%0, %7) {} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
}
