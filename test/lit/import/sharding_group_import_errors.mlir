// RUN: pysdy-opt %s -split-input-file -sdy-sharding-group-import -verify-diagnostics

func.func @group_with_different_shapes(%arg0: tensor<8xf32>, %arg1: tensor<4xf32>) {
  sdy.sharding_group %arg0 group_id=1 : tensor<8xf32>
  // expected-error@+1 {{ShardingGroupOps values must have the same shape for groupId: 1}}
  sdy.sharding_group %arg1 group_id=1 : tensor<4xf32>
  func.return
}

// -----

sdy.mesh @mesh = <["a"=2]>

func.func @group_crossing_manual_computation(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  sdy.sharding_group %arg0 group_id=1 : tensor<8xf32>
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%arg1: tensor<4xf32>) {
    // expected-error@+1 {{ShardingGroupOps values cannot cross ManualComputationOp boundaries for groupId: 1}}
    sdy.sharding_group %arg1 group_id=1 : tensor<4xf32>
    sdy.return %arg1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
