// RUN: verify
// Paddle's padding forms on an int[] attribute: 'SAME' / 'VALID' as a string and per-dim pairs
// as an array of i64 arrays. They verify, round-trip, and infer the same shapes as eager.
// CHECK: padding:"SAME"
// CHECK-SAME: -> tensor<1x3x5x5xf32>
// CHECK: padding:[i64[0, 0], i64[0, 0], i64[1, 1], i64[2, 0]]
// CHECK-SAME: -> tensor<1x3x5x5xf32>
// CHECK: padding:"VALID"
// CHECK-SAME: -> tensor<1x1x3x3xf32>
{
  (%0) = "pd_op.data" () {name:"x", shape:shape[1, 2, 5, 5], dtype:float32} : () -> tensor<1x2x5x5xf32>
  (%1) = "pd_op.data" () {name:"w", shape:shape[3, 2, 3, 3], dtype:float32} : () -> tensor<3x2x3x3xf32>
  (%2) = "pd_op.conv2d" (%0, %1, none) {stride:1, padding:"SAME", dilation:1, groups:1, data_format:"NCHW"} : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>, none) -> tensor<1x3x5x5xf32>
  (%3) = "pd_op.conv2d" (%0, %1, none) {stride:1, padding:[i64[0, 0], i64[0, 0], i64[1, 1], i64[2, 0]], dilation:1, groups:1, data_format:"NCHW"} : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>, none) -> tensor<1x3x5x5xf32>
  (%4) = "pd_op.data" () {name:"p", shape:shape[1, 1, 7, 7], dtype:float32} : () -> tensor<1x1x7x7xf32>
  (%5) = "pd_op.max_pool2d" (%4) {kernel_size:3, stride:2, padding:"VALID", return_mask:false, ceil_mode:false, data_format:"NCHW"} : (tensor<1x1x7x7xf32>) -> tensor<1x1x3x3xf32>
  () = "pd_op.fetch" (%2) {name:"a", col:0} : (tensor<1x3x5x5xf32>) -> ()
  () = "pd_op.fetch" (%3) {name:"b", col:1} : (tensor<1x3x5x5xf32>) -> ()
}
