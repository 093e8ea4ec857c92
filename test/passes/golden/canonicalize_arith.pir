// RUN: passes canonicalize
// Identity arithmetic goes away: x*1, 1*x, x+0, 0+x, x-0, x/1 (constants as builtin.constant or
// pd_op.full), scale 1/0 and a cast to x's own dtype. Kept: a 1 that broadcasts x to a larger
// shape, 0-x, scale with a bias, a cast to another dtype.
// CHECK: (%0) = "pd_op.data"
// CHECK-NEXT: (%1) = "pd_op.full"
// CHECK-NEXT: (%2) = "builtin.constant" () {value:1} : () -> tensor<3x1x4xf32>
// CHECK-NEXT: (%3) = "pd_op.multiply" (%0, %2)
// CHECK-NEXT: (%4) = "pd_op.subtract" (%1, %0)
// CHECK-NEXT: (%5) = "pd_op.scale" (%0) {scale:1.0, bias:0.5
// CHECK-NEXT: (%6) = "pd_op.cast" (%0) {dtype:float64}
// CHECK-NEXT: "pd_op.fetch" (%0) {name:"h"
// CHECK-NOT: pd_op.add
// CHECK-NOT: pd_op.divide
// CHECK-NOT: {value:1.0}
{
  (%x) = "pd_op.data" () {name:"x", shape:shape[s0, 4], dtype:float32} : () -> tensor<s0x4xf32>
  (%one) = "builtin.constant" () {value:1.0} : () -> tensor<f32>
  (%zero) = "pd_op.full" () {shape:i64[4], fill_value:0, dtype:float32} : () -> tensor<4xf32>
  (%big1) = "builtin.constant" () {value:1} : () -> tensor<3x1x4xf32>
  (%a) = "pd_op.multiply" (%x, %one) {} : (tensor<s0x4xf32>, tensor<f32>) -> tensor<s0x4xf32>
  (%b) = "pd_op.multiply" (%one, %a) {} : (tensor<f32>, tensor<s0x4xf32>) -> tensor<s0x4xf32>
  (%c) = "pd_op.add" (%b, %zero) {} : (tensor<s0x4xf32>, tensor<4xf32>) -> tensor<s0x4xf32>
  (%d) = "pd_op.add" (%zero, %c) {} : (tensor<4xf32>, tensor<s0x4xf32>) -> tensor<s0x4xf32>
  (%e) = "pd_op.subtract" (%d, %zero) {} : (tensor<s0x4xf32>, tensor<4xf32>) -> tensor<s0x4xf32>
  (%f) = "pd_op.divide" (%e, %one) {} : (tensor<s0x4xf32>, tensor<f32>) -> tensor<s0x4xf32>
  (%g) = "pd_op.scale" (%f) {scale:1.0, bias:0.0, bias_after_scale:true} : (tensor<s0x4xf32>) -> tensor<s0x4xf32>
  (%h) = "pd_op.cast" (%g) {dtype:float32} : (tensor<s0x4xf32>) -> tensor<s0x4xf32>
  (%k1) = "pd_op.multiply" (%h, %big1) {} : (tensor<s0x4xf32>, tensor<3x1x4xf32>) -> tensor<3xs0x4xf32>
  (%k2) = "pd_op.subtract" (%zero, %h) {} : (tensor<4xf32>, tensor<s0x4xf32>) -> tensor<s0x4xf32>
  (%k3) = "pd_op.scale" (%h) {scale:1.0, bias:0.5, bias_after_scale:true} : (tensor<s0x4xf32>) -> tensor<s0x4xf32>
  (%k4) = "pd_op.cast" (%h) {dtype:float64} : (tensor<s0x4xf32>) -> tensor<s0x4xf64>
  () = "pd_op.fetch" (%h) {name:"h", col:0} : (tensor<s0x4xf32>) -> ()
  () = "pd_op.fetch" (%k1) {name:"k1", col:1} : (tensor<3xs0x4xf32>) -> ()
  () = "pd_op.fetch" (%k2) {name:"k2", col:2} : (tensor<s0x4xf32>) -> ()
  () = "pd_op.fetch" (%k3) {name:"k3", col:3} : (tensor<s0x4xf32>) -> ()
  () = "pd_op.fetch" (%k4) {name:"k4", col:4} : (tensor<s0x4xf64>) -> ()
}
