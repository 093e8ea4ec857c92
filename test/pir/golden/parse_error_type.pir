// RUN: parse-error
// A malformed tensor type: the error gives line:column and the op being parsed.
// CHECK: 6:{{[0-9]+}}: expected an element type (f32, i64, bool, ...) at the end of the tensor type (in "pd_op.data")
{
  (%0) = "pd_op.data" () {name:"x", shape:shape[3], dtype:float32} : () -> tensor<3xf32>
  (%1) = "pd_op.data" () {name:"y", shape:shape[3], dtype:float32} : () -> tensor<3x4>
}
