// REQUIRES: per_instruction_partitioning
// RUN: pysdy-opt %s -split-input-file -sdy-per-instruction-partitioning | filecheck %s

// Modules without an op jaxlib's pass partitions stay as they are: an op is partitioned on its own only at the top
// level of a function, when an operand or result has a sharded dimension, and when it is not sharding metadata (a
// sharding constraint, a barrier, a group, a data-flow edge, a manual computation, an unreduced collective,
// mhlo.copy or a Sharding custom call).
// Expected output: jaxlib 0.11.2's and 0.12.0.1's C++ pass on each input.

sdy.mesh @mesh = <["x"=2]>

// CHECK-LABEL: func.func @replicated(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
// CHECK-NEXT: %0 = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : tensor<8xf32>
// CHECK-NEXT: return %0 : tensor<8xf32>
// CHECK-NEXT: }
func.func @replicated(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
  %0 = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

// CHECK-LABEL: func.func @sharded_return_only(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
// CHECK-NEXT: return %arg0 : tensor<8xf32>
// CHECK-NEXT: }
func.func @sharded_return_only(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  return %arg0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

// CHECK-LABEL: func.func @sharded_in_while(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT: %0 = stablehlo.while(%iterArg = %arg0) : tensor<8xf32>
// CHECK-NEXT: cond {
// CHECK-NEXT: %c = stablehlo.constant dense<true> : tensor<i1>
// CHECK-NEXT: stablehlo.return %c : tensor<i1>
// CHECK-NEXT: } do {
// CHECK-NEXT: %1 = stablehlo.negate %iterArg {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
// CHECK-NEXT: stablehlo.return %1 : tensor<8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %0 : tensor<8xf32>
// CHECK-NEXT: }
func.func @sharded_in_while(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.while(%iterArg = %arg0) : tensor<8xf32>
    cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %1 = stablehlo.negate %iterArg {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
    stablehlo.return %1 : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

// CHECK-LABEL: func.func @skipped_sdy_ops(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32>, tensor<8xf32>) {
// CHECK-NEXT: %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x"}]> : tensor<8xf32>
// CHECK-NEXT: %1 = sdy.propagation_barrier %0 allowed_direction=NONE : tensor<8xf32>
// CHECK-NEXT: sdy.sharding_group %0 group_id=0 : tensor<8xf32>
// CHECK-NEXT: %2 = sdy.data_flow_edge %arg1 sharding=<@mesh, [{"x"}]> : tensor<8xf32>
// CHECK-NEXT: return %1, %2 : tensor<8xf32>, tensor<8xf32>
// CHECK-NEXT: }
func.func @skipped_sdy_ops(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x"}]> : tensor<8xf32>
  %1 = sdy.propagation_barrier %0 allowed_direction=NONE : tensor<8xf32>
  sdy.sharding_group %0 group_id=0 : tensor<8xf32>
  %2 = sdy.data_flow_edge %arg1 sharding=<@mesh, [{"x"}]> : tensor<8xf32>
  return %1, %2 : tensor<8xf32>, tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

// CHECK-LABEL: func.func @copy_and_sharding_custom_calls(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
// CHECK-NEXT: %0 = mhlo.copy %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
// CHECK-NEXT: %1 = stablehlo.custom_call @Sharding(%0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %2 = stablehlo.custom_call @mhlo.sharding(%1) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: return %2 : tensor<8xf32>
// CHECK-NEXT: }
func.func @copy_and_sharding_custom_calls(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  %0 = mhlo.copy %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  %1 = stablehlo.custom_call @Sharding(%0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<8xf32>) -> tensor<8xf32>
  %2 = stablehlo.custom_call @mhlo.sharding(%1) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<8xf32>) -> tensor<8xf32>
  return %2 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

// CHECK-LABEL: func.func @manual_and_unreduced(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
// CHECK-NEXT: %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%arg1: tensor<4xf32>) {
// CHECK-NEXT: sdy.return %arg1 : tensor<4xf32>
// CHECK-NEXT: } : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %1 = sdy.sharded_to_unreduced [{"x"}] %0 out_sharding=<@mesh, [{}], unreduced={"x"}> : tensor<8xf32>
// CHECK-NEXT: return %1 : tensor<8xf32>
// CHECK-NEXT: }
func.func @manual_and_unreduced(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%a: tensor<4xf32>) {
    sdy.return %a : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  %1 = sdy.sharded_to_unreduced [{"x"}] %0 out_sharding=<@mesh, [{}], unreduced={"x"}> : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
sdy.mesh @maximal = <[], device_ids=[1]>

// CHECK-LABEL: func.func @maximal_and_unreduced_results(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
// CHECK-NEXT: %0 = stablehlo.custom_call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %1 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], unreduced={"x"}>]>} : tensor<8xf32>
// CHECK-NEXT: return %0, %1 : tensor<8xf32>, tensor<8xf32>
// CHECK-NEXT: }
func.func @maximal_and_unreduced_results(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = stablehlo.custom_call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : (tensor<8xf32>) -> tensor<8xf32>
  %1 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], unreduced={"x"}>]>} : tensor<8xf32>
  return %0, %1 : tensor<8xf32>, tensor<8xf32>
}
