// REQUIRES: per_instruction_rng_option
// RUN: pysdy-opt %s -split-input-file -sdy-per-instruction-partitioning=rng-bit-generator-unsafe=false | filecheck %s

// From jax 0.12 the pass takes rng-bit-generator-unsafe; with it off, a module without an op to partition on its
// own (here a replicated rng bit generator, and an unsharded one) stays as it is.
// Expected output: jaxlib 0.12.0.1's C++ pass on each input.

sdy.mesh @mesh = <["x"=2]>

// CHECK-LABEL: func.func @replicated_rng(%arg0: tensor<2xui64>) -> (tensor<2xui64>, tensor<8xui32>) {
// CHECK-NEXT: %output_state, %output = stablehlo.rng_bit_generator %arg0, algorithm = DEFAULT {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>, <@mesh, [{}]>]>} : (tensor<2xui64>) -> (tensor<2xui64>, tensor<8xui32>)
// CHECK-NEXT: return %output_state, %output : tensor<2xui64>, tensor<8xui32>
// CHECK-NEXT: }
func.func @replicated_rng(%arg0: tensor<2xui64>) -> (tensor<2xui64>, tensor<8xui32>) {
  %0:2 = stablehlo.rng_bit_generator %arg0, algorithm = DEFAULT {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>, <@mesh, [{}]>]>} : (tensor<2xui64>) -> (tensor<2xui64>, tensor<8xui32>)
  return %0#0, %0#1 : tensor<2xui64>, tensor<8xui32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

// CHECK-LABEL: func.func @unsharded_rng(%arg0: tensor<2xui64>) -> (tensor<2xui64>, tensor<8xui32>) {
// CHECK-NEXT: %output_state, %output = stablehlo.rng_bit_generator %arg0, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<8xui32>)
// CHECK-NEXT: %0 = stablehlo.negate %output {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : tensor<8xui32>
// CHECK-NEXT: return %output_state, %0 : tensor<2xui64>, tensor<8xui32>
// CHECK-NEXT: }
func.func @unsharded_rng(%arg0: tensor<2xui64>) -> (tensor<2xui64>, tensor<8xui32>) {
  %0:2 = stablehlo.rng_bit_generator %arg0, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<8xui32>)
  %1 = stablehlo.negate %0#1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : tensor<8xui32>
  return %0#0, %1 : tensor<2xui64>, tensor<8xui32>
}
