// REQUIRES: reshards_keep_maximal_meshes
// RUN: pysdy-opt %s -verify-diagnostics --pass-pipeline='builtin.module(func.func(sdy-reshard-to-collectives),func.func(sdy-populate-op-sharding-rules))' | filecheck %s
// RUN: pysdy-opt %s -verify-diagnostics -sdy-reshard-to-collectives -sdy-populate-op-sharding-rules | filecheck %s

// As in MLIR, adjacent function pipelines (and function passes named at module level) run as one, function by
// function: the rules pass meets the all-to-all the reshard pass made in @first, and warns about it. jaxlib 0.11's
// and 0.12's Shardy keep the reshard to a maximal mesh in @second, so both functions go through both passes.
// Expected output: those lines' C++ pipeline on this input.

sdy.mesh @m3 = <["x"=2, "y"=2, "z"=2]>
sdy.mesh @maximal_0 = <[], device_ids=[0]>

// CHECK-LABEL: func.func @first(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@m3, [{"x", "y"}, {}]>}) -> tensor<16x8xf32> {
// CHECK-NEXT: %0 = sdy.all_to_all [{"y"}: 0->1] %arg0 out_sharding=<@m3, [{"x"}, {"y"}]> : tensor<16x8xf32>
// CHECK-NEXT: %1 = stablehlo.abs %0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=16, j=8}>} : tensor<16x8xf32>
// CHECK-NEXT: return %1 : tensor<16x8xf32>
// CHECK-NEXT: }
func.func @first(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@m3, [{"x", "y"}, {}]>}) -> tensor<16x8xf32> {
  // expected-warning@+1 {{op 'sdy.all_to_all' is unknown to SDY sharding rule registry}}
  %0 = sdy.reshard %arg0 <@m3, [{"x"}, {"y"}]> : tensor<16x8xf32>
  %1 = stablehlo.abs %0 : tensor<16x8xf32>
  return %1 : tensor<16x8xf32>
}

// CHECK-LABEL: func.func @second(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@m3, [{"x"}, {}]>}) -> tensor<16x8xf32> {
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@maximal_0, []> : tensor<16x8xf32>
// CHECK-NEXT: return %0 : tensor<16x8xf32>
// CHECK-NEXT: }
func.func @second(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@m3, [{"x"}, {}]>}) -> tensor<16x8xf32> {
  %0 = sdy.reshard %arg0 <@maximal_0, []> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
