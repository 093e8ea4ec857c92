// RUN: passes fuse_dropout_add
// dropout(x) + y becomes fused_dropout_add (either add order, y may broadcast to x). Not fused:
// a dropout along an axis, a dropout with another user, and a dropout separated from its add by
// another random op (the fused op draws at the add's position: the streams would swap).
// CHECK: (%0) = "pd_op.data" () {name:"x", shape:shape[s0, 16], dtype:float32}
// CHECK-NEXT: (%1) = "pd_op.data" () {name:"y", shape:shape[s0, 16], dtype:float32}
// CHECK-NEXT: (%2) = "builtin.parameter" () {parameter_name:"b"}
// CHECK-NEXT: (%3, %4) = "pd_op.fused_dropout_add" (%0, %1) {p:0.1, training:true, mode:"upscale_in_train"}
// CHECK-NEXT: (%5, %6) = "pd_op.fused_dropout_add" (%3, %2) {p:0.5, training:true, mode:"downscale_in_infer"}
// CHECK-NEXT: (%7) = "pd_op.dropout" (%0) {p:0.2, axis:i64[1], training:true, mode:"upscale_in_train"}
// CHECK-NEXT: (%8) = "pd_op.add" (%7, %1) {}
// CHECK-NEXT: (%9) = "pd_op.dropout" (%1) {p:0.2, axis:none, training:true, mode:"upscale_in_train"}
// CHECK-NEXT: (%10) = "pd_op.add" (%9, %0) {}
// CHECK-NEXT: (%11) = "pd_op.dropout" (%0) {p:0.3, axis:none, training:true, mode:"upscale_in_train"}
// CHECK-NEXT: (%12) = "pd_op.dropout" (%1) {p:0.3, axis:none, training:true, mode:"upscale_in_train"}
// CHECK-NEXT: (%13) = "pd_op.add" (%11, %1) {}
// CHECK-NEXT: () = "pd_op.fetch" (%5) {name:"o2", col:0}
// CHECK-NEXT: () = "pd_op.fetch" (%8) {name:"o3", col:1}
// CHECK-NEXT: () = "pd_op.fetch" (%10) {name:"o4", col:2}
// CHECK-NEXT: () = "pd_op.fetch" (%9) {name:"d4", col:3}
// CHECK-NEXT: () = "pd_op.fetch" (%13) {name:"o5", col:4}
// CHECK-NEXT: () = "pd_op.fetch" (%12) {name:"r5", col:5}
// CHECK-NEXT: }
{
  (%x) = "pd_op.data" () {name:"x", shape:shape[s0, 16], dtype:float32} : () -> tensor<s0x16xf32>
  (%y) = "pd_op.data" () {name:"y", shape:shape[s0, 16], dtype:float32} : () -> tensor<s0x16xf32>
  (%b) = "builtin.parameter" () {parameter_name:"b"} : () -> tensor<16xf32>
  (%d1) = "pd_op.dropout" (%x) {p:0.1, axis:none, training:true, mode:"upscale_in_train"} : (tensor<s0x16xf32>) -> tensor<s0x16xf32>
  (%o1) = "pd_op.add" (%d1, %y) {} : (tensor<s0x16xf32>, tensor<s0x16xf32>) -> tensor<s0x16xf32>
  (%d2) = "pd_op.dropout" (%o1) {p:0.5, axis:none, training:true, mode:"downscale_in_infer"} : (tensor<s0x16xf32>) -> tensor<s0x16xf32>
  (%o2) = "pd_op.add" (%b, %d2) {} : (tensor<16xf32>, tensor<s0x16xf32>) -> tensor<s0x16xf32>
  (%d3) = "pd_op.dropout" (%x) {p:0.2, axis:i64[1], training:true, mode:"upscale_in_train"} : (tensor<s0x16xf32>) -> tensor<s0x16xf32>
  (%o3) = "pd_op.add" (%d3, %y) {} : (tensor<s0x16xf32>, tensor<s0x16xf32>) -> tensor<s0x16xf32>
  (%d4) = "pd_op.dropout" (%y) {p:0.2, axis:none, training:true, mode:"upscale_in_train"} : (tensor<s0x16xf32>) -> tensor<s0x16xf32>
  (%o4) = "pd_op.add" (%d4, %x) {} : (tensor<s0x16xf32>, tensor<s0x16xf32>) -> tensor<s0x16xf32>
  (%d5) = "pd_op.dropout" (%x) {p:0.3, axis:none, training:true, mode:"upscale_in_train"} : (tensor<s0x16xf32>) -> tensor<s0x16xf32>
  (%r5) = "pd_op.dropout" (%y) {p:0.3, axis:none, training:true, mode:"upscale_in_train"} : (tensor<s0x16xf32>) -> tensor<s0x16xf32>
  (%o5) = "pd_op.add" (%d5, %y) {} : (tensor<s0x16xf32>, tensor<s0x16xf32>) -> tensor<s0x16xf32>
  () = "pd_op.fetch" (%o2) {name:"o2", col:0} : (tensor<s0x16xf32>) -> ()
  () = "pd_op.fetch" (%o3) {name:"o3", col:1} : (tensor<s0x16xf32>) -> ()
  () = "pd_op.fetch" (%o4) {name:"o4", col:2} : (tensor<s0x16xf32>) -> ()
  () = "pd_op.fetch" (%d4) {name:"d4", col:3} : (tensor<s0x16xf32>) -> ()
  () = "pd_op.fetch" (%o5) {name:"o5", col:4} : (tensor<s0x16xf32>) -> ()
  () = "pd_op.fetch" (%r5) {name:"r5", col:5} : (tensor<s0x16xf32>) -> ()
}
