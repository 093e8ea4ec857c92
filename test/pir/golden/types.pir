// RUN: roundtrip
// Every type form: static, unknown (?) and symbolic dims (bare names, and parenthesised
// expressions or names holding the separator 'x'), 0-dim and empty tensors, every dtype,
// scalars and vectors.
// CHECK-LABEL: {
// CHECK-NEXT: (%0) = "gen.source" () {} : () -> tensor<2x3xf32>
// CHECK-NEXT: -> tensor<?x128xf32>
// CHECK-NEXT: -> tensor<s0x128xf32>
// CHECK-NEXT: -> tensor<f64>
// CHECK-NEXT: -> tensor<(s0*2)x(batch_x)x?xbf16>
// CHECK-NEXT: -> tensor<0x3xbool>
// CHECK-NEXT: (%6) = {{.*}} -> tensor<1xi8>
// CHECK-NEXT: -> tensor<1xu8>
// CHECK-NEXT: -> tensor<1xi32>
// CHECK-NEXT: -> tensor<1xi64>
// CHECK-NEXT: -> tensor<1xf16>
// CHECK-NEXT: (%11, %12, %13) = "gen.scalars" () {} : () -> (i64, f32, bool)
// CHECK-NEXT: (%14) = "gen.pack" (%0, %1) {} : (tensor<2x3xf32>, tensor<?x128xf32>) -> vec[tensor<2x3xf32>, tensor<?x128xf32>]
// CHECK-NEXT: -> vec[]
// CHECK-NEXT: -> vec[vec[i64], tensor<f32>]
// CHECK-NEXT: () = "gen.sink" (%14, none, %2) {} : (vec[tensor<2x3xf32>, tensor<?x128xf32>], none, tensor<s0x128xf32>) -> ()
// CHECK-NEXT: }
{
  (%0) = "gen.source" () {} : () -> tensor<2x3xf32>
  (%1) = "gen.source" () {} : () -> tensor<?x128xf32>
  (%2) = "gen.source" () {} : () -> tensor<s0x128xf32>
  (%3) = "gen.source" () {} : () -> tensor<f64>
  (%4) = "gen.source" () {} : () -> tensor<(s0*2)x(batch_x)x?xbf16>
  (%5) = "gen.source" () {} : () -> tensor<0x3xbool>
  (%6) = "gen.source" () {} : () -> tensor<1xi8>
  (%7) = "gen.source" () {} : () -> tensor<1xu8>
  (%8) = "gen.source" () {} : () -> tensor<1xi32>
  (%9) = "gen.source" () {} : () -> tensor<1xi64>
  (%10) = "gen.source" () {} : () -> tensor<1xf16>
  (%11, %12, %13) = "gen.scalars" () {} : () -> (i64, f32, bool)
  (%14) = "gen.pack" (%0, %1) {} : (tensor<2x3xf32>, tensor<?x128xf32>) -> vec[tensor<2x3xf32>, tensor<?x128xf32>]
  (%15) = "gen.pack" () {} : () -> vec[]
  (%16) = "gen.pack" () {} : () -> vec[vec[i64], tensor<f32>]
  () = "gen.sink" (%14, none, %2) {} : (vec[tensor<2x3xf32>, tensor<?x128xf32>], none, tensor<s0x128xf32>) -> ()
}
