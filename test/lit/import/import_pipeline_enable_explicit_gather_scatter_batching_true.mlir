// RUN: pysdy-opt %s -sdy-import-pipeline='enable-explicit-gather-scatter-batching=true' 2>/dev/null | filecheck %s

// With the option, the import pipeline makes the iota-indexed batch dim of the gather and of the
// scatter explicit (sdy-explicit-gather-scatter-batching runs after sdy-constant-or-scalar-splitter).
// CHECK: sdy.mesh @mesh = <["a"=2, "b"=1]> {stablehlo.mesh = {axes = [{name = "a", size = 2 : i64}, {name = "b", size = 1 : i64}]}}
// CHECK-LABEL: func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg1: tensor<8x1xi32>, %arg2: tensor<8xf32>) -> (tensor<8xf32>, tensor<8x16xf32>) {
// CHECK-NEXT: %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<8x16xf32>, tensor<8x1xi32>) -> tensor<8xf32>
// CHECK-NEXT: %1 = "stablehlo.scatter"(%arg0, %arg1, %arg2) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>, unique_indices = false}> ({
// CHECK-NEXT: ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
// CHECK-NEXT: %2 = stablehlo.add %arg3, %arg4 : tensor<f32>
// CHECK-NEXT: stablehlo.return %2 : tensor<f32>
// CHECK-NEXT: }) : (tensor<8x16xf32>, tensor<8x1xi32>, tensor<8xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: return %0, %1 : tensor<8xf32>, tensor<8x16xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["a"=2, "b"=1]>
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}, %arg1: tensor<8x1xi32>, %arg2: tensor<8xf32>) -> (tensor<8xf32>, tensor<8x16xf32>) {
  %0 = stablehlo.iota dim = 0 : tensor<8x1xi32>
  %1 = stablehlo.concatenate %0, %arg1, dim = 1 : (tensor<8x1xi32>, tensor<8x1xi32>) -> tensor<8x2xi32>
  %2 = "stablehlo.gather"(%arg0, %1) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<8x16xf32>, tensor<8x2xi32>) -> tensor<8xf32>
  %3 = "stablehlo.scatter"(%arg0, %1, %arg2) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
    %4 = stablehlo.add %arg3, %arg4 : tensor<f32>
    stablehlo.return %4 : tensor<f32>
  }) : (tensor<8x16xf32>, tensor<8x2xi32>, tensor<8xf32>) -> tensor<8x16xf32>
  return %2, %3 : tensor<8xf32>, tensor<8x16xf32>
}
