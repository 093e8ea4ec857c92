// RUN: passes fuse_softmax_mask
// softmax over causally masked scores becomes fused_softmax_mask_upper_triangle: an additive
// constant mask (0 on and below the diagonal, -inf above), triu(full(-inf), 1) built in the
// program, masked_fill with a bool mask true above the diagonal (fill -1e9), where keeping the
// lower triangle. Not fused: a mask that is not causal, a softmax over another axis.
// CHECK: (%0) = "pd_op.data" () {name:"s", shape:shape[s0, 2, 3, 3], dtype:float32}
// CHECK-NEXT: (%1) = "builtin.constant" () {value:f64[0.0, -inf, -inf, 0.0, 0.0, -inf, 0.0, 0.0, 0.0]}
// CHECK-NEXT: (%2) = "pd_op.fused_softmax_mask_upper_triangle" (%0) {}
// CHECK-NEXT: (%3) = "pd_op.fused_softmax_mask_upper_triangle" (%2) {}
// CHECK-NEXT: (%4) = "pd_op.fused_softmax_mask_upper_triangle" (%3) {}
// CHECK-NEXT: (%5) = "pd_op.fused_softmax_mask_upper_triangle" (%4) {}
// CHECK-NEXT: (%6) = "builtin.constant" () {value:f64[0.0, -inf, 0.0, 0.0, 0.0, -inf, 0.0, 0.0, 0.0]}
// CHECK-NEXT: (%7) = "pd_op.add" (%5, %6) {}
// CHECK-NEXT: (%8) = "pd_op.softmax" (%7) {axis:-1, dtype:none}
// CHECK-NEXT: (%9) = "pd_op.add" (%8, %1) {}
// CHECK-NEXT: (%10) = "pd_op.softmax" (%9) {axis:2, dtype:none}
// CHECK-NEXT: () = "pd_op.fetch" (%10) {name:"out", col:0}
// CHECK-NEXT: }
{
  (%s) = "pd_op.data" () {name:"s", shape:shape[s0, 2, 3, 3], dtype:float32} : () -> tensor<s0x2x3x3xf32>
  (%m) = "builtin.constant" () {value:f64[0.0, -inf, -inf, 0.0, 0.0, -inf, 0.0, 0.0, 0.0]} : () -> tensor<3x3xf32>
  (%a1) = "pd_op.add" (%s, %m) {} : (tensor<s0x2x3x3xf32>, tensor<3x3xf32>) -> tensor<s0x2x3x3xf32>
  (%p1) = "pd_op.softmax" (%a1) {axis:-1, dtype:none} : (tensor<s0x2x3x3xf32>) -> tensor<s0x2x3x3xf32>
  (%f) = "pd_op.full" () {shape:i64[3, 3], fill_value:-inf, dtype:float32} : () -> tensor<3x3xf32>
  (%t) = "pd_op.triu" (%f) {diagonal:1} : (tensor<3x3xf32>) -> tensor<3x3xf32>
  (%a2) = "pd_op.add" (%t, %p1) {} : (tensor<3x3xf32>, tensor<s0x2x3x3xf32>) -> tensor<s0x2x3x3xf32>
  (%p2) = "pd_op.softmax" (%a2) {axis:3, dtype:none} : (tensor<s0x2x3x3xf32>) -> tensor<s0x2x3x3xf32>
  (%up) = "builtin.constant" () {value:i64[0, 1, 1, 0, 0, 1, 0, 0, 0]} : () -> tensor<1x3x3xbool>
  (%big) = "builtin.constant" () {value:-1000000000.0} : () -> tensor<f32>
  (%a3) = "pd_op.masked_fill" (%p2, %up, %big) {} : (tensor<s0x2x3x3xf32>, tensor<1x3x3xbool>, tensor<f32>) -> tensor<s0x2x3x3xf32>
  (%p3) = "pd_op.softmax" (%a3) {axis:-1, dtype:none} : (tensor<s0x2x3x3xf32>) -> tensor<s0x2x3x3xf32>
  (%lo) = "builtin.constant" () {value:i64[1, 0, 0, 1, 1, 0, 1, 1, 1]} : () -> tensor<3x3xbool>
  (%ninf) = "builtin.constant" () {value:-inf} : () -> tensor<f32>
  (%a4) = "pd_op.where" (%lo, %p3, %ninf) {} : (tensor<3x3xbool>, tensor<s0x2x3x3xf32>, tensor<f32>) -> tensor<s0x2x3x3xf32>
  (%p4) = "pd_op.softmax" (%a4) {axis:-1, dtype:none} : (tensor<s0x2x3x3xf32>) -> tensor<s0x2x3x3xf32>
  (%notc) = "builtin.constant" () {value:f64[0.0, -inf, 0.0, 0.0, 0.0, -inf, 0.0, 0.0, 0.0]} : () -> tensor<3x3xf32>
  (%a5) = "pd_op.add" (%p4, %notc) {} : (tensor<s0x2x3x3xf32>, tensor<3x3xf32>) -> tensor<s0x2x3x3xf32>
  (%p5) = "pd_op.softmax" (%a5) {axis:-1, dtype:none} : (tensor<s0x2x3x3xf32>) -> tensor<s0x2x3x3xf32>
  (%a6) = "pd_op.add" (%p5, %m) {} : (tensor<s0x2x3x3xf32>, tensor<3x3xf32>) -> tensor<s0x2x3x3xf32>
  (%p6) = "pd_op.softmax" (%a6) {axis:2, dtype:none} : (tensor<s0x2x3x3xf32>) -> tensor<s0x2x3x3xf32>
  () = "pd_op.fetch" (%p6) {name:"out", col:0} : (tensor<s0x2x3x3xf32>) -> ()
}
