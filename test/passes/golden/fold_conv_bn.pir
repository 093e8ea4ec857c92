// RUN: passes fold_conv_bn,cse,constant_fold,dce
// batch_norm with running statistics after conv2d folds into the convolution's weight and bias.
// With parameters the weight transform stays as ops on them (foldParametersPass evaluates it
// when the scope is bound; the parameters are never modified); with constant statistics
// constant_fold evaluates it. Not folded: batch_norm in training (batch statistics).
// CHECK: (%0) = "pd_op.data" () {name:"x", shape:shape[s0, 3, 8, 8], dtype:float32}
// CHECK-NEXT: (%1) = "builtin.parameter" () {parameter_name:"w"}
// CHECK-NEXT: (%2) = "builtin.parameter" () {parameter_name:"mean"}
// CHECK-NEXT: (%3) = "builtin.parameter" () {parameter_name:"var"}
// CHECK-NEXT: (%4) = "builtin.parameter" () {parameter_name:"g"}
// CHECK-NEXT: (%5) = "builtin.parameter" () {parameter_name:"b"}
// CHECK-NEXT: (%6) = "pd_op.scale" (%3) {scale:1.0, bias:0.00001, bias_after_scale:true}
// CHECK-NEXT: (%7) = "pd_op.rsqrt" (%6) {}
// CHECK-NEXT: (%8) = "pd_op.multiply" (%4, %7) {}
// CHECK-NEXT: (%9) = "pd_op.reshape" (%8) {shape:i64[2, 1, 1, 1]}
// CHECK-NEXT: (%10) = "pd_op.multiply" (%1, %9) {}
// CHECK-NEXT: (%11) = "pd_op.multiply" (%2, %8) {}
// CHECK-NEXT: (%12) = "pd_op.subtract" (%5, %11) {}
// CHECK-NEXT: (%13) = "pd_op.conv2d" (%0, %10, %12) {stride:i64[1, 1], padding:i64[1, 1], dilation:i64[1, 1], groups:1, data_format:"NCHW"}
// CHECK-NEXT: (%14) = "builtin.constant" () {value:f64[1.9999899864196777, 1.4999982118606567]}
// CHECK-NEXT: (%15) = "pd_op.multiply" (%1, %14) {}
// CHECK-NEXT: (%16) = "builtin.constant" () {value:f64[0.799996018409729, -0.04999876022338867]}
// CHECK-NEXT: (%17) = "pd_op.conv2d" (%0, %15, %16) {stride:i64[2, 2], padding:i64[1, 1], dilation:i64[1, 1], groups:1, data_format:"NCHW"}
// CHECK-NEXT: (%18) = "pd_op.conv2d" (%0, %1, none) {stride:i64[1, 1], padding:i64[1, 1], dilation:i64[1, 1], groups:1, data_format:"NCHW"}
// CHECK-NEXT: (%19, %20, %21) = "pd_op.batch_norm" (%18, %2, %3, %4, %5) {training:true, momentum:0.9, epsilon:0.00001, data_format:"NCHW", use_global_stats:none}
// CHECK-NEXT: () = "pd_op.fetch" (%13) {name:"y1", col:0}
// CHECK-NEXT: () = "pd_op.fetch" (%17) {name:"y2", col:1}
// CHECK-NEXT: () = "pd_op.fetch" (%19) {name:"y3", col:2}
// CHECK-NEXT: () = "pd_op.fetch" (%2) {name:"m1", col:3}
// CHECK-NEXT: }
{
  (%x) = "pd_op.data" () {name:"x", shape:shape[s0, 3, 8, 8], dtype:float32} : () -> tensor<s0x3x8x8xf32>
  (%w) = "builtin.parameter" () {parameter_name:"w"} : () -> tensor<2x3x3x3xf32>
  (%mean) = "builtin.parameter" () {parameter_name:"mean"} : () -> tensor<2xf32>
  (%var) = "builtin.parameter" () {parameter_name:"var"} : () -> tensor<2xf32>
  (%g) = "builtin.parameter" () {parameter_name:"g"} : () -> tensor<2xf32>
  (%b) = "builtin.parameter" () {parameter_name:"b"} : () -> tensor<2xf32>
  (%c1) = "pd_op.conv2d" (%x, %w, none) {stride:i64[1, 1], padding:i64[1, 1], dilation:i64[1, 1], groups:1, data_format:"NCHW"} : (tensor<s0x3x8x8xf32>, tensor<2x3x3x3xf32>, none) -> tensor<s0x2x8x8xf32>
  (%y1, %m1, %v1) = "pd_op.batch_norm" (%c1, %mean, %var, %g, %b) {training:false, momentum:0.9, epsilon:0.00001, data_format:"NCHW", use_global_stats:none} : (tensor<s0x2x8x8xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<s0x2x8x8xf32>, tensor<2xf32>, tensor<2xf32>)
  (%cw) = "builtin.constant" () {value:f64[0.5, -0.5]} : () -> tensor<2xf32>
  (%cm) = "builtin.constant" () {value:f64[0.1, 0.2]} : () -> tensor<2xf32>
  (%cv) = "builtin.constant" () {value:f64[1.0, 4.0]} : () -> tensor<2xf32>
  (%cg) = "builtin.constant" () {value:f64[2.0, 3.0]} : () -> tensor<2xf32>
  (%cb) = "builtin.constant" () {value:f64[0.0, 1.0]} : () -> tensor<2xf32>
  (%c2) = "pd_op.conv2d" (%x, %w, %cw) {stride:i64[2, 2], padding:i64[1, 1], dilation:i64[1, 1], groups:1, data_format:"NCHW"} : (tensor<s0x3x8x8xf32>, tensor<2x3x3x3xf32>, tensor<2xf32>) -> tensor<s0x2x4x4xf32>
  (%y2, %m2, %v2) = "pd_op.batch_norm" (%c2, %cm, %cv, %cg, %cb) {training:false, momentum:0.9, epsilon:0.00001, data_format:"NCHW", use_global_stats:true} : (tensor<s0x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<s0x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>)
  (%c3) = "pd_op.conv2d" (%x, %w, none) {stride:i64[1, 1], padding:i64[1, 1], dilation:i64[1, 1], groups:1, data_format:"NCHW"} : (tensor<s0x3x8x8xf32>, tensor<2x3x3x3xf32>, none) -> tensor<s0x2x8x8xf32>
  (%y3, %m3, %v3) = "pd_op.batch_norm" (%c3, %mean, %var, %g, %b) {training:true, momentum:0.9, epsilon:0.00001, data_format:"NCHW", use_global_stats:none} : (tensor<s0x2x8x8xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<s0x2x8x8xf32>, tensor<2xf32>, tensor<2xf32>)
  () = "pd_op.fetch" (%y1) {name:"y1", col:0} : (tensor<s0x2x8x8xf32>) -> ()
  () = "pd_op.fetch" (%y2) {name:"y2", col:1} : (tensor<s0x2x4x4xf32>) -> ()
  () = "pd_op.fetch" (%y3) {name:"y3", col:2} : (tensor<s0x2x8x8xf32>) -> ()
  () = "pd_op.fetch" (%m1) {name:"m1", col:3} : (tensor<2xf32>) -> ()
}
