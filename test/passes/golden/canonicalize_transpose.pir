// RUN: passes canonicalize
// transpose(transpose(x)) with perms that compose to the identity disappears; others become one
// transpose with the composed perm; an identity perm is dropped; a shared inner transpose stays
// for its other user.
// CHECK: (%0) = "pd_op.data"
// CHECK-NEXT: (%1) = "pd_op.transpose" (%0) {perm:i64[2, 0, 1]}
// CHECK-NEXT: (%2) = "pd_op.transpose" (%0) {perm:i64[2, 1, 0]} : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
// CHECK-NEXT: (%3) = "pd_op.relu" (%1)
// CHECK-NOT: pd_op.transpose
// CHECK: "pd_op.fetch" (%0) {name:"b", col:0}
// CHECK-NEXT: "pd_op.fetch" (%2) {name:"d", col:1}
// CHECK-NEXT: "pd_op.fetch" (%0) {name:"e", col:2}
// CHECK-NEXT: "pd_op.fetch" (%3) {name:"f", col:3}
{
  (%x) = "pd_op.data" () {name:"x", shape:shape[2, 3, 4], dtype:float32} : () -> tensor<2x3x4xf32>
  (%a) = "pd_op.transpose" (%x) {perm:i64[1, 0, 2]} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  (%b) = "pd_op.transpose" (%a) {perm:i64[1, 0, 2]} : (tensor<3x2x4xf32>) -> tensor<2x3x4xf32>
  (%c) = "pd_op.transpose" (%x) {perm:i64[2, 0, 1]} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  (%d) = "pd_op.transpose" (%c) {perm:i64[0, 2, 1]} : (tensor<4x2x3xf32>) -> tensor<4x3x2xf32>
  (%e) = "pd_op.transpose" (%x) {perm:i64[0, 1, -1]} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  (%f) = "pd_op.relu" (%c) {} : (tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
  () = "pd_op.fetch" (%b) {name:"b", col:0} : (tensor<2x3x4xf32>) -> ()
  () = "pd_op.fetch" (%d) {name:"d", col:1} : (tensor<4x3x2xf32>) -> ()
  () = "pd_op.fetch" (%e) {name:"e", col:2} : (tensor<2x3x4xf32>) -> ()
  () = "pd_op.fetch" (%f) {name:"f", col:3} : (tensor<4x2x3xf32>) -> ()
}
