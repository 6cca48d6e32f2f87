// RUN: pysdy-opt %s -sdy-close-shardings | filecheck %s

// Every sharding (func args/results, op results, constraints, reshards, manual computation in/out) is closed and loses its replicated axes.
// Expected output: jaxlib's C++ pass on this input.

// CHECK: sdy.mesh @mesh = <["x"=4, "y"=2, "z"=3]>
// CHECK-LABEL: func.func @main(%arg0: tensor<16x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"z"}]>}) -> tensor<16x6xf32> {
// CHECK-NEXT: %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x", "y"}, {}]>] out_shardings=[<@mesh, [{"x"}, {"z"}], unreduced={"y"}>] manual_axes={"x"} (%arg1: tensor<4x6xf32>) {
// CHECK-NEXT: %4 = sdy.data_flow_edge %arg1 sharding=<@mesh, [{"y"}, {}]> : tensor<4x6xf32>
// CHECK-NEXT: %5 = stablehlo.negate %4 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : tensor<4x6xf32>
// CHECK-NEXT: sdy.return %5 : tensor<4x6xf32>
// CHECK-NEXT: } : (tensor<16x6xf32>) -> tensor<16x6xf32>
// CHECK-NEXT: %1 = sdy.data_flow_edge %0 sharding=<@mesh, [{"x", "y"}, {"z"}]> : tensor<16x6xf32>
// CHECK-NEXT: %2 = sdy.sharding_constraint %1 <@mesh, [{}, {"z"}]> : tensor<16x6xf32>
// CHECK-NEXT: %3 = sdy.reshard %2 <@mesh, [{"y"}, {}]> : tensor<16x6xf32>
// CHECK-NEXT: return %3 : tensor<16x6xf32>
// CHECK-NEXT: }

sdy.mesh @mesh = <["x"=4, "y"=2, "z"=3]>

func.func @main(%arg0: tensor<16x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {"z"}], replicated={"y"}>}) -> tensor<16x6xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x", "y", ?}, {}], replicated={"z"}>] out_shardings=[<@mesh, [{"x", ?}, {"z"}], unreduced={"y"}>] manual_axes={"x"} (%arg1: tensor<4x6xf32>) {
    %1 = sdy.data_flow_edge %arg1 sharding=<@mesh, [{"y"}, {?}]> : tensor<4x6xf32>
    %2 = stablehlo.negate %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y", ?}, {?}], replicated={"z"}>]>} : tensor<4x6xf32>
    sdy.return %2 : tensor<4x6xf32>
  } : (tensor<16x6xf32>) -> tensor<16x6xf32>
  %3 = sdy.data_flow_edge %0 sharding=<@mesh, [{"x", "y", ?}, {"z"}]> : tensor<16x6xf32>
  %4 = sdy.sharding_constraint %3 <@mesh, [{?}, {"z"}], replicated={"x"}> : tensor<16x6xf32>
  %5 = sdy.reshard %4 <@mesh, [{"y", ?}, {}]> : tensor<16x6xf32>
  return %5 : tensor<16x6xf32>
}
