// RUN: pysdy-opt %s -split-input-file -sdy-insert-explicit-reshards -verify-diagnostics

// Without the full version, an op whose result is unreduced needs its operands to shard each reduction factor
// alike: the all-reduce is along those axes. Shardy's C++ aborts the process on a check here; pysdy refuses.

sdy.mesh @mesh = <["x"=2, "y"=2]>

func.func @unreduced_result_of_disagreeing_contraction(%arg0: tensor<8x24xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}, %arg1: tensor<24x24xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "x"}, {}]>}) -> tensor<8x24xf32> {
  // expected-error@+1 {{the result has unreduced axes while the operands are sharded differently along a reduction factor}}
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"x"}>]>} : (tensor<8x24xf32>, tensor<24x24xf32>) -> tensor<8x24xf32>
  return %0 : tensor<8x24xf32>
}
