// RUN: pysdy-opt %s -sdy-explicit-gather-scatter-batching -mlir-print-debuginfo 2>/dev/null | filecheck %s

// The slices and the concatenate that replace the indices take the gather's location.
// CHECK-LABEL: func.func @new_ops_take_the_gather_location(
// CHECK-NEXT: %0 = stablehlo.iota dim = 0 : tensor<4xi32> loc([[IOTA:#loc[0-9]+]])
// CHECK-NEXT: %1 = stablehlo.broadcast_in_dim %0, dims = [0] : (tensor<4xi32>) -> tensor<4x3xi32> loc([[INDICES:#loc[0-9]+]])
// CHECK-NEXT: %2 = stablehlo.slice %1 [0:4, 0:1] : (tensor<4x3xi32>) -> tensor<4x1xi32> loc([[GATHER:#loc[0-9]+]])
// CHECK-NEXT: %3 = stablehlo.slice %1 [0:4, 2:3] : (tensor<4x3xi32>) -> tensor<4x1xi32> loc([[GATHER]])
// CHECK-NEXT: %4 = stablehlo.concatenate %2, %3, dim = 1 : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x2xi32> loc([[GATHER]])
// CHECK-NEXT: %5 = "stablehlo.gather"(%arg0, %4) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1, 2], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1, 2], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1>}> : (tensor<4x4x4xf32>, tensor<4x2xi32>) -> tensor<4xf32> loc([[GATHER]])
// CHECK-NEXT: return %5 : tensor<4xf32> loc([[RETURN:#loc[0-9]+]])
// CHECK-DAG: [[IOTA]] = loc("iota")
// CHECK-DAG: [[INDICES]] = loc("indices")
// CHECK-DAG: [[GATHER]] = loc("gather")
// CHECK-DAG: [[RETURN]] = loc("return")
func.func @new_ops_take_the_gather_location(%arg0: tensor<4x4x4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.iota dim = 0 : tensor<4xi32> loc("iota")
  %1 = stablehlo.broadcast_in_dim %0, dims = [0] : (tensor<4xi32>) -> tensor<4x3xi32> loc("indices")
  %2 = "stablehlo.gather"(%arg0, %1) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1, 2], start_index_map = [1, 0, 2], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1, 1>}> : (tensor<4x4x4xf32>, tensor<4x3xi32>) -> tensor<4xf32> loc("gather")
  return %2 : tensor<4xf32> loc("return")
}
