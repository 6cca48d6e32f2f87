// REQUIRES: convert_global_to_local_device_counts
// RUN: pysdy-opt %s -split-input-file -sdy-convert-global-to-local=partition-count=4 | filecheck %s
// RUN: pysdy-opt %s -split-input-file -sdy-convert-global-to-local=replica-count=2 | filecheck %s
// RUN: pysdy-opt %s -split-input-file '-sdy-convert-global-to-local=partition-count=4 replica-count=2' -verify-diagnostics

// From jax 0.11 the pass takes partition-count and replica-count: given only one of them, it leaves these modules
// as they are; given both more than one partition and more than one replica, it fails on the module.
// Expected output and error: jaxlib 0.11.2's and 0.12.0.1's C++ pass on each input.

// expected-error@+1 {{Shardy partitioner convert_global_to_local does not support both replica_count > 1 and partition_count > 1 yet.}}
module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>

  // CHECK-LABEL: func.func @replicated(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
  // CHECK-NEXT: %0 = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : tensor<8xf32>
  // CHECK-NEXT: return %0 : tensor<8xf32>
  // CHECK-NEXT: }
  func.func @replicated(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
    %0 = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}

// -----

// expected-error@+1 {{Shardy partitioner convert_global_to_local does not support both replica_count > 1 and partition_count > 1 yet.}}
module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>

  // CHECK-LABEL: func.func @device_ids() -> tensor<ui32> {
  // CHECK-NEXT: %0 = stablehlo.replica_id : tensor<ui32>
  // CHECK-NEXT: %1 = stablehlo.partition_id : tensor<ui32>
  // CHECK-NEXT: %2 = stablehlo.add %0, %1 : tensor<ui32>
  // CHECK-NEXT: return %2 : tensor<ui32>
  // CHECK-NEXT: }
  func.func @device_ids() -> tensor<ui32> {
    %0 = stablehlo.replica_id : tensor<ui32>
    %1 = stablehlo.partition_id : tensor<ui32>
    %2 = stablehlo.add %0, %1 : tensor<ui32>
    return %2 : tensor<ui32>
  }
}
