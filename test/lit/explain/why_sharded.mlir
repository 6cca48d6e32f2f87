// RUN: pysdy-explain %s --value %%2 | filecheck %s
// RUN: pysdy-explain %s | filecheck %s --check-prefix=SUMMARY

// A constraint on "y" meets an argument sharded on "x": downstream values take the constraint's axis, and the op
// where the two meet (the tanh) reshards the argument.

sdy.mesh @mesh = <["x"=2, "y"=4]>

func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>} loc("x")) -> tensor<8x16xf32> {
  %0 = stablehlo.tanh %arg0 : tensor<8x16xf32> loc("model.py":11:5)
  %1 = sdy.sharding_constraint %0 <@mesh, [{"y"}, {}]> : tensor<8x16xf32> loc("model.py":12:5)
  %2 = stablehlo.exponential %1 : tensor<8x16xf32> loc("model.py":13:5)
  return %2 : tensor<8x16xf32> loc("model.py":14:5)
}

// CHECK:      %2 = stablehlo.exponential f32[8,16] at model.py:13
// CHECK-NEXT:   sharding #sdy.sharding<@mesh, [{"y"}, {}]>
// CHECK-NEXT:   dim 0 on "y", from the sharding constraint %1 #sdy.sharding<@mesh, [{"y"}, {}]> at model.py:12 [constraint_0]
// CHECK-NEXT:       step {{[0-9]+}}: stablehlo.exponential at model.py:13: operand-0 (%1) -> result-0 (%2)  ([i, j])->([i, j]) {i=8, j=16}
// CHECK-EMPTY:

// SUMMARY:      Reshards and collectives propagation leaves, costliest first (bytes each device sends):
// SUMMARY-NEXT:   1. 128 B all-slice, collective-permute: %arg0 for stablehlo.tanh at model.py:11
// SUMMARY-NEXT:        as it is:  #sdy.sharding<@mesh, [{"x"}, {}]>
// SUMMARY-NEXT:          from the argument %arg0 (x) #sdy.sharding<@mesh, [{"x"}, {}]> [input: 0]
// SUMMARY-NEXT:        as needed: #sdy.sharding<@mesh, [{"y"}, {}]>
// SUMMARY-NEXT:          from the sharding constraint %1 #sdy.sharding<@mesh, [{"y"}, {}]> at model.py:12 [constraint_0]
// SUMMARY-NEXT:        why: operand 0 dim 0 arrives as {"x"} while result 0 has {"y"}: they disagree on the dimension's major axis, and propagation passes on only the axes all of an op's tensors agree on, so the op computes it as {"y"}
