// RUN: passes infer_symbolic_shapes
// Shape-constraint inference: the relations the ops' infer rules assume between symbols become
// shape.tie_product_equal ops at the top of the program (broadcast: s0 == s5; matmul's inner
// dims: s1 == s6; a concat's sum against another input: s1+s2 == s3; a flattening reshape
// against another input: s0*s1 == s4). Symbols equal to each other print as `first == other`.
// CHECK: () = "shape.tie_product_equal" () {lhs:shape[s0], rhs:shape[s5]}
// CHECK-NEXT: () = "shape.tie_product_equal" () {lhs:shape[s1], rhs:shape[s6]}
// CHECK-NEXT: () = "shape.tie_product_equal" () {lhs:shape[(s1+s2)], rhs:shape[s3]}
// CHECK-NEXT: () = "shape.tie_product_equal" () {lhs:shape[s0, s1], rhs:shape[s4]}
// CHECK-NEXT: (%0) = "pd_op.data" () {name:"x"
// CHECK-NOT: shape.tie_product_equal
{
  (%x) = "pd_op.data" () {name:"x", shape:shape[s0, s1], dtype:float32} : () -> tensor<s0xs1xf32>
  (%m) = "pd_op.data" () {name:"m", shape:shape[s0, s2], dtype:float32} : () -> tensor<s0xs2xf32>
  (%r) = "pd_op.data" () {name:"r", shape:shape[s0, s3], dtype:float32} : () -> tensor<s0xs3xf32>
  (%t) = "pd_op.data" () {name:"t", shape:shape[s4], dtype:float32} : () -> tensor<s4xf32>
  (%y) = "pd_op.data" () {name:"y", shape:shape[s5, s1], dtype:float32} : () -> tensor<s5xs1xf32>
  (%w) = "pd_op.data" () {name:"w", shape:shape[s6, 8], dtype:float32} : () -> tensor<s6x8xf32>
  (%l) = "builtin.combine" (%x, %m) {} : (tensor<s0xs1xf32>, tensor<s0xs2xf32>) -> vec[tensor<s0xs1xf32>, tensor<s0xs2xf32>]
  (%c) = "pd_op.concat" (%l) {axis:1} : (vec[tensor<s0xs1xf32>, tensor<s0xs2xf32>]) -> tensor<s0x(s1+s2)xf32>
  (%a) = "pd_op.add" (%c, %r) {} : (tensor<s0x(s1+s2)xf32>, tensor<s0xs3xf32>) -> tensor<s0x(s1+s2)xf32>
  (%f) = "pd_op.reshape" (%x) {shape:i64[-1]} : (tensor<s0xs1xf32>) -> tensor<(s0*s1)xf32>
  (%b) = "pd_op.add" (%f, %t) {} : (tensor<(s0*s1)xf32>, tensor<s4xf32>) -> tensor<(s0*s1)xf32>
  (%s) = "pd_op.subtract" (%x, %y) {} : (tensor<s0xs1xf32>, tensor<s5xs1xf32>) -> tensor<s0xs1xf32>
  (%p) = "pd_op.matmul" (%s, %w) {transpose_x:false, transpose_y:false} : (tensor<s0xs1xf32>, tensor<s6x8xf32>) -> tensor<s0x8xf32>
  () = "pd_op.fetch" (%a) {name:"a", col:0} : (tensor<s0x(s1+s2)xf32>) -> ()
  () = "pd_op.fetch" (%b) {name:"b", col:1} : (tensor<(s0*s1)xf32>) -> ()
  () = "pd_op.fetch" (%p) {name:"p", col:2} : (tensor<s0x8xf32>) -> ()
}
