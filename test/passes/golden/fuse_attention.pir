// RUN: passes fuse_attention,canonicalize
// Attention on [B, H, S, D] heads becomes scaled_dot_product_attention on [B, S, H, D]: the
// heads' transposes cancel against the ones the fusion adds (canonicalize). Plain (scale op),
// additive mask (multiply by the scale), causal (the fused causal softmax). Not fused: a scale
// other than 1/sqrt(head_dim).
// CHECK: (%0) = "pd_op.data" () {name:"q", shape:shape[s0, 6, 2, 8], dtype:float32}
// CHECK-NEXT: (%1) = "pd_op.data" () {name:"k", shape:shape[s0, 6, 2, 8], dtype:float32}
// CHECK-NEXT: (%2) = "pd_op.data" () {name:"v", shape:shape[s0, 6, 2, 8], dtype:float32}
// CHECK-NEXT: (%3) = "pd_op.data" () {name:"mask", shape:shape[s0, 1, 6, 6], dtype:float32}
// CHECK-NEXT: (%4) = "pd_op.transpose" (%0) {perm:i64[0, 2, 1, 3]}
// CHECK-NEXT: (%5) = "pd_op.transpose" (%1) {perm:i64[0, 2, 1, 3]}
// CHECK-NEXT: (%6) = "pd_op.transpose" (%2) {perm:i64[0, 2, 1, 3]}
// CHECK-NEXT: (%7) = "pd_op.scaled_dot_product_attention" (%0, %1, %2, none) {dropout_p:0.0, is_causal:false, training:false}
// CHECK-NEXT: (%8) = "pd_op.scaled_dot_product_attention" (%0, %1, %2, %3) {dropout_p:0.0, is_causal:false, training:false}
// CHECK-NEXT: (%9) = "pd_op.transpose" (%8) {perm:i64[0, 2, 1, 3]}
// CHECK-NEXT: (%10) = "pd_op.scaled_dot_product_attention" (%0, %1, %2, none) {dropout_p:0.0, is_causal:true, training:false}
// CHECK-NEXT: (%11) = "pd_op.transpose" (%10) {perm:i64[0, 2, 1, 3]}
// CHECK-NEXT: (%12) = "pd_op.matmul" (%4, %5) {transpose_x:false, transpose_y:true}
// CHECK-NEXT: (%13) = "pd_op.scale" (%12) {scale:0.5, bias:0.0, bias_after_scale:true}
// CHECK-NEXT: (%14) = "pd_op.softmax" (%13) {axis:-1, dtype:none}
// CHECK-NEXT: (%15) = "pd_op.matmul" (%14, %6) {transpose_x:false, transpose_y:false}
// CHECK-NEXT: () = "pd_op.fetch" (%7) {name:"o1", col:0}
// CHECK-NEXT: () = "pd_op.fetch" (%9) {name:"o2", col:1}
// CHECK-NEXT: () = "pd_op.fetch" (%11) {name:"o3", col:2}
// CHECK-NEXT: () = "pd_op.fetch" (%15) {name:"o4", col:3}
// CHECK-NEXT: }
{
  (%q0) = "pd_op.data" () {name:"q", shape:shape[s0, 6, 2, 8], dtype:float32} : () -> tensor<s0x6x2x8xf32>
  (%k0) = "pd_op.data" () {name:"k", shape:shape[s0, 6, 2, 8], dtype:float32} : () -> tensor<s0x6x2x8xf32>
  (%v0) = "pd_op.data" () {name:"v", shape:shape[s0, 6, 2, 8], dtype:float32} : () -> tensor<s0x6x2x8xf32>
  (%mask) = "pd_op.data" () {name:"mask", shape:shape[s0, 1, 6, 6], dtype:float32} : () -> tensor<s0x1x6x6xf32>
  (%q) = "pd_op.transpose" (%q0) {perm:i64[0, 2, 1, 3]} : (tensor<s0x6x2x8xf32>) -> tensor<s0x2x6x8xf32>
  (%k) = "pd_op.transpose" (%k0) {perm:i64[0, 2, 1, 3]} : (tensor<s0x6x2x8xf32>) -> tensor<s0x2x6x8xf32>
  (%v) = "pd_op.transpose" (%v0) {perm:i64[0, 2, 1, 3]} : (tensor<s0x6x2x8xf32>) -> tensor<s0x2x6x8xf32>
  (%s1) = "pd_op.matmul" (%q, %k) {transpose_x:false, transpose_y:true} : (tensor<s0x2x6x8xf32>, tensor<s0x2x6x8xf32>) -> tensor<s0x2x6x6xf32>
  (%t1) = "pd_op.scale" (%s1) {scale:0.3535533905932738, bias:0.0, bias_after_scale:true} : (tensor<s0x2x6x6xf32>) -> tensor<s0x2x6x6xf32>
  (%p1) = "pd_op.softmax" (%t1) {axis:-1, dtype:none} : (tensor<s0x2x6x6xf32>) -> tensor<s0x2x6x6xf32>
  (%o1) = "pd_op.matmul" (%p1, %v) {transpose_x:false, transpose_y:false} : (tensor<s0x2x6x6xf32>, tensor<s0x2x6x8xf32>) -> tensor<s0x2x6x8xf32>
  (%r1) = "pd_op.transpose" (%o1) {perm:i64[0, 2, 1, 3]} : (tensor<s0x2x6x8xf32>) -> tensor<s0x6x2x8xf32>
  (%s2) = "pd_op.matmul" (%q, %k) {transpose_x:false, transpose_y:true} : (tensor<s0x2x6x8xf32>, tensor<s0x2x6x8xf32>) -> tensor<s0x2x6x6xf32>
  (%c) = "builtin.constant" () {value:0.3535533905932738} : () -> tensor<f32>
  (%t2) = "pd_op.multiply" (%s2, %c) {} : (tensor<s0x2x6x6xf32>, tensor<f32>) -> tensor<s0x2x6x6xf32>
  (%a2) = "pd_op.add" (%t2, %mask) {} : (tensor<s0x2x6x6xf32>, tensor<s0x1x6x6xf32>) -> tensor<s0x2x6x6xf32>
  (%p2) = "pd_op.softmax" (%a2) {axis:-1, dtype:none} : (tensor<s0x2x6x6xf32>) -> tensor<s0x2x6x6xf32>
  (%o2) = "pd_op.matmul" (%p2, %v) {transpose_x:false, transpose_y:false} : (tensor<s0x2x6x6xf32>, tensor<s0x2x6x8xf32>) -> tensor<s0x2x6x8xf32>
  (%s3) = "pd_op.matmul" (%q, %k) {transpose_x:false, transpose_y:true} : (tensor<s0x2x6x8xf32>, tensor<s0x2x6x8xf32>) -> tensor<s0x2x6x6xf32>
  (%t3) = "pd_op.scale" (%s3) {scale:0.3535533905932738, bias:0.0, bias_after_scale:true} : (tensor<s0x2x6x6xf32>) -> tensor<s0x2x6x6xf32>
  (%p3) = "pd_op.fused_softmax_mask_upper_triangle" (%t3) {} : (tensor<s0x2x6x6xf32>) -> tensor<s0x2x6x6xf32>
  (%o3) = "pd_op.matmul" (%p3, %v) {transpose_x:false, transpose_y:false} : (tensor<s0x2x6x6xf32>, tensor<s0x2x6x8xf32>) -> tensor<s0x2x6x8xf32>
  (%s4) = "pd_op.matmul" (%q, %k) {transpose_x:false, transpose_y:true} : (tensor<s0x2x6x8xf32>, tensor<s0x2x6x8xf32>) -> tensor<s0x2x6x6xf32>
  (%t4) = "pd_op.scale" (%s4) {scale:0.5, bias:0.0, bias_after_scale:true} : (tensor<s0x2x6x6xf32>) -> tensor<s0x2x6x6xf32>
  (%p4) = "pd_op.softmax" (%t4) {axis:-1, dtype:none} : (tensor<s0x2x6x6xf32>) -> tensor<s0x2x6x6xf32>
  (%o4) = "pd_op.matmul" (%p4, %v) {transpose_x:false, transpose_y:false} : (tensor<s0x2x6x6xf32>, tensor<s0x2x6x8xf32>) -> tensor<s0x2x6x8xf32>
  () = "pd_op.fetch" (%r1) {name:"o1", col:0} : (tensor<s0x6x2x8xf32>) -> ()
  () = "pd_op.fetch" (%o2) {name:"o2", col:1} : (tensor<s0x2x6x8xf32>) -> ()
  () = "pd_op.fetch" (%o3) {name:"o3", col:2} : (tensor<s0x2x6x8xf32>) -> ()
  () = "pd_op.fetch" (%o4) {name:"o4", col:3} : (tensor<s0x2x6x8xf32>) -> ()
}
