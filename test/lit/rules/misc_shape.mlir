// RUN: pysdy-opt %s -sdy-populate-op-sharding-rules 2>&1 | filecheck %s

// CHECK-LABEL: func @reverse
// CHECK: %0 = stablehlo.reverse %arg0, dims = [0, 2] {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=4, j=8, k=2} permutation={i, k}>} : tensor<4x8x2xf32>
func.func @reverse(%arg0: tensor<4x8x2xf32>) -> tensor<4x8x2xf32> {
  %0 = stablehlo.reverse %arg0, dims = [0, 2] : tensor<4x8x2xf32>
  return %0 : tensor<4x8x2xf32>
}

// CHECK-LABEL: func @reduce_precision
// CHECK: %0 = stablehlo.reduce_precision %arg0, format = e5m10 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8}>} : tensor<4x8xf32>
func.func @reduce_precision(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.reduce_precision %arg0, format = e5m10 : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func @iota_has_no_rule
// CHECK-NOT: sdy.sharding_rule
func.func @iota_has_no_rule() -> tensor<4x8xf32> {
  %0 = stablehlo.iota dim = 1 : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func @select_scalar_pred
// CHECK: %0 = stablehlo.select %arg0, %arg1, %arg1 {sdy.sharding_rule = #sdy.op_sharding_rule<([], [i, j], [i, j])->([i, j]) {i=4, j=8}>} : tensor<i1>, tensor<4x8xf32>
func.func @select_scalar_pred(%arg0: tensor<i1>, %arg1: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.select %arg0, %arg1, %arg1 : tensor<i1>, tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func @select_tensor_pred
// CHECK: %0 = stablehlo.select %arg0, %arg1, %arg1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j], [i, j])->([i, j]) {i=4, j=8}>} : tensor<4x8xi1>, tensor<4x8xf32>
func.func @select_tensor_pred(%arg0: tensor<4x8xi1>, %arg1: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.select %arg0, %arg1, %arg1 : tensor<4x8xi1>, tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func @clamp_scalar_bounds
// CHECK: %0 = stablehlo.clamp %arg0, %arg1, %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([], [i, j], [])->([i, j]) {i=4, j=8}>} : (tensor<f32>, tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
func.func @clamp_scalar_bounds(%arg0: tensor<f32>, %arg1: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.clamp %arg0, %arg1, %arg0 : (tensor<f32>, tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func @bitcast_convert_to_narrower
// CHECK: %0 = stablehlo.bitcast_convert %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j, k]) {i=4, j=8, k=2} need_replication={k}>} : (tensor<4x8xf32>) -> tensor<4x8x2xf16>
func.func @bitcast_convert_to_narrower(%arg0: tensor<4x8xf32>) -> tensor<4x8x2xf16> {
  %0 = stablehlo.bitcast_convert %arg0 : (tensor<4x8xf32>) -> tensor<4x8x2xf16>
  return %0 : tensor<4x8x2xf16>
}

// CHECK-LABEL: func @bitcast_convert_to_wider
// CHECK: %0 = stablehlo.bitcast_convert %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j]) {i=4, j=8, k=4} need_replication={k}>} : (tensor<4x8x4xi8>) -> tensor<4x8xf32>
func.func @bitcast_convert_to_wider(%arg0: tensor<4x8x4xi8>) -> tensor<4x8xf32> {
  %0 = stablehlo.bitcast_convert %arg0 : (tensor<4x8x4xi8>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func @bitcast_convert_same_width
// CHECK: %0 = stablehlo.bitcast_convert %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8}>} : (tensor<4x8xf32>) -> tensor<4x8xi32>
func.func @bitcast_convert_same_width(%arg0: tensor<4x8xf32>) -> tensor<4x8xi32> {
  %0 = stablehlo.bitcast_convert %arg0 : (tensor<4x8xf32>) -> tensor<4x8xi32>
  return %0 : tensor<4x8xi32>
}

// CHECK-LABEL: func @rng_bit_generator
// CHECK: %output_state, %output = stablehlo.rng_bit_generator %arg0, algorithm = DEFAULT {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i], [j, k]) {i=2, j=4, k=8} need_replication={i} blocked_propagation={i}>} : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4x8xui32>)
func.func @rng_bit_generator(%arg0: tensor<2xui64>) -> tensor<4x8xui32> {
  %0:2 = stablehlo.rng_bit_generator %arg0, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4x8xui32>)
  return %0#1 : tensor<4x8xui32>
}

// CHECK-LABEL: func @fft
// CHECK: %0 = stablehlo.fft %arg0, type = FFT, length = [4, 8] {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=3, j=4, k=8} need_replication={j, k}>} : (tensor<3x4x8xcomplex<f32>>) -> tensor<3x4x8xcomplex<f32>>
func.func @fft(%arg0: tensor<3x4x8xcomplex<f32>>) -> tensor<3x4x8xcomplex<f32>> {
  %0 = stablehlo.fft %arg0, type = FFT, length = [4, 8] : (tensor<3x4x8xcomplex<f32>>) -> tensor<3x4x8xcomplex<f32>>
  return %0 : tensor<3x4x8xcomplex<f32>>
}

// CHECK-LABEL: func @rfft
// CHECK: %0 = stablehlo.fft %arg0, type = RFFT, length = [8] {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=3, j=8} need_replication={j} blocked_propagation={j}>} : (tensor<3x8xf32>) -> tensor<3x5xcomplex<f32>>
func.func @rfft(%arg0: tensor<3x8xf32>) -> tensor<3x5xcomplex<f32>> {
  %0 = stablehlo.fft %arg0, type = RFFT, length = [8] : (tensor<3x8xf32>) -> tensor<3x5xcomplex<f32>>
  return %0 : tensor<3x5xcomplex<f32>>
}

// CHECK-LABEL: func @irfft
// CHECK: %0 = stablehlo.fft %arg0, type = IRFFT, length = [8] {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=3, j=5} need_replication={j} blocked_propagation={j}>} : (tensor<3x5xcomplex<f32>>) -> tensor<3x8xf32>
func.func @irfft(%arg0: tensor<3x5xcomplex<f32>>) -> tensor<3x8xf32> {
  %0 = stablehlo.fft %arg0, type = IRFFT, length = [8] : (tensor<3x5xcomplex<f32>>) -> tensor<3x8xf32>
  return %0 : tensor<3x8xf32>
}

// CHECK-LABEL: func @cholesky
// CHECK: %0 = stablehlo.cholesky %arg0, lower = true {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=3, j=5, k=5} need_replication={j, k}>} : tensor<3x5x5xf32>
func.func @cholesky(%arg0: tensor<3x5x5xf32>) -> tensor<3x5x5xf32> {
  %0 = stablehlo.cholesky %arg0, lower = true : tensor<3x5x5xf32>
  return %0 : tensor<3x5x5xf32>
}

// CHECK-LABEL: func @triangular_solve_left
// CHECK: %0 = "stablehlo.triangular_solve"(%arg0, %arg1) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, l], [i, j, k])->([i, l, k]) {i=3, j=5, k=7, l=5} need_replication={j, k, l}>} : (tensor<3x5x5xf32>, tensor<3x5x7xf32>) -> tensor<3x5x7xf32>
func.func @triangular_solve_left(%arg0: tensor<3x5x5xf32>, %arg1: tensor<3x5x7xf32>) -> tensor<3x5x7xf32> {
  %0 = "stablehlo.triangular_solve"(%arg0, %arg1) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<3x5x5xf32>, tensor<3x5x7xf32>) -> tensor<3x5x7xf32>
  return %0 : tensor<3x5x7xf32>
}

// CHECK-LABEL: func @triangular_solve_right_transposed
// CHECK: %0 = "stablehlo.triangular_solve"(%arg0, %arg1) <{left_side = false, lower = true, transpose_a = #stablehlo<transpose TRANSPOSE>, unit_diagonal = false}> {sdy.sharding_rule = #sdy.op_sharding_rule<([i, k, l], [i, j, k])->([i, j, l]) {i=3, j=7, k=5, l=5} need_replication={j, k, l}>} : (tensor<3x5x5xf32>, tensor<3x7x5xf32>) -> tensor<3x7x5xf32>
func.func @triangular_solve_right_transposed(%arg0: tensor<3x5x5xf32>, %arg1: tensor<3x7x5xf32>) -> tensor<3x7x5xf32> {
  %0 = "stablehlo.triangular_solve"(%arg0, %arg1) {left_side = false, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose TRANSPOSE>} : (tensor<3x5x5xf32>, tensor<3x7x5xf32>) -> tensor<3x7x5xf32>
  return %0 : tensor<3x7x5xf32>
}
