// RUN: passes cse,dce
// Equal pure ops (name, operands, attributes) merge, constants included; different attributes
// or operand order do not; random ops never merge; an op in a region reuses one from the
// enclosing block but not the other way round.
// CHECK: (%2) = "builtin.constant" () {value:2.0}
// CHECK-NOT: builtin.constant
// CHECK: (%3) = "pd_op.add" (%0, %1)
// CHECK-NEXT: (%4) = "pd_op.add" (%1, %0)
// CHECK-NEXT: (%5) = "pd_op.multiply" (%3, %2)
// CHECK-NEXT: (%6) = "pd_op.gelu" (%5) {approximate:false}
// CHECK-NEXT: (%7) = "pd_op.gelu" (%5) {approximate:true}
// CHECK-NEXT: (%8) = "pd_op.dropout" (%0)
// CHECK-NEXT: (%9) = "pd_op.dropout" (%0)
// CHECK-NEXT: "test.loop"
// CHECK: (%12) = "pd_op.exp" (%11)
// CHECK-NEXT: (%13) = "pd_op.add" (%3, %12)
// CHECK-NEXT: (%14) = "pd_op.relu" (%0)
// CHECK-NEXT: (%15) = "pd_op.add" (%13, %14)
// CHECK-NEXT: "builtin.yield" (%15)
// CHECK: (%16) = "pd_op.relu" (%0)
// CHECK-NEXT: (%17) = "pd_op.add" (%10, %16)
// CHECK: "pd_op.fetch" (%6) {name:"g1"
// CHECK-NEXT: "pd_op.fetch" (%7) {name:"g2"
// CHECK-NEXT: "pd_op.fetch" (%4) {name:"a3"
{
  (%x) = "pd_op.data" () {name:"x", shape:shape[2, 3], dtype:float32} : () -> tensor<2x3xf32>
  (%y) = "pd_op.data" () {name:"y", shape:shape[2, 3], dtype:float32} : () -> tensor<2x3xf32>
  (%c1) = "builtin.constant" () {value:2.0} : () -> tensor<f32>
  (%c2) = "builtin.constant" () {value:2.0} : () -> tensor<f32>
  (%a1) = "pd_op.add" (%x, %y) {} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  (%a2) = "pd_op.add" (%x, %y) {} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  (%a3) = "pd_op.add" (%y, %x) {} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  (%m1) = "pd_op.multiply" (%a1, %c1) {} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  (%m2) = "pd_op.multiply" (%a2, %c2) {} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  (%g1) = "pd_op.gelu" (%m1) {approximate:false} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  (%g2) = "pd_op.gelu" (%m2) {approximate:true} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  (%r1) = "pd_op.dropout" (%x) {p:0.5, axis:none, training:true, mode:"upscale_in_train"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  (%r2) = "pd_op.dropout" (%x) {p:0.5, axis:none, training:true, mode:"upscale_in_train"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  (%loop) = "test.loop" (%x) {} ({
    ^bb0(%i: tensor<2x3xf32>):
      (%in1) = "pd_op.add" (%x, %y) {} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
      (%in2) = "pd_op.exp" (%i) {} : (tensor<2x3xf32>) -> tensor<2x3xf32>
      (%s) = "pd_op.add" (%in1, %in2) {} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
      (%inr) = "pd_op.relu" (%x) {} : (tensor<2x3xf32>) -> tensor<2x3xf32>
      (%s2) = "pd_op.add" (%s, %inr) {} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
      () = "builtin.yield" (%s2) {} : (tensor<2x3xf32>) -> ()
  }) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  (%outr) = "pd_op.relu" (%x) {} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  (%e) = "pd_op.add" (%loop, %outr) {} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  () = "pd_op.fetch" (%g1) {name:"g1", col:0} : (tensor<2x3xf32>) -> ()
  () = "pd_op.fetch" (%g2) {name:"g2", col:1} : (tensor<2x3xf32>) -> ()
  () = "pd_op.fetch" (%a3) {name:"a3", col:2} : (tensor<2x3xf32>) -> ()
  () = "pd_op.fetch" (%r1) {name:"r1", col:3} : (tensor<2x3xf32>) -> ()
  () = "pd_op.fetch" (%r2) {name:"r2", col:4} : (tensor<2x3xf32>) -> ()
  () = "pd_op.fetch" (%e) {name:"e", col:5} : (tensor<2x3xf32>) -> ()
}
