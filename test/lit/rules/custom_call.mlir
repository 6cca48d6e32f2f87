// RUN: pysdy-opt %s -sdy-populate-op-sharding-rules 2>&1 | filecheck %s
// RUN: pysdy-opt %s -sdy-populate-op-sharding-rules="conservative-propagation=true" 2>&1 \
// RUN:   | filecheck %s --check-prefix=CONSERVATIVE

// Targets that are pointwise.
// CHECK-LABEL: func @move_to_host(
// CHECK: stablehlo.custom_call{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=4}>
// CONSERVATIVE-LABEL: func @move_to_host(
// CONSERVATIVE: stablehlo.custom_call{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=4}>
func.func @move_to_host(%arg0: tensor<8x4xf32>) -> (tensor<8x4xf32>) {
  %0 = stablehlo.custom_call @MoveToHost(%arg0) : (tensor<8x4xf32>) -> (tensor<8x4xf32>)
  return %0 : tensor<8x4xf32>
}

// CHECK-LABEL: func @annotate_device_placement(
// CHECK: stablehlo.custom_call{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=4}>
// CONSERVATIVE-LABEL: func @annotate_device_placement(
// CONSERVATIVE: stablehlo.custom_call{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=4}>
func.func @annotate_device_placement(%arg0: tensor<8x4xf32>) -> (tensor<8x4xf32>) {
  %0 = stablehlo.custom_call @annotate_device_placement(%arg0) {mhlo.frontend_attributes = {_xla_buffer_placement = "device"}} : (tensor<8x4xf32>) -> (tensor<8x4xf32>)
  return %0 : tensor<8x4xf32>
}

// CHECK-LABEL: func @layout_constraint(
// CHECK: stablehlo.custom_call{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=2, j=8, k=4}>
// CONSERVATIVE-LABEL: func @layout_constraint(
// CONSERVATIVE: stablehlo.custom_call{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=2, j=8, k=4}>
func.func @layout_constraint(%arg0: tensor<2x8x4xf32>) -> (tensor<2x8x4xf32>) {
  %0 = stablehlo.custom_call @LayoutConstraint(%arg0) : (tensor<2x8x4xf32>) -> (tensor<2x8x4xf32>)
  return %0 : tensor<2x8x4xf32>
}

// CHECK-LABEL: func @x64_split_low(
// CHECK: stablehlo.custom_call{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=4}>
// CONSERVATIVE-LABEL: func @x64_split_low(
// CONSERVATIVE: stablehlo.custom_call{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=4}>
func.func @x64_split_low(%arg0: tensor<8x4xui64>) -> (tensor<8x4xui32>) {
  %0 = stablehlo.custom_call @X64SplitLow(%arg0) : (tensor<8x4xui64>) -> (tensor<8x4xui32>)
  return %0 : tensor<8x4xui32>
}

// A lower-rank operand shares the leading factors.
// CHECK-LABEL: func @pointwise_lower_rank_operand(
// CHECK: stablehlo.custom_call{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j])->([i, j, k]) {i=2, j=8, k=4}>
// CONSERVATIVE-LABEL: func @pointwise_lower_rank_operand(
// CONSERVATIVE: stablehlo.custom_call{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j])->([i, j, k]) {i=2, j=8, k=4}>
func.func @pointwise_lower_rank_operand(%arg0: tensor<2x8x4xf32>, %arg1: tensor<2x8xf32>) -> (tensor<2x8x4xf32>) {
  %0 = stablehlo.custom_call @CompactWyHelper(%arg0, %arg1) : (tensor<2x8x4xf32>, tensor<2x8xf32>) -> (tensor<2x8x4xf32>)
  return %0 : tensor<2x8x4xf32>
}

// CHECK-LABEL: func @x64_combine(
// CHECK: stablehlo.custom_call{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=4}>
// CONSERVATIVE-LABEL: func @x64_combine(
// CONSERVATIVE: stablehlo.custom_call{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=4}>
func.func @x64_combine(%arg0: tensor<8x4xui32>, %arg1: tensor<8x4xui32>) -> (tensor<8x4xui64>) {
  %0 = stablehlo.custom_call @X64Combine(%arg0, %arg1) : (tensor<8x4xui32>, tensor<8x4xui32>) -> (tensor<8x4xui64>)
  return %0 : tensor<8x4xui64>
}

// Feeding an rng_bit_generator, X64Combine keeps the state replicated.
// CHECK-LABEL: func @x64_combine_into_rng_bit_generator(
// CHECK: stablehlo.custom_call{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i], [i])->([i]) {i=2} need_replication={i} blocked_propagation={i}>
// CHECK: stablehlo.rng_bit_generator{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i], [j, k]) {i=2, j=4, k=8} need_replication={i} blocked_propagation={i}>
// CONSERVATIVE-LABEL: func @x64_combine_into_rng_bit_generator(
// CONSERVATIVE: stablehlo.custom_call{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i], [i])->([i]) {i=2} need_replication={i} blocked_propagation={i}>
// CONSERVATIVE: stablehlo.rng_bit_generator{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i], [j, k]) {i=2, j=4, k=8} need_replication={i} blocked_propagation={i}>
func.func @x64_combine_into_rng_bit_generator(%arg0: tensor<2xui32>, %arg1: tensor<2xui32>) -> tensor<4x8xui32> {
  %0 = stablehlo.custom_call @X64Combine(%arg0, %arg1) : (tensor<2xui32>, tensor<2xui32>) -> tensor<2xui64>
  %1:2 = "stablehlo.rng_bit_generator"(%0) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>} : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4x8xui32>)
  return %1#1 : tensor<4x8xui32>
}

// CHECK-LABEL: func @eigh(
// CHECK: stablehlo.custom_call{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, k], [i, k]) {i=2, j=4, k=4}>
// CONSERVATIVE-LABEL: func @eigh(
// CONSERVATIVE: stablehlo.custom_call{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, k], [i, k]) {i=2, j=4, k=4}>
func.func @eigh(%arg0: tensor<2x4x4xf32>) -> (tensor<2x4x4xf32>, tensor<2x4xf32>) {
  %0:2 = stablehlo.custom_call @Eigh(%arg0) : (tensor<2x4x4xf32>) -> (tensor<2x4x4xf32>, tensor<2x4xf32>)
  return %0#0, %0#1 : tensor<2x4x4xf32>, tensor<2x4xf32>
}

// CHECK-LABEL: func @qr(
// CHECK: stablehlo.custom_call{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, k], [i, l]) {i=2, j=5, k=3, l=3} need_replication={j, k, l}>
// CONSERVATIVE-LABEL: func @qr(
// CONSERVATIVE: stablehlo.custom_call{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, k], [i, l]) {i=2, j=5, k=3, l=3} need_replication={j, k, l}>
func.func @qr(%arg0: tensor<2x5x3xf32>) -> (tensor<2x5x3xf32>, tensor<2x3xf32>) {
  %0:2 = stablehlo.custom_call @Qr(%arg0) : (tensor<2x5x3xf32>) -> (tensor<2x5x3xf32>, tensor<2x3xf32>)
  return %0#0, %0#1 : tensor<2x5x3xf32>, tensor<2x3xf32>
}

// CHECK-LABEL: func @qr_decomposition_block(
// CHECK: stablehlo.custom_call{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j], [k]) {i=6, j=4, k=4} need_replication={i, j, k}>
// CONSERVATIVE-LABEL: func @qr_decomposition_block(
// CONSERVATIVE: stablehlo.custom_call{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j], [k]) {i=6, j=4, k=4} need_replication={i, j, k}>
func.func @qr_decomposition_block(%arg0: tensor<6x4xf32>) -> (tensor<6x4xf32>, tensor<4xf32>) {
  %0:2 = stablehlo.custom_call @QrDecompositionBlock(%arg0) : (tensor<6x4xf32>) -> (tensor<6x4xf32>, tensor<4xf32>)
  return %0#0, %0#1 : tensor<6x4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func @householder_product(
// CHECK: stablehlo.custom_call{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, l])->([i, j, k]) {i=2, j=12, k=16, l=5} need_replication={j, k, l}>
// CONSERVATIVE-LABEL: func @householder_product(
// CONSERVATIVE: stablehlo.custom_call{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, l])->([i, j, k]) {i=2, j=12, k=16, l=5} need_replication={j, k, l}>
func.func @householder_product(%arg0: tensor<2x12x16xf32>, %arg1: tensor<2x5xf32>) -> (tensor<2x12x16xf32>) {
  %0 = stablehlo.custom_call @ProductOfElementaryHouseholderReflectors(%arg0, %arg1) : (tensor<2x12x16xf32>, tensor<2x5xf32>) -> (tensor<2x12x16xf32>)
  return %0 : tensor<2x12x16xf32>
}

// CHECK-LABEL: func @top_k(
// CHECK: stablehlo.custom_call{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j], [i, j]) {i=16, j=8} need_replication={j} blocked_propagation={j}>
// CONSERVATIVE-LABEL: func @top_k(
// CONSERVATIVE: stablehlo.custom_call{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j], [i, j]) {i=16, j=8} need_replication={j} blocked_propagation={j}>
func.func @top_k(%arg0: tensor<16x8xf32>) -> (tensor<16x2xf32>, tensor<16x2xi32>) {
  %0:2 = stablehlo.custom_call @mhlo.topk(%arg0) {mhlo.attributes = {k = 2 : i64, largest = true}, mhlo.version = 1 : i64} : (tensor<16x8xf32>) -> (tensor<16x2xf32>, tensor<16x2xi32>)
  return %0#0, %0#1 : tensor<16x2xf32>, tensor<16x2xi32>
}

// CHECK-LABEL: func @top_k_of_everything(
// CHECK: stablehlo.custom_call{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j], [i, j]) {i=16, j=8}>
// CONSERVATIVE-LABEL: func @top_k_of_everything(
// CONSERVATIVE: stablehlo.custom_call{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j], [i, j]) {i=16, j=8}>
func.func @top_k_of_everything(%arg0: tensor<16x8xf32>) -> (tensor<16x8xf32>, tensor<16x8xi32>) {
  %0:2 = stablehlo.custom_call @mhlo.topk(%arg0) {mhlo.attributes = {k = 8 : i64, largest = true}, mhlo.version = 1 : i64} : (tensor<16x8xf32>) -> (tensor<16x8xf32>, tensor<16x8xi32>)
  return %0#0, %0#1 : tensor<16x8xf32>, tensor<16x8xi32>
}

// CHECK-LABEL: func @approx_top_k(
// CHECK: stablehlo.custom_call{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j], [], [])->([i, k], [i, k]) {i=16, j=4, k=2} need_replication={k} blocked_propagation={k}>
// CONSERVATIVE-LABEL: func @approx_top_k(
// CONSERVATIVE: stablehlo.custom_call{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j], [], [])->([i, k], [i, k]) {i=16, j=4, k=2} need_replication={k} blocked_propagation={k}>
func.func @approx_top_k(%arg0: tensor<16x4xf32>, %arg1: tensor<16x4xi32>, %arg2: tensor<f32>, %arg3: tensor<i32>) -> (tensor<16x2xf32>, tensor<16x2xi32>) {
  %0:2 = stablehlo.custom_call @ApproxTopK(%arg0, %arg1, %arg2, %arg3) : (tensor<16x4xf32>, tensor<16x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<16x2xf32>, tensor<16x2xi32>)
  return %0#0, %0#1 : tensor<16x2xf32>, tensor<16x2xi32>
}

// CHECK-LABEL: func @partial_reduce(
// CHECK: stablehlo.custom_call{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, k], [i, k], [], [])->([j, k], [j, k]) {i=4, j=1, k=16} need_replication={j} blocked_propagation={j}>
// CONSERVATIVE-LABEL: func @partial_reduce(
// CONSERVATIVE: stablehlo.custom_call{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, k], [i, k], [], [])->([j, k], [j, k]) {i=4, j=1, k=16} need_replication={j} blocked_propagation={j}>
func.func @partial_reduce(%arg0: tensor<4x16xf32>, %arg1: tensor<4x16xi32>, %arg2: tensor<f32>, %arg3: tensor<i32>) -> (tensor<1x16xf32>, tensor<1x16xi32>) {
  %0:2 = stablehlo.custom_call @PartialReduce(%arg0, %arg1, %arg2, %arg3) : (tensor<4x16xf32>, tensor<4x16xi32>, tensor<f32>, tensor<i32>) -> (tensor<1x16xf32>, tensor<1x16xi32>)
  return %0#0, %0#1 : tensor<1x16xf32>, tensor<1x16xi32>
}

// Unknown targets get no rule: register one from Python for them.
// CHECK-LABEL: func @unknown_target(
// CHECK-NOT: sdy.sharding_rule
// CONSERVATIVE-LABEL: func @unknown_target(
// CONSERVATIVE-NOT: sdy.sharding_rule
func.func @unknown_target(%arg0: tensor<8x4xf32>) -> (tensor<8x4xf32>) {
  %0 = stablehlo.custom_call @my_ffi_kernel(%arg0) : (tensor<8x4xf32>) -> (tensor<8x4xf32>)
  return %0 : tensor<8x4xf32>
}

// Frontend attributes naming batch dimensions do not give an unknown target a rule.
// CHECK-LABEL: func @unknown_target_with_batch_dims(
// CHECK-NOT: sdy.sharding_rule
// CONSERVATIVE-LABEL: func @unknown_target_with_batch_dims(
// CONSERVATIVE-NOT: sdy.sharding_rule
func.func @unknown_target_with_batch_dims(%arg0: tensor<2x8x4xf32>) -> (tensor<2x8x4xf32>) {
  %0 = stablehlo.custom_call @my_ffi_kernel(%arg0) {mhlo.frontend_attributes = {num_batch_dims = "1"}} : (tensor<2x8x4xf32>) -> (tensor<2x8x4xf32>)
  return %0 : tensor<2x8x4xf32>
}

// Targets deliberately left without a rule.
// CHECK-LABEL: func @python_callback(
// CHECK-NOT: sdy.sharding_rule
// CONSERVATIVE-LABEL: func @python_callback(
// CONSERVATIVE-NOT: sdy.sharding_rule
func.func @python_callback(%arg0: tensor<8x4xf32>) -> (tensor<8x4xf32>) {
  %0 = stablehlo.custom_call @xla_ffi_python_cpu_callback(%arg0) : (tensor<8x4xf32>) -> (tensor<8x4xf32>)
  return %0 : tensor<8x4xf32>
}

// CHECK-LABEL: func @tpu_custom_call(
// CHECK-NOT: sdy.sharding_rule
// CONSERVATIVE-LABEL: func @tpu_custom_call(
// CONSERVATIVE-NOT: sdy.sharding_rule
func.func @tpu_custom_call(%arg0: tensor<8x4xf32>) -> (tensor<8x4xf32>) {
  %0 = stablehlo.custom_call @tpu_custom_call(%arg0) : (tensor<8x4xf32>) -> (tensor<8x4xf32>)
  return %0 : tensor<8x4xf32>
}

// Sharding annotations as custom calls are not special-cased by the registry.
// CHECK-LABEL: func @sharding_target(
// CHECK-NOT: sdy.sharding_rule
// CONSERVATIVE-LABEL: func @sharding_target(
// CONSERVATIVE-NOT: sdy.sharding_rule
func.func @sharding_target(%arg0: tensor<8x4xf32>) -> (tensor<8x4xf32>) {
  %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{replicated}"} : (tensor<8x4xf32>) -> (tensor<8x4xf32>)
  return %0 : tensor<8x4xf32>
}

// A tuple or token result gets no rule, even for a known target.
// CHECK-LABEL: func @tuple_result(
// CHECK-NOT: sdy.sharding_rule
// CONSERVATIVE-LABEL: func @tuple_result(
// CONSERVATIVE-NOT: sdy.sharding_rule
func.func @tuple_result(%arg0: tensor<8x4xf32>) -> tuple<tensor<8x4xf32>, tensor<i32>> {
  %0 = stablehlo.custom_call @MoveToHost(%arg0) : (tensor<8x4xf32>) -> tuple<tensor<8x4xf32>, tensor<i32>>
  return %0 : tuple<tensor<8x4xf32>, tensor<i32>>
}

// CHECK-LABEL: func @token_result(
// CHECK-NOT: sdy.sharding_rule
// CONSERVATIVE-LABEL: func @token_result(
// CONSERVATIVE-NOT: sdy.sharding_rule
func.func @token_result(%arg0: tensor<8x4xf32>) -> !stablehlo.token {
  %0:2 = stablehlo.custom_call @X64SplitLow(%arg0) : (tensor<8x4xf32>) -> (!stablehlo.token, tensor<8x4xf32>)
  return %0#0 : !stablehlo.token
}

// A rule already on the op is kept as written.
// CHECK-LABEL: func @existing_custom_rule(
// CHECK: stablehlo.custom_call{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([j, i]) {i=8, j=4}, custom>
// CONSERVATIVE-LABEL: func @existing_custom_rule(
// CONSERVATIVE: stablehlo.custom_call{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([j, i]) {i=8, j=4}, custom>
func.func @existing_custom_rule(%arg0: tensor<8x4xf32>) -> (tensor<4x8xf32>) {
  %0 = stablehlo.custom_call @my_ffi_kernel(%arg0) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([j, i]) {i=8, j=4}, custom>} : (tensor<8x4xf32>) -> (tensor<4x8xf32>)
  return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func @existing_rule_on_known_target(
// CHECK: stablehlo.custom_call{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=4} need_replication={i}>
// CONSERVATIVE-LABEL: func @existing_rule_on_known_target(
// CONSERVATIVE: stablehlo.custom_call{{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=4} need_replication={i}>
func.func @existing_rule_on_known_target(%arg0: tensor<8x4xf32>) -> (tensor<8x4xf32>) {
  %0 = stablehlo.custom_call @MoveToHost(%arg0) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=4} need_replication={i}>} : (tensor<8x4xf32>) -> (tensor<8x4xf32>)
  return %0 : tensor<8x4xf32>
}
