// RUN: pysdy-opt %s -split-input-file -xla-sdy-import-shardings -xla-sdy-shard-map-import -verify-diagnostics

func.func @operand_not_from_full_to_shard(%arg0: tensor<8xf32> {mhlo.sharding = "{devices=[2]<=[2]}"}) -> tensor<8xf32> {
  // expected-error@+1 {{expecting CustomCallOp as operand}}
  %0 = call @shmap_body(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @shmap_body(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

func.func @result_without_shard_to_full(%arg0: tensor<8xf32> {mhlo.sharding = "{devices=[2]<=[2]}"}) -> tensor<4xf32> {
  %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[2]<=[2]}"} : (tensor<8xf32>) -> tensor<8xf32>
  %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<8xf32>) -> tensor<4xf32>
  // expected-error@+1 {{expecting CustomCallOp as the use of the result of the CallOp}}
  %2 = call @shmap_body(%1) : (tensor<4xf32>) -> tensor<4xf32>
  %3 = stablehlo.negate %2 : tensor<4xf32>
  return %3 : tensor<4xf32>
}
func.func private @shmap_body(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  return %arg0 : tensor<4xf32>
}

// -----

func.func @two_meshes(%arg0: tensor<8xf32> {mhlo.sharding = "{devices=[2]<=[2]}"}) -> tensor<8xf32> {
  %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[2]<=[2]}"} : (tensor<8xf32>) -> tensor<8xf32>
  %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<8xf32>) -> tensor<4xf32>
  // expected-error@+1 {{Multiple meshes in a single manual computation.}}
  %2 = call @shmap_body(%1) : (tensor<4xf32>) -> tensor<4xf32>
  %3 = stablehlo.custom_call @Sharding(%2) {mhlo.sharding = "{manual}"} : (tensor<4xf32>) -> tensor<4xf32>
  %4 = stablehlo.custom_call @SPMDShardToFullShape(%3) {mhlo.sharding = "{maximal device=0}"} : (tensor<4xf32>) -> tensor<8xf32>
  return %4 : tensor<8xf32>
}
func.func private @shmap_body(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  return %arg0 : tensor<4xf32>
}

// -----

func.func @unspecified_dim_out_of_range(%arg0: tensor<8xf32> {mhlo.sharding = "{devices=[2]<=[2]}"}) -> tensor<8xf32> {
  // expected-error@+1 {{unspecified_dims [1] out of range for a rank-1 sharding}}
  %0 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "unspecified_dims=[1]", mhlo.sharding = "{devices=[2]<=[2]}"} : (tensor<8xf32>) -> tensor<8xf32>
  %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<8xf32>) -> tensor<4xf32>
  %2 = call @shmap_body(%1) : (tensor<4xf32>) -> tensor<4xf32>
  %3 = stablehlo.custom_call @Sharding(%2) {mhlo.sharding = "{manual}"} : (tensor<4xf32>) -> tensor<4xf32>
  %4 = stablehlo.custom_call @SPMDShardToFullShape(%3) {mhlo.sharding = "{devices=[2]<=[2]}"} : (tensor<4xf32>) -> tensor<8xf32>
  return %4 : tensor<8xf32>
}
func.func private @shmap_body(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  return %arg0 : tensor<4xf32>
}
