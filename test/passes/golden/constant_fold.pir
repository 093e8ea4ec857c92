// RUN: passes constant_fold
// Ops on constants are evaluated with the registry kernels: a chain folds to one constant (a
// splat when every element is equal, dense data otherwise), a full becomes a splat constant,
// a concat of constants folds through its builtin.combine. Not folded: ops on feeds, random
// ops, and results larger than the bound (4096 elements).
// CHECK: (%0) = "pd_op.data"
// CHECK-NEXT: (%1) = "builtin.constant" () {value:f64[1.6487212181091309, 2.7182817459106445, 4.481688976287842]} : () -> tensor<3xf32>
// CHECK-NEXT: (%2) = "builtin.constant" () {value:7} : () -> tensor<2x2xi64>
// CHECK-NEXT: (%3) = "builtin.constant" () {value:f64[1.0, 2.0, 3.0, 0.5, 1.0, 1.5]} : () -> tensor<6xf32>
// CHECK-NEXT: (%4) = "builtin.constant" () {value:true} : () -> tensor<3xbool>
// CHECK-NEXT: (%5) = "builtin.constant" () {value:1.0} : () -> tensor<f32>
// CHECK-NEXT: (%6) = "pd_op.add" (%0, %1)
// CHECK-NEXT: (%7) = "pd_op.uniform"
// CHECK-NEXT: (%8) = "pd_op.full" () {shape:i64[100, 100]
// CHECK-NEXT: "pd_op.fetch" (%6) {name:"y"
// CHECK-NEXT: "pd_op.fetch" (%2) {name:"g"
// CHECK-NEXT: "pd_op.fetch" (%3) {name:"cat"
// CHECK-NEXT: "pd_op.fetch" (%4) {name:"cmp"
{
  (%x) = "pd_op.data" () {name:"x", shape:shape[3], dtype:float32} : () -> tensor<3xf32>
  (%a) = "builtin.constant" () {value:f64[1.0, 2.0, 3.0]} : () -> tensor<3xf32>
  (%b) = "builtin.constant" () {value:0.5} : () -> tensor<f32>
  (%c) = "pd_op.multiply" (%a, %b) {} : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  (%d) = "pd_op.exp" (%c) {} : (tensor<3xf32>) -> tensor<3xf32>
  (%f) = "pd_op.full" () {shape:i64[2, 2], fill_value:3, dtype:int64} : () -> tensor<2x2xi64>
  (%g) = "pd_op.scale" (%f) {scale:2.0, bias:1.0, bias_after_scale:true} : (tensor<2x2xi64>) -> tensor<2x2xi64>
  (%l) = "builtin.combine" (%a, %c) {} : (tensor<3xf32>, tensor<3xf32>) -> vec[tensor<3xf32>, tensor<3xf32>]
  (%cat) = "pd_op.concat" (%l) {axis:0} : (vec[tensor<3xf32>, tensor<3xf32>]) -> tensor<6xf32>
  (%cmp) = "pd_op.greater_than" (%a, %b) {} : (tensor<3xf32>, tensor<f32>) -> tensor<3xbool>
  (%bb) = "pd_op.add" (%b, %b) {} : (tensor<f32>, tensor<f32>) -> tensor<f32>
  (%y) = "pd_op.add" (%x, %d) {} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  (%r) = "pd_op.uniform" () {shape:i64[3], dtype:float32, min:-1.0, max:1.0, seed:0} : () -> tensor<3xf32>
  (%huge) = "pd_op.full" () {shape:i64[100, 100], fill_value:1.0, dtype:float32} : () -> tensor<100x100xf32>
  () = "pd_op.fetch" (%y) {name:"y", col:0} : (tensor<3xf32>) -> ()
  () = "pd_op.fetch" (%g) {name:"g", col:1} : (tensor<2x2xi64>) -> ()
  () = "pd_op.fetch" (%cat) {name:"cat", col:2} : (tensor<6xf32>) -> ()
  () = "pd_op.fetch" (%cmp) {name:"cmp", col:3} : (tensor<3xbool>) -> ()
  () = "pd_op.fetch" (%r) {name:"r", col:4} : (tensor<3xf32>) -> ()
  () = "pd_op.fetch" (%huge) {name:"huge", col:5} : (tensor<100x100xf32>) -> ()
  () = "pd_op.fetch" (%bb) {name:"bb", col:6} : (tensor<f32>) -> ()
}
