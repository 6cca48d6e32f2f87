// RUN: not pysdy-opt %s -sdy-insert-explicit-reshards=mark-partial-result-with-unreduced-axes=true 2>&1 | filecheck %s
// REQUIRES: !reshards_mark_partial_results_unreduced

// Before jax 0.11, insert-explicit-reshards has no mark-partial-result-with-unreduced-axes option.

// CHECK: no such option 'mark-partial-result-with-unreduced-axes' for pass 'sdy-insert-explicit-reshards'
sdy.mesh @mesh = <["x"=2]>
func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
