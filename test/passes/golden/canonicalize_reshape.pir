// RUN: passes canonicalize
// reshape(reshape(x)) becomes one reshape; a reshape to the same type goes away; an outer shape
// with a 0 (copy a dim of the inner result) is left alone unless the pair gives x's own type
// back; symbolic dims flow through.
// CHECK: (%1) = "pd_op.reshape" (%0) {shape:i64[-1, 3]} : (tensor<s0x6xf32>) -> tensor<(2*s0)x3xf32>
// CHECK-NEXT: "pd_op.data" () {name:"y"
// CHECK-NEXT: (%3) = "pd_op.reshape" (%2) {shape:i64[4, 2, 3]}
// CHECK: "pd_op.fetch" (%1) {name:"b"
// CHECK-NEXT: "pd_op.fetch" (%0) {name:"c"
// CHECK-NEXT: (%4) = "pd_op.reshape" (%3) {shape:i64[0, 3, 2]}
// CHECK-NEXT: "pd_op.fetch" (%2) {name:"e"
// CHECK-NEXT: "pd_op.fetch" (%4) {name:"k"
// CHECK-NOT: pd_op.reshape
{
  (%x) = "pd_op.data" () {name:"x", shape:shape[s0, 6], dtype:float32} : () -> tensor<s0x6xf32>
  (%a) = "pd_op.reshape" (%x) {shape:i64[-1, 2, 3]} : (tensor<s0x6xf32>) -> tensor<s0x2x3xf32>
  (%b) = "pd_op.reshape" (%a) {shape:i64[-1, 3]} : (tensor<s0x2x3xf32>) -> tensor<(2*s0)x3xf32>
  (%c) = "pd_op.reshape" (%x) {shape:i64[0, 6]} : (tensor<s0x6xf32>) -> tensor<s0x6xf32>
  (%y) = "pd_op.data" () {name:"y", shape:shape[4, 6], dtype:float32} : () -> tensor<4x6xf32>
  (%d) = "pd_op.reshape" (%y) {shape:i64[4, 2, 3]} : (tensor<4x6xf32>) -> tensor<4x2x3xf32>
  (%e) = "pd_op.reshape" (%d) {shape:i64[0, 6]} : (tensor<4x2x3xf32>) -> tensor<4x6xf32>
  () = "pd_op.fetch" (%b) {name:"b", col:0} : (tensor<(2*s0)x3xf32>) -> ()
  () = "pd_op.fetch" (%c) {name:"c", col:1} : (tensor<s0x6xf32>) -> ()
  (%k) = "pd_op.reshape" (%d) {shape:i64[0, 3, 2]} : (tensor<4x2x3xf32>) -> tensor<4x3x2xf32>
  () = "pd_op.fetch" (%e) {name:"e", col:2} : (tensor<4x6xf32>) -> ()
  () = "pd_op.fetch" (%k) {name:"k", col:3} : (tensor<4x3x2xf32>) -> ()
}
