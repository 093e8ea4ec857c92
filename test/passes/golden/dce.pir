// RUN: passes dce
// Dead pure ops go (a whole chain, an unused parameter read, a constant, a combine, dead ops in
// a region). Kept although unused: feeds, random ops (they advance the generator), host calls,
// inplace writes, set_parameter, fetch, and ops with regions.
// CHECK: (%0) = "pd_op.data" () {name:"x"
// CHECK-NEXT: (%1) = "pd_op.data" () {name:"u"
// CHECK-NEXT: (%2) = "builtin.parameter" () {parameter_name:"w"}
// CHECK-NEXT: (%3) = "pd_op.uniform"
// CHECK-NEXT: (%4) = "pd_op.dropout" (%0)
// CHECK-NEXT: (%5) = "builtin.host_call" (%0)
// CHECK-NEXT: (%6) = "pd_op.relu_" (%2)
// CHECK-NEXT: (%7) = "test.loop" (%0)
// CHECK-NEXT: ^bb0(%8: tensor<2x3xf32>):
// CHECK-NEXT: "builtin.yield" (%8)
// CHECK: (%9) = "pd_op.add" (%0, %2)
// CHECK-NEXT: "builtin.set_parameter" (%9)
// CHECK-NEXT: "pd_op.fetch" (%9)
{
  (%x) = "pd_op.data" () {name:"x", shape:shape[2, 3], dtype:float32} : () -> tensor<2x3xf32>
  (%unused_feed) = "pd_op.data" () {name:"u", shape:shape[2], dtype:float32} : () -> tensor<2xf32>
  (%w) = "builtin.parameter" () {parameter_name:"w"} : () -> tensor<2x3xf32>
  (%dead_param) = "builtin.parameter" () {parameter_name:"v"} : () -> tensor<3xf32>
  (%c) = "builtin.constant" () {value:2.0} : () -> tensor<f32>
  (%a) = "pd_op.relu" (%x) {} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  (%b) = "pd_op.exp" (%a) {} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  (%l) = "builtin.combine" (%x, %a) {} : (tensor<2x3xf32>, tensor<2x3xf32>) -> vec[tensor<2x3xf32>, tensor<2x3xf32>]
  (%r) = "pd_op.uniform" () {shape:i64[2], dtype:float32, min:-1.0, max:1.0, seed:0} : () -> tensor<2xf32>
  (%dr) = "pd_op.dropout" (%x) {p:0.5, axis:none, training:true, mode:"upscale_in_train"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  (%h) = "builtin.host_call" (%x) {callee:"log"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  (%ip) = "pd_op.relu_" (%w) {} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  (%loop) = "test.loop" (%x) {} ({
    ^bb0(%i: tensor<2x3xf32>):
      (%dead_inner) = "pd_op.exp" (%i) {} : (tensor<2x3xf32>) -> tensor<2x3xf32>
      () = "builtin.yield" (%i) {} : (tensor<2x3xf32>) -> ()
  }) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  (%y) = "pd_op.add" (%x, %w) {} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  () = "builtin.set_parameter" (%y) {parameter_name:"w"} : (tensor<2x3xf32>) -> ()
  () = "pd_op.fetch" (%y) {name:"y", col:0} : (tensor<2x3xf32>) -> ()
}
