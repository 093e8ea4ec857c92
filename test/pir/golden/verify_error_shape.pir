// RUN: verify-error
// Constraints relate named symbols and sizes: no unknown dims, no negative sizes, attributes
// of kind shape, and only at the top level.
// CHECK: PIR verification failed with 3 error(s):
// CHECK-NEXT: op #0 "shape.tie_product_equal": lhs holds an unknown dim (?); constraints relate named symbols
// CHECK: op #1 "shape.tie_product_equal": rhs holds dim -2, not a size
// CHECK: op #2 "shape.tie_product_equal": attribute 'rhs' must be shape, got ints
{
  () = "shape.tie_product_equal" () {lhs:shape[?], rhs:shape[s0]} : () -> ()
  () = "shape.tie_product_equal" () {lhs:shape[s0], rhs:shape[-2]} : () -> ()
  () = "shape.tie_product_equal" () {lhs:shape[s0], rhs:i64[2]} : () -> ()
  (%0) = "pd_op.data" () {name:"x", shape:shape[s0], dtype:float32} : () -> tensor<s0xf32>
  () = "pd_op.fetch" (%0) {name:"x", col:0} : (tensor<s0xf32>) -> ()
}
