// RUN: pysdy-opt %s -sdy-insert-explicit-reshards=enable-full-version=true | filecheck %s
// RUN: pysdy-opt %s -sdy-propagate-to-func-results | filecheck %s --check-prefix=RESULTS

// A function declaration has no body to reshard or results to read: it is left as it is, and the
// other functions are processed as usual. (jaxlib's C++ passes crash on a declaration; the expected
// output is theirs for the module without it.)

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func @main
// CHECK-NEXT:    %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
// CHECK-NEXT:    %1 = sdy.reshard %0 <@mesh, [{"y"}]> : tensor<8xf32>
// CHECK-NEXT:    return %1 : tensor<8xf32>
// RESULTS-LABEL: func @main
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// CHECK-LABEL: func private @declared(tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
// RESULTS-LABEL: func private @declared(tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
func.func private @declared(tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
