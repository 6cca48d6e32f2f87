// RUN: pysdy-opt %s -split-input-file -xla-sdy-import-shardings -xla-sdy-import-sdy-custom-calls 2>/dev/null | filecheck %s -DMAXIMAL_MESH=%xla_maximal_mesh

// @Sharding becomes a sharding constraint; backend_config's unspecified_dims open those dims; other custom calls stay.
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=2]>
// CHECK-NEXT: sdy.mesh @[[MAXIMAL_MESH]]_1 = <[], device_ids=[1]>
// CHECK-NEXT: func.func @constraints(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
// CHECK-NEXT: %0 = sdy.sharding_constraint %arg0 <@mesh, [{"_axis_0"}, {"_axis_1"}]> : tensor<8x8xf32>
// CHECK-NEXT: %1 = sdy.sharding_constraint %0 <@mesh, [{"_axis_0"}, {?}]> : tensor<8x8xf32>
// CHECK-NEXT: %2 = sdy.sharding_constraint %1 <@[[MAXIMAL_MESH]]_1, []> : tensor<8x8xf32>
// CHECK-NEXT: %3 = stablehlo.custom_call @foo(%2) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: return %3 : tensor<8x8xf32>
func.func @constraints(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "", mhlo.sharding = "{devices=[2,2]<=[4]}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = stablehlo.custom_call @Sharding(%0) {backend_config = "unspecified_dims=[1]", mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = stablehlo.custom_call @Sharding(%1) {backend_config = "unspecified_dims=[0]", mhlo.sharding = "{maximal device=1}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %3 = stablehlo.custom_call @foo(%2) {mhlo.sharding = "{replicated}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}

// -----

// A sharding group custom call becomes sdy.sharding_group.
// CHECK-LABEL: module {
// CHECK-NEXT: func.func @sharding_group(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT: sdy.sharding_group %arg0 group_id=3 : tensor<8xf32>
func.func @sharding_group(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  stablehlo.custom_call @xla.sdy.ShardingGroup(%arg0) {has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.sharding_group_id = "3 : i64"}} : (tensor<8xf32>) -> ()
  return %arg0 : tensor<8xf32>
}

