// RUN: passes canonicalize
// squeeze(unsqueeze(x, a), a) is x; unsqueeze(squeeze(x, a), a) is x when the squeezed dims were
// 1; slices and strided slices that take every element are x. A real slice stays.
// CHECK: (%0) = "pd_op.data"
// CHECK-NEXT: (%1) = "pd_op.slice" (%0) {axes:i64[2], starts:i64[0], ends:i64[2]}
// CHECK-NEXT: "pd_op.fetch" (%0) {name:"f"
// CHECK-NEXT: "pd_op.fetch" (%1) {name:"g"
// CHECK-NOT: squeeze
{
  (%x) = "pd_op.data" () {name:"x", shape:shape[2, 1, 3], dtype:float32} : () -> tensor<2x1x3xf32>
  (%a) = "pd_op.unsqueeze" (%x) {axis:i64[0]} : (tensor<2x1x3xf32>) -> tensor<1x2x1x3xf32>
  (%b) = "pd_op.squeeze" (%a) {axis:i64[0]} : (tensor<1x2x1x3xf32>) -> tensor<2x1x3xf32>
  (%c) = "pd_op.squeeze" (%b) {axis:i64[1]} : (tensor<2x1x3xf32>) -> tensor<2x3xf32>
  (%d) = "pd_op.unsqueeze" (%c) {axis:i64[1]} : (tensor<2x3xf32>) -> tensor<2x1x3xf32>
  (%e) = "pd_op.slice" (%d) {axes:i64[0, 2], starts:i64[0, 0], ends:i64[2, 100]} : (tensor<2x1x3xf32>) -> tensor<2x1x3xf32>
  (%f) = "pd_op.strided_slice" (%e) {axes:i64[2], starts:i64[0], ends:i64[3], strides:i64[1]} : (tensor<2x1x3xf32>) -> tensor<2x1x3xf32>
  (%g) = "pd_op.slice" (%f) {axes:i64[2], starts:i64[0], ends:i64[2]} : (tensor<2x1x3xf32>) -> tensor<2x1x2xf32>
  () = "pd_op.fetch" (%f) {name:"f", col:0} : (tensor<2x1x3xf32>) -> ()
  () = "pd_op.fetch" (%g) {name:"g", col:1} : (tensor<2x1x2xf32>) -> ()
}
