// RUN: roundtrip
// Nested regions (for control-flow ops to come): block arguments, several blocks, several
// regions, an empty region, and values of enclosing blocks used inside.
// CHECK-LABEL: (%1) = "gen.loop" (%0) {trip:3} ({
// CHECK-NEXT:   ^bb0(%2: tensor<4xf32>, %3: i64):
// CHECK-NEXT:     (%4) = "gen.body" (%2, %0) {} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     (%5) = "gen.inner" () {} ({
// CHECK-NEXT:       ^bb0:
// CHECK-NEXT:         () = "builtin.yield" (%3) {} : (i64) -> ()
// CHECK-NEXT:     }) : () -> i64
// CHECK:        ^bb1:
// CHECK-NEXT:     () = "builtin.yield" (%0) {} : (tensor<4xf32>) -> ()
// CHECK-NEXT: }, {}, {
// CHECK-NEXT:   ^bb0(%6: tensor<?xf32>):
// CHECK-NEXT: }) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-LABEL: (%7) = "gen.after"
{
  (%0) = "gen.source" () {} : () -> tensor<4xf32>
  (%1) = "gen.loop" (%0) {trip:3} ({
    ^bb0(%2: tensor<4xf32>, %3: i64):
      (%4) = "gen.body" (%2, %0) {} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      (%5) = "gen.inner" () {} ({
        ^bb0:
          () = "builtin.yield" (%3) {} : (i64) -> ()
      }) : () -> i64
      () = "builtin.yield" (%4) {} : (tensor<4xf32>) -> ()
    ^bb1:
      () = "builtin.yield" (%0) {} : (tensor<4xf32>) -> ()
  }, {}, {
    ^bb0(%6: tensor<?xf32>):
  }) : (tensor<4xf32>) -> tensor<4xf32>
  (%7) = "gen.after" (%1) {} : (tensor<4xf32>) -> tensor<4xf32>
}
