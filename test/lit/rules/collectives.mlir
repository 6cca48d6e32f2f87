// RUN: pysdy-opt %s -sdy-populate-op-sharding-rules 2>&1 | filecheck %s
// RUN: pysdy-opt %s -sdy-populate-op-sharding-rules="conservative-propagation=true" 2>&1 \
// RUN:   | filecheck %s --check-prefix=CONSERVATIVE

// CHECK-LABEL: func @all_gather_minor_dim(
// CHECK: stablehlo.all_gather{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, k]) {i=8, j=4, k=8} need_replication={j, k}>
// CONSERVATIVE-LABEL: func @all_gather_minor_dim(
// CONSERVATIVE: stablehlo.all_gather{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, k]) {i=8, j=4, k=8} need_replication={j, k}>
func.func @all_gather_minor_dim(%arg0: tensor<8x4xf32>) -> tensor<8x8xf32> {
  %0 = "stablehlo.all_gather"(%arg0) {all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8x4xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// The gathered dimension gets separate operand and result factors even when
// the group has a single member and the sizes agree.
// CHECK-LABEL: func @all_gather_group_of_one(
// CHECK: stablehlo.all_gather{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([k, i, j])->([l, i, j]) {i=4, j=3, k=6, l=6} need_replication={k, l}>
// CONSERVATIVE-LABEL: func @all_gather_group_of_one(
// CONSERVATIVE: stablehlo.all_gather{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([k, i, j])->([l, i, j]) {i=4, j=3, k=6, l=6} need_replication={k, l}>
func.func @all_gather_group_of_one(%arg0: tensor<6x4x3xf32>) -> tensor<6x4x3xf32> {
  %0 = "stablehlo.all_gather"(%arg0) {all_gather_dim = 0 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<6x4x3xf32>) -> tensor<6x4x3xf32>
  return %0 : tensor<6x4x3xf32>
}

// Variadic: the factors are sized by the first operand and result.
// CHECK-LABEL: func @all_gather_variadic(
// CHECK: stablehlo.all_gather{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([j, i], [j, i])->([k, i], [k, i]) {i=4, j=8, k=16} need_replication={j, k}>
// CONSERVATIVE-LABEL: func @all_gather_variadic(
// CONSERVATIVE: stablehlo.all_gather{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([j, i], [j, i])->([k, i], [k, i]) {i=4, j=8, k=16} need_replication={j, k}>
func.func @all_gather_variadic(%arg0: tensor<8x4xf32>, %arg1: tensor<8x6xf32>) -> (tensor<16x4xf32>, tensor<16x6xf32>) {
  %0:2 = "stablehlo.all_gather"(%arg0, %arg1) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8x4xf32>, tensor<8x6xf32>) -> (tensor<16x4xf32>, tensor<16x6xf32>)
  return %0#0, %0#1 : tensor<16x4xf32>, tensor<16x6xf32>
}

// CHECK-LABEL: func @all_reduce(
// CHECK: stablehlo.add{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([], [])->([])>
// CHECK: }) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=4}>
// CONSERVATIVE-LABEL: func @all_reduce(
// CONSERVATIVE: stablehlo.add{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([], [])->([])>
// CONSERVATIVE: }) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=4}>
func.func @all_reduce(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = "stablehlo.all_reduce"(%arg0) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %sum = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %sum : tensor<f32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// Variadic with operands of lower rank: dimension d of each tensor maps to factor d.
// CHECK-LABEL: func @all_reduce_variadic_mixed_ranks(
// CHECK: stablehlo.add{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([], [])->([])>
// CHECK: }) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i], [])->([i, j], [i], []) {i=8, j=4}>
// CONSERVATIVE-LABEL: func @all_reduce_variadic_mixed_ranks(
// CONSERVATIVE: stablehlo.add{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([], [])->([])>
// CONSERVATIVE: }) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i], [])->([i, j], [i], []) {i=8, j=4}>
func.func @all_reduce_variadic_mixed_ranks(%arg0: tensor<8x4xf32>, %arg1: tensor<8xf32>, %arg2: tensor<f32>) -> (tensor<8x4xf32>, tensor<8xf32>, tensor<f32>) {
  %0:3 = "stablehlo.all_reduce"(%arg0, %arg1, %arg2) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %sum = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %sum : tensor<f32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8x4xf32>, tensor<8xf32>, tensor<f32>) -> (tensor<8x4xf32>, tensor<8xf32>, tensor<f32>)
  return %0#0, %0#1, %0#2 : tensor<8x4xf32>, tensor<8xf32>, tensor<f32>
}

// Split then concat factors, each as an operand and a result factor.
// CHECK-LABEL: func @all_to_all(
// CHECK: stablehlo.all_to_all{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([l, i, j])->([m, i, k]) {i=4, j=6, k=2, l=8, m=24} need_replication={j, k, l, m}>
// CONSERVATIVE-LABEL: func @all_to_all(
// CONSERVATIVE: stablehlo.all_to_all{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([l, i, j])->([m, i, k]) {i=4, j=6, k=2, l=8, m=24} need_replication={j, k, l, m}>
func.func @all_to_all(%arg0: tensor<8x4x6xf32>) -> tensor<24x4x2xf32> {
  %0 = "stablehlo.all_to_all"(%arg0) {split_dimension = 2 : i64, concat_dimension = 0 : i64, split_count = 3 : i64, replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>} : (tensor<8x4x6xf32>) -> tensor<24x4x2xf32>
  return %0 : tensor<24x4x2xf32>
}

// CHECK-LABEL: func @all_to_all_same_split_and_concat_dim(
// CHECK: stablehlo.all_to_all{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([j, i])->([k, i]) {i=4, j=8, k=8} need_replication={j, k}>
// CONSERVATIVE-LABEL: func @all_to_all_same_split_and_concat_dim(
// CONSERVATIVE: stablehlo.all_to_all{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([j, i])->([k, i]) {i=4, j=8, k=8} need_replication={j, k}>
func.func @all_to_all_same_split_and_concat_dim(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = "stablehlo.all_to_all"(%arg0) {split_dimension = 0 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// CHECK-LABEL: func @all_to_all_variadic(
// CHECK: stablehlo.all_to_all{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([k, i], [k, i])->([l, j], [l, j]) {i=4, j=2, k=8, l=16} need_replication={i, j, k, l}>
// CONSERVATIVE-LABEL: func @all_to_all_variadic(
// CONSERVATIVE: stablehlo.all_to_all{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([k, i], [k, i])->([l, j], [l, j]) {i=4, j=2, k=8, l=16} need_replication={i, j, k, l}>
func.func @all_to_all_variadic(%arg0: tensor<8x4xf32>, %arg1: tensor<8x6xf32>) -> (tensor<16x2xf32>, tensor<16x3xf32>) {
  %0:2 = "stablehlo.all_to_all"(%arg0, %arg1) {split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8x4xf32>, tensor<8x6xf32>) -> (tensor<16x2xf32>, tensor<16x3xf32>)
  return %0#0, %0#1 : tensor<16x2xf32>, tensor<16x3xf32>
}

// CHECK-LABEL: func @reduce_scatter(
// CHECK: stablehlo.add{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([], [])->([])>
// CHECK: }) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, l]) {i=8, j=4, k=6, l=2} need_replication={k, l}>
// CONSERVATIVE-LABEL: func @reduce_scatter(
// CONSERVATIVE: stablehlo.add{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([], [])->([])>
// CONSERVATIVE: }) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, l]) {i=8, j=4, k=6, l=2} need_replication={k, l}>
func.func @reduce_scatter(%arg0: tensor<8x4x6xf32>) -> tensor<8x4x2xf32> {
  %0 = "stablehlo.reduce_scatter"(%arg0) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %sum = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %sum : tensor<f32>
  }) {scatter_dimension = 2 : i64, replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>} : (tensor<8x4x6xf32>) -> tensor<8x4x2xf32>
  return %0 : tensor<8x4x2xf32>
}

// CHECK-LABEL: func @collective_permute(
// CHECK: stablehlo.collective_permute{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=4}>
// CONSERVATIVE-LABEL: func @collective_permute(
// CONSERVATIVE: stablehlo.collective_permute{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=4}>
func.func @collective_permute(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = "stablehlo.collective_permute"(%arg0) {source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>} : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// CHECK-LABEL: func @collective_broadcast(
// CHECK: stablehlo.collective_broadcast{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=2, j=1, k=5}>
// CONSERVATIVE-LABEL: func @collective_broadcast(
// CONSERVATIVE: stablehlo.collective_broadcast{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=2, j=1, k=5}>
func.func @collective_broadcast(%arg0: tensor<2x1x5xf32>) -> tensor<2x1x5xf32> {
  %0 = "stablehlo.collective_broadcast"(%arg0) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x1x5xf32>) -> tensor<2x1x5xf32>
  return %0 : tensor<2x1x5xf32>
}

// CHECK-LABEL: func @cross_replica_sum(
// CHECK: stablehlo.cross-replica-sum{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=4}>
// CONSERVATIVE-LABEL: func @cross_replica_sum(
// CONSERVATIVE: stablehlo.cross-replica-sum{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=4}>
func.func @cross_replica_sum(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = "stablehlo.cross-replica-sum"(%arg0) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}
