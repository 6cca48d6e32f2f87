// RUN: pysdy-opt %s --pass-pipeline="builtin.module(func.func(sdy-sink-data-flow-edges{sink-debug-sharding-origins=true}))" | filecheck %s
// REQUIRES: !sink_debug_info_of_every_edge

// Before jax 0.12, sinking origins gives an op an entry per data-flow edge that recorded origins only.

// CHECK: sdy.mesh @mesh = <["a"=2]>
// CHECK-LABEL: func.func @edges_with_and_without_origins(
// CHECK-SAME: %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}, %arg1: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
// CHECK-NEXT: %0:2 = stablehlo.optimization_barrier {sdy.block_arg_sharding_origins = [], sdy.result_sharding_origins = []} %arg0, %arg1 : tensor<8xf32>, tensor<8xf32>
// CHECK-NEXT: %1:2 = stablehlo.optimization_barrier {sdy.block_arg_sharding_origins = [], sdy.result_sharding_origins = [{a = "input: 0"}]} %arg0, %arg1 : tensor<8xf32>, tensor<8xf32>
// CHECK-NEXT: return %0#0, %1#1 : tensor<8xf32>, tensor<8xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["a"=2]>
func.func @edges_with_and_without_origins(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}, %arg1: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0:2 = stablehlo.optimization_barrier %arg0, %arg1 : tensor<8xf32>, tensor<8xf32>
  %1 = sdy.data_flow_edge %0#0 : tensor<8xf32>
  %2:2 = stablehlo.optimization_barrier %arg0, %arg1 : tensor<8xf32>, tensor<8xf32>
  %3 = sdy.data_flow_edge %2#1 {sdy.sharding_origins = {a = "input: 0"}} : tensor<8xf32>
  return %1, %3 : tensor<8xf32>, tensor<8xf32>
}
