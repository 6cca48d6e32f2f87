// RUN: pysdy-opt %s -split-input-file -sdy-reshard-to-collectives | filecheck %s
// RUN: pysdy-opt %s -split-input-file -sdy-reshard-to-collectives=keep-redundant-reshards=true | filecheck %s --check-prefix=KEEP

// A reshard's input is seen through propagation barriers, which stay for their other users: the
// collectives start from the value before the barriers, with its sharding (also for deciding that a
// reshard is redundant). Expected output: jaxlib's C++ pass on this input.

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>

// CHECK-LABEL: func.func @through_barriers(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> (tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x8xf32>) {
// CHECK-NEXT: %0 = sdy.propagation_barrier %arg0 allowed_direction=BACKWARD : tensor<16x8xf32>
// CHECK-NEXT: %1 = sdy.propagation_barrier %0 allowed_direction=FORWARD {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"z"}, {}]>]>} : tensor<16x8xf32>
// CHECK-NEXT: %2 = sdy.all_to_all [{"y"}: 0->1] %arg0 out_sharding=<@mesh, [{"x"}, {"y"}]> : tensor<16x8xf32>
// CHECK-NEXT: %3 = stablehlo.add %1, %0 : tensor<16x8xf32>
// CHECK-NEXT: return %2, %3, %arg0 : tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x8xf32>
// CHECK-NEXT: }
// KEEP-LABEL: func.func @through_barriers(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> (tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x8xf32>) {
// KEEP-NEXT: %0 = sdy.propagation_barrier %arg0 allowed_direction=BACKWARD : tensor<16x8xf32>
// KEEP-NEXT: %1 = sdy.propagation_barrier %0 allowed_direction=FORWARD {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"z"}, {}]>]>} : tensor<16x8xf32>
// KEEP-NEXT: %2 = sdy.all_to_all [{"y"}: 0->1] %arg0 out_sharding=<@mesh, [{"x"}, {"y"}]> : tensor<16x8xf32>
// KEEP-NEXT: %3 = stablehlo.add %1, %0 : tensor<16x8xf32>
// KEEP-NEXT: %4 = sdy.reshard %0 <@mesh, [{"x", "y"}, {}]> : tensor<16x8xf32>
// KEEP-NEXT: return %2, %3, %4 : tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x8xf32>
// KEEP-NEXT: }
func.func @through_barriers(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> (tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x8xf32>) {
  %0 = sdy.propagation_barrier %arg0 allowed_direction=BACKWARD : tensor<16x8xf32>
  %1 = sdy.propagation_barrier %0 allowed_direction=FORWARD {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"z"}, {}]>]>} : tensor<16x8xf32>
  %2 = sdy.reshard %1 <@mesh, [{"x"}, {"y"}]> : tensor<16x8xf32>
  %3 = stablehlo.add %1, %0 : tensor<16x8xf32>
  %4 = sdy.reshard %0 <@mesh, [{"x", "y"}, {}]> : tensor<16x8xf32>
  return %2, %3, %4 : tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>

// CHECK-LABEL: func.func @reshard_barrier_reshard(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> tensor<16x8xf32> {
// CHECK-NEXT: %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"y", "x"}, {}]> : tensor<16x8xf32>
// CHECK-NEXT: %1 = sdy.all_gather [{"x"}, {}] %0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<16x8xf32>
// CHECK-NEXT: %2 = sdy.propagation_barrier %1 allowed_direction=NONE : tensor<16x8xf32>
// CHECK-NEXT: %3 = sdy.all_slice [{}, {"x"}] %1 out_sharding=<@mesh, [{"y"}, {"x"}]> : tensor<16x8xf32>
// CHECK-NEXT: %4 = sdy.all_gather [{"y"}, {}] %3 out_sharding=<@mesh, [{}, {"x"}]> : tensor<16x8xf32>
// CHECK-NEXT: return %4 : tensor<16x8xf32>
// CHECK-NEXT: }
// KEEP-LABEL: func.func @reshard_barrier_reshard(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> tensor<16x8xf32> {
// KEEP-NEXT: %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"y", "x"}, {}]> : tensor<16x8xf32>
// KEEP-NEXT: %1 = sdy.all_gather [{"x"}, {}] %0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<16x8xf32>
// KEEP-NEXT: %2 = sdy.propagation_barrier %1 allowed_direction=NONE : tensor<16x8xf32>
// KEEP-NEXT: %3 = sdy.all_slice [{}, {"x"}] %1 out_sharding=<@mesh, [{"y"}, {"x"}]> : tensor<16x8xf32>
// KEEP-NEXT: %4 = sdy.all_gather [{"y"}, {}] %3 out_sharding=<@mesh, [{}, {"x"}]> : tensor<16x8xf32>
// KEEP-NEXT: return %4 : tensor<16x8xf32>
// KEEP-NEXT: }
func.func @reshard_barrier_reshard(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> tensor<16x8xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{"y"}, {}]> : tensor<16x8xf32>
  %1 = sdy.propagation_barrier %0 allowed_direction=NONE : tensor<16x8xf32>
  %2 = sdy.reshard %1 <@mesh, [{}, {"x"}]> : tensor<16x8xf32>
  return %2 : tensor<16x8xf32>
}
