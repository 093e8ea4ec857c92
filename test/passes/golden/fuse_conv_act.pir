// RUN: passes fuse_conv_act,dce
// conv2d (with the bias conv+bn folding leaves, or none) followed by relu / relu6 / hardswish
// becomes fused_conv2d_add_act with the activation in the kernel's epilogue: regular and
// depthwise convolutions, chains (a fused op feeding the next conv). Not fused: a conv whose
// output is also read elsewhere (it would be computed twice), other activations (sigmoid).
// Residual blocks: relu(conv2d + identity), either add order, with or without bias, become the
// fused op with the identity as residual_data (operand 3); a broadcast identity does not.
// CHECK: {
// CHECK-NEXT: (%0) = "pd_op.data" () {name:"x", shape:shape[s0, 2, 8, 8], dtype:float32}
// CHECK-NEXT: (%1) = "builtin.parameter" () {parameter_name:"w"}
// CHECK-NEXT: (%2) = "builtin.parameter" () {parameter_name:"b"}
// CHECK-NEXT: (%3) = "builtin.parameter" () {parameter_name:"dw"}
// CHECK-NEXT: (%4) = "pd_op.fused_conv2d_add_act" (%0, %1, %2, none) {stride:i64[1, 1], padding:i64[1, 1], dilation:i64[1, 1], groups:1, data_format:"NCHW", activation:"relu"}
// CHECK-NEXT: (%5) = "pd_op.fused_conv2d_add_act" (%4, %3, %2, none) {stride:i64[2, 2], padding:i64[1, 1], dilation:i64[1, 1], groups:4, data_format:"NCHW", activation:"relu6"}
// CHECK-NEXT: (%6) = "pd_op.fused_conv2d_add_act" (%4, %3, none, none) {stride:i64[1, 1], padding:i64[1, 1], dilation:i64[1, 1], groups:4, data_format:"NCHW", activation:"hardswish"}
// CHECK-NEXT: (%7) = "pd_op.conv2d" (%0, %1, %2) {stride:i64[1, 1], padding:i64[1, 1], dilation:i64[1, 1], groups:1, data_format:"NCHW"}
// CHECK-NEXT: (%8) = "pd_op.relu" (%7) {}
// CHECK-NEXT: (%9) = "pd_op.conv2d" (%4, %3, %2) {stride:i64[1, 1], padding:i64[1, 1], dilation:i64[1, 1], groups:4, data_format:"NCHW"}
// CHECK-NEXT: (%10) = "pd_op.sigmoid" (%9) {}
// CHECK-NEXT: (%11) = "builtin.parameter" () {parameter_name:"w1"}
// CHECK-NEXT: (%12) = "builtin.parameter" () {parameter_name:"g"}
// CHECK-NEXT: (%13) = "pd_op.fused_conv2d_add_act" (%4, %11, %2, %4) {stride:i64[1, 1], padding:i64[0, 0], dilation:i64[1, 1], groups:1, data_format:"NCHW", activation:"relu"}
// CHECK-NEXT: (%14) = "pd_op.fused_conv2d_add_act" (%13, %11, none, %13) {stride:i64[1, 1], padding:i64[0, 0], dilation:i64[1, 1], groups:1, data_format:"NCHW", activation:"relu"}
// CHECK-NEXT: (%15) = "pd_op.conv2d" (%14, %11, %2) {stride:i64[1, 1], padding:i64[0, 0], dilation:i64[1, 1], groups:1, data_format:"NCHW"}
// CHECK-NEXT: (%16) = "pd_op.add" (%15, %12) {}
// CHECK-NEXT: (%17) = "pd_op.relu" (%16) {}
// CHECK-NEXT: () = "pd_op.fetch" (%5) {name:"y1", col:0}
// CHECK-NEXT: () = "pd_op.fetch" (%6) {name:"y2", col:1}
// CHECK-NEXT: () = "pd_op.fetch" (%8) {name:"y3", col:2}
// CHECK-NEXT: () = "pd_op.fetch" (%7) {name:"c4", col:3}
// CHECK-NEXT: () = "pd_op.fetch" (%10) {name:"y4", col:4}
// CHECK-NEXT: () = "pd_op.fetch" (%17) {name:"y5", col:5}
// CHECK-NEXT: }
{
  (%x) = "pd_op.data" () {name:"x", shape:shape[s0, 2, 8, 8], dtype:float32} : () -> tensor<s0x2x8x8xf32>
  (%w) = "builtin.parameter" () {parameter_name:"w"} : () -> tensor<4x2x3x3xf32>
  (%b) = "builtin.parameter" () {parameter_name:"b"} : () -> tensor<4xf32>
  (%dw) = "builtin.parameter" () {parameter_name:"dw"} : () -> tensor<4x1x3x3xf32>
  (%c1) = "pd_op.conv2d" (%x, %w, %b) {stride:i64[1, 1], padding:i64[1, 1], dilation:i64[1, 1], groups:1, data_format:"NCHW"} : (tensor<s0x2x8x8xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>) -> tensor<s0x4x8x8xf32>
  (%r1) = "pd_op.relu" (%c1) {} : (tensor<s0x4x8x8xf32>) -> tensor<s0x4x8x8xf32>
  (%c2) = "pd_op.conv2d" (%r1, %dw, %b) {stride:i64[2, 2], padding:i64[1, 1], dilation:i64[1, 1], groups:4, data_format:"NCHW"} : (tensor<s0x4x8x8xf32>, tensor<4x1x3x3xf32>, tensor<4xf32>) -> tensor<s0x4x4x4xf32>
  (%r2) = "pd_op.relu6" (%c2) {} : (tensor<s0x4x4x4xf32>) -> tensor<s0x4x4x4xf32>
  (%c3) = "pd_op.conv2d" (%r1, %dw, none) {stride:i64[1, 1], padding:i64[1, 1], dilation:i64[1, 1], groups:4, data_format:"NCHW"} : (tensor<s0x4x8x8xf32>, tensor<4x1x3x3xf32>, none) -> tensor<s0x4x8x8xf32>
  (%r3) = "pd_op.hardswish" (%c3) {} : (tensor<s0x4x8x8xf32>) -> tensor<s0x4x8x8xf32>
  (%c4) = "pd_op.conv2d" (%x, %w, %b) {stride:i64[1, 1], padding:i64[1, 1], dilation:i64[1, 1], groups:1, data_format:"NCHW"} : (tensor<s0x2x8x8xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>) -> tensor<s0x4x8x8xf32>
  (%r4) = "pd_op.relu" (%c4) {} : (tensor<s0x4x8x8xf32>) -> tensor<s0x4x8x8xf32>
  (%c5) = "pd_op.conv2d" (%r1, %dw, %b) {stride:i64[1, 1], padding:i64[1, 1], dilation:i64[1, 1], groups:4, data_format:"NCHW"} : (tensor<s0x4x8x8xf32>, tensor<4x1x3x3xf32>, tensor<4xf32>) -> tensor<s0x4x8x8xf32>
  (%r5) = "pd_op.sigmoid" (%c5) {} : (tensor<s0x4x8x8xf32>) -> tensor<s0x4x8x8xf32>
  (%w1) = "builtin.parameter" () {parameter_name:"w1"} : () -> tensor<4x4x1x1xf32>
  (%g) = "builtin.parameter" () {parameter_name:"g"} : () -> tensor<1x4x1x1xf32>
  (%c6) = "pd_op.conv2d" (%r1, %w1, %b) {stride:i64[1, 1], padding:i64[0, 0], dilation:i64[1, 1], groups:1, data_format:"NCHW"} : (tensor<s0x4x8x8xf32>, tensor<4x4x1x1xf32>, tensor<4xf32>) -> tensor<s0x4x8x8xf32>
  (%s6) = "pd_op.add" (%c6, %r1) {} : (tensor<s0x4x8x8xf32>, tensor<s0x4x8x8xf32>) -> tensor<s0x4x8x8xf32>
  (%r6) = "pd_op.relu" (%s6) {} : (tensor<s0x4x8x8xf32>) -> tensor<s0x4x8x8xf32>
  (%c7) = "pd_op.conv2d" (%r6, %w1, none) {stride:i64[1, 1], padding:i64[0, 0], dilation:i64[1, 1], groups:1, data_format:"NCHW"} : (tensor<s0x4x8x8xf32>, tensor<4x4x1x1xf32>, none) -> tensor<s0x4x8x8xf32>
  (%s7) = "pd_op.add" (%r6, %c7) {} : (tensor<s0x4x8x8xf32>, tensor<s0x4x8x8xf32>) -> tensor<s0x4x8x8xf32>
  (%r7) = "pd_op.relu" (%s7) {} : (tensor<s0x4x8x8xf32>) -> tensor<s0x4x8x8xf32>
  (%c8) = "pd_op.conv2d" (%r7, %w1, %b) {stride:i64[1, 1], padding:i64[0, 0], dilation:i64[1, 1], groups:1, data_format:"NCHW"} : (tensor<s0x4x8x8xf32>, tensor<4x4x1x1xf32>, tensor<4xf32>) -> tensor<s0x4x8x8xf32>
  (%s8) = "pd_op.add" (%c8, %g) {} : (tensor<s0x4x8x8xf32>, tensor<1x4x1x1xf32>) -> tensor<s0x4x8x8xf32>
  (%r8) = "pd_op.relu" (%s8) {} : (tensor<s0x4x8x8xf32>) -> tensor<s0x4x8x8xf32>
  () = "pd_op.fetch" (%r2) {name:"y1", col:0} : (tensor<s0x4x4x4xf32>) -> ()
  () = "pd_op.fetch" (%r3) {name:"y2", col:1} : (tensor<s0x4x8x8xf32>) -> ()
  () = "pd_op.fetch" (%r4) {name:"y3", col:2} : (tensor<s0x4x8x8xf32>) -> ()
  () = "pd_op.fetch" (%c4) {name:"c4", col:3} : (tensor<s0x4x8x8xf32>) -> ()
  () = "pd_op.fetch" (%r5) {name:"y4", col:4} : (tensor<s0x4x8x8xf32>) -> ()
  () = "pd_op.fetch" (%r8) {name:"y5", col:5} : (tensor<s0x4x8x8xf32>) -> ()
}
