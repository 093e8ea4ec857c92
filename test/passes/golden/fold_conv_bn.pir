// RUN: passes fold_conv_bn,dce
// batch_norm with running statistics after conv2d folds into the convolution: the weight
// transform is evaluated at compile time into new constants (w * s, (b - mean) * s + beta).
// With and without a conv bias. Not folded: parameters whose values are unknown (pass
// foldConvBnPass({ params }) to bind them: the transform would otherwise run on every
// execution), and batch_norm in training (batch statistics).
// CHECK: (%0) = "pd_op.data" () {name:"x", shape:shape[s0, 3, 8, 8], dtype:float32}
// CHECK-NEXT: (%1) = "builtin.constant" () {value:
// CHECK-NEXT: (%2) = "builtin.constant" () {value:f64[0.1, 0.2]}
// CHECK-NEXT: (%3) = "builtin.constant" () {value:f64[1.0, 4.0]}
// CHECK-NEXT: (%4) = "builtin.constant" () {value:f64[2.0, 3.0]}
// CHECK-NEXT: (%5) = "builtin.constant" () {value:f64[0.0, 1.0]}
// CHECK-NEXT: (%6) = "builtin.constant" () {value:
// CHECK-NEXT: (%7) = "builtin.constant" () {value:f64[0.799996018409729, -0.04999876022338867]}
// CHECK-NEXT: (%8) = "pd_op.conv2d" (%0, %6, %7) {stride:i64[2, 2], padding:i64[1, 1], dilation:i64[1, 1], groups:1, data_format:"NCHW"}
// CHECK-NEXT: (%9) = "builtin.constant" () {value:
// CHECK-NEXT: (%10) = "builtin.constant" () {value:f64[-0.19999900460243225, 0.7000003457069397]}
// CHECK-NEXT: (%11) = "pd_op.conv2d" (%0, %9, %10) {stride:i64[1, 1], padding:i64[1, 1], dilation:i64[1, 1], groups:1, data_format:"NCHW"}
// CHECK-NEXT: (%12) = "builtin.parameter" () {parameter_name:"w"}
// CHECK-NEXT: (%13) = "builtin.parameter" () {parameter_name:"mean"}
// CHECK-NEXT: (%14) = "pd_op.conv2d" (%0, %12, none) {stride:i64[1, 1], padding:i64[1, 1], dilation:i64[1, 1], groups:1, data_format:"NCHW"}
// CHECK-NEXT: (%15, %16, %17) = "pd_op.batch_norm" (%14, %13, %3, %4, %5) {training:false, momentum:0.9, epsilon:0.00001, data_format:"NCHW", use_global_stats:none}
// CHECK-NEXT: (%18) = "pd_op.conv2d" (%0, %1, none) {stride:i64[1, 1], padding:i64[1, 1], dilation:i64[1, 1], groups:1, data_format:"NCHW"}
// CHECK-NEXT: (%19, %20, %21) = "pd_op.batch_norm" (%18, %2, %3, %4, %5) {training:true, momentum:0.9, epsilon:0.00001, data_format:"NCHW", use_global_stats:none}
// CHECK-NEXT: () = "pd_op.fetch" (%8) {name:"y1", col:0}
// CHECK-NEXT: () = "pd_op.fetch" (%11) {name:"y2", col:1}
// CHECK-NEXT: () = "pd_op.fetch" (%15) {name:"y3", col:2}
// CHECK-NEXT: () = "pd_op.fetch" (%19) {name:"y4", col:3}
// CHECK-NEXT: () = "pd_op.fetch" (%2) {name:"m1", col:4}
// CHECK-NEXT: }
{
  (%x) = "pd_op.data" () {name:"x", shape:shape[s0, 3, 8, 8], dtype:float32} : () -> tensor<s0x3x8x8xf32>
  (%w) = "builtin.constant" () {value:f64[1.0, -1.0, 0.5, 2.0, 0.0, 1.0, -0.5, 0.25, 1.0, 1.0, -1.0, 0.5, 2.0, 0.0, 1.0, -0.5, 0.25, 1.0, 1.0, -1.0, 0.5, 2.0, 0.0, 1.0, -0.5, 0.25, 1.0, 1.0, -1.0, 0.5, 2.0, 0.0, 1.0, -0.5, 0.25, 1.0, 1.0, -1.0, 0.5, 2.0, 0.0, 1.0, -0.5, 0.25, 1.0, 1.0, -1.0, 0.5, 2.0, 0.0, 1.0, -0.5, 0.25, 1.0]} : () -> tensor<2x3x3x3xf32>
  (%cw) = "builtin.constant" () {value:f64[0.5, -0.5]} : () -> tensor<2xf32>
  (%cm) = "builtin.constant" () {value:f64[0.1, 0.2]} : () -> tensor<2xf32>
  (%cv) = "builtin.constant" () {value:f64[1.0, 4.0]} : () -> tensor<2xf32>
  (%cg) = "builtin.constant" () {value:f64[2.0, 3.0]} : () -> tensor<2xf32>
  (%cb) = "builtin.constant" () {value:f64[0.0, 1.0]} : () -> tensor<2xf32>
  (%c1) = "pd_op.conv2d" (%x, %w, %cw) {stride:i64[2, 2], padding:i64[1, 1], dilation:i64[1, 1], groups:1, data_format:"NCHW"} : (tensor<s0x3x8x8xf32>, tensor<2x3x3x3xf32>, tensor<2xf32>) -> tensor<s0x2x4x4xf32>
  (%y1, %m1, %v1) = "pd_op.batch_norm" (%c1, %cm, %cv, %cg, %cb) {training:false, momentum:0.9, epsilon:0.00001, data_format:"NCHW", use_global_stats:true} : (tensor<s0x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<s0x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>)
  (%c2) = "pd_op.conv2d" (%x, %w, none) {stride:i64[1, 1], padding:i64[1, 1], dilation:i64[1, 1], groups:1, data_format:"NCHW"} : (tensor<s0x3x8x8xf32>, tensor<2x3x3x3xf32>, none) -> tensor<s0x2x8x8xf32>
  (%y2, %m2, %v2) = "pd_op.batch_norm" (%c2, %cm, %cv, %cg, %cb) {training:false, momentum:0.9, epsilon:0.00001, data_format:"NCHW", use_global_stats:none} : (tensor<s0x2x8x8xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<s0x2x8x8xf32>, tensor<2xf32>, tensor<2xf32>)
  (%pw) = "builtin.parameter" () {parameter_name:"w"} : () -> tensor<2x3x3x3xf32>
  (%mean) = "builtin.parameter" () {parameter_name:"mean"} : () -> tensor<2xf32>
  (%c3) = "pd_op.conv2d" (%x, %pw, none) {stride:i64[1, 1], padding:i64[1, 1], dilation:i64[1, 1], groups:1, data_format:"NCHW"} : (tensor<s0x3x8x8xf32>, tensor<2x3x3x3xf32>, none) -> tensor<s0x2x8x8xf32>
  (%y3, %m3, %v3) = "pd_op.batch_norm" (%c3, %mean, %cv, %cg, %cb) {training:false, momentum:0.9, epsilon:0.00001, data_format:"NCHW", use_global_stats:none} : (tensor<s0x2x8x8xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<s0x2x8x8xf32>, tensor<2xf32>, tensor<2xf32>)
  (%c4) = "pd_op.conv2d" (%x, %w, none) {stride:i64[1, 1], padding:i64[1, 1], dilation:i64[1, 1], groups:1, data_format:"NCHW"} : (tensor<s0x3x8x8xf32>, tensor<2x3x3x3xf32>, none) -> tensor<s0x2x8x8xf32>
  (%y4, %m4, %v4) = "pd_op.batch_norm" (%c4, %cm, %cv, %cg, %cb) {training:true, momentum:0.9, epsilon:0.00001, data_format:"NCHW", use_global_stats:none} : (tensor<s0x2x8x8xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<s0x2x8x8xf32>, tensor<2xf32>, tensor<2xf32>)
  () = "pd_op.fetch" (%y1) {name:"y1", col:0} : (tensor<s0x2x4x4xf32>) -> ()
  () = "pd_op.fetch" (%y2) {name:"y2", col:1} : (tensor<s0x2x8x8xf32>) -> ()
  () = "pd_op.fetch" (%y3) {name:"y3", col:2} : (tensor<s0x2x8x8xf32>) -> ()
  () = "pd_op.fetch" (%y4) {name:"y4", col:3} : (tensor<s0x2x8x8xf32>) -> ()
  () = "pd_op.fetch" (%m1) {name:"m1", col:4} : (tensor<2xf32>) -> ()
}
