// RUN: pysdy-opt %s -split-input-file -sdy-convert-global-to-local -verify-diagnostics
// REQUIRES: unreduced_reduction_kinds

// `sdy.replicated_to_unreduced` making values partial by a max (or min): jaxlib 0.12's C++ aborts (it makes partial
// sums only), and pysdy refuses.

sdy.mesh @mesh = <["x"=2, "y"=4]>

func.func @partial_maxima(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}], unreduced=max{"y"}>}) {
  // expected-error@+1 {{sdy-convert-global-to-local: pysdy does not implement converting 'sdy.replicated_to_unreduced' making values partial by max (the C++ aborts)}}
  %0 = sdy.replicated_to_unreduced {"y"} %arg0 out_sharding=<@mesh, [{"x"}, {}], unreduced=max{"y"}> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
