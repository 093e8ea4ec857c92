// RUN: verify
// The shape dialect: shape.tie_product_equal records product(lhs) == product(rhs) between
// symbolic dims; one dim per side is an equality, a compound dim (a concat's sum) prints in
// parentheses. The program round-trips and verifies.
// CHECK: "shape.tie_product_equal" () {lhs:shape[(s1+s2)], rhs:shape[s3]}
// CHECK-NEXT: "shape.tie_product_equal" () {lhs:shape[s0, s1], rhs:shape[s4]}
// CHECK-NEXT: "shape.tie_product_equal" () {lhs:shape[s5], rhs:shape[4]}
{
  () = "shape.tie_product_equal" () {lhs:shape[(s1+s2)], rhs:shape[s3]} : () -> ()
  () = "shape.tie_product_equal" () {lhs:shape[s0, s1], rhs:shape[s4]} : () -> ()
  () = "shape.tie_product_equal" () {lhs:shape[s5], rhs:shape[4]} : () -> ()
  (%0) = "pd_op.data" () {name:"x", shape:shape[s0, s1], dtype:float32} : () -> tensor<s0xs1xf32>
  (%1) = "pd_op.data" () {name:"m", shape:shape[s0, s2], dtype:float32} : () -> tensor<s0xs2xf32>
  (%2) = "pd_op.data" () {name:"r", shape:shape[s0, s3], dtype:float32} : () -> tensor<s0xs3xf32>
  (%3) = "pd_op.data" () {name:"t", shape:shape[s4], dtype:float32} : () -> tensor<s4xf32>
  (%4) = "builtin.combine" (%0, %1) {} : (tensor<s0xs1xf32>, tensor<s0xs2xf32>) -> vec[tensor<s0xs1xf32>, tensor<s0xs2xf32>]
  (%5) = "pd_op.concat" (%4) {axis:1} : (vec[tensor<s0xs1xf32>, tensor<s0xs2xf32>]) -> tensor<s0x(s1+s2)xf32>
  (%6) = "pd_op.add" (%5, %2) {} : (tensor<s0x(s1+s2)xf32>, tensor<s0xs3xf32>) -> tensor<s0x(s1+s2)xf32>
  (%7) = "pd_op.reshape" (%0) {shape:i64[-1]} : (tensor<s0xs1xf32>) -> tensor<(s0*s1)xf32>
  (%8) = "pd_op.add" (%7, %3) {} : (tensor<(s0*s1)xf32>, tensor<s4xf32>) -> tensor<(s0*s1)xf32>
  () = "pd_op.fetch" (%6) {name:"a", col:0} : (tensor<s0x(s1+s2)xf32>) -> ()
  () = "pd_op.fetch" (%8) {name:"b", col:1} : (tensor<(s0*s1)xf32>) -> ()
}
