func.func @no_mesh(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
func.func @replicated(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
  %0 = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
func.func @sharded(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  %0 = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
func.func @unannotated_in_mesh_module(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
func.func @gather(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
  %0 = sdy.all_gather [{"x"}] %arg0 out_sharding=<@mesh, [{}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
func.func @sdy_constant() -> tensor<8xf32> {
  %0 = sdy.constant dense<1.0> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
func.func @replica_id() -> tensor<ui32> {
  %0 = stablehlo.replica_id : tensor<ui32>
  %1 = stablehlo.partition_id : tensor<ui32>
  %2 = stablehlo.add %0, %1 : tensor<ui32>
  return %2 : tensor<ui32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
func.func @replicated_all_reduce(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> tensor<8xf32> {
  %0 = sdy.all_reduce {"x"} %arg0 out_sharding=<@mesh, [{}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
func.func @manual_replicated(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"x"} (%a: tensor<8xf32>) {
    sdy.return %a : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
func.func @named_replicated(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.named_computation<"foo">(%arg0) (%a: tensor<8xf32>) {
    sdy.return %a : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
func.func @reshard_and_constraint(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{}]> : tensor<8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{}]> : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=1, "y"=2]>
func.func @size_one_axis(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
func.func @iota_rng_unsharded() -> (tensor<8xi32>, tensor<2xui64>, tensor<8xui32>) {
  %0 = stablehlo.iota dim = 0 : tensor<8xi32>
  %s = stablehlo.constant dense<0> : tensor<2xui64>
  %1:2 = stablehlo.rng_bit_generator %s, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<8xui32>)
  return %0, %1#0, %1#1 : tensor<8xi32>, tensor<2xui64>, tensor<8xui32>
}

// -----

sdy.mesh @maximal = <[], device_ids=[1]>
func.func @maximal_only(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@maximal, []>}) -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
func.func @unreduced(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"x"}>}) -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], unreduced={"x"}>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
func.func @constraint(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %1 = sdy.sharding_constraint %arg0 <@mesh, [{}]> : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
func.func @barrier(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %1 = sdy.propagation_barrier %arg0 allowed_direction=NONE : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
func.func @group(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  sdy.sharding_group %arg0 group_id=0 : tensor<8xf32>
  return %arg0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
func.func @edge(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %1 = sdy.data_flow_edge %arg0 sharding=<@mesh, [{}]> : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
func.func @replicated_to_unreduced(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> tensor<8xf32> {
  %0 = sdy.replicated_to_unreduced {"x"} %arg0 out_sharding=<@mesh, [{}], unreduced={"x"}> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
func.func @all_gather_replicated(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> tensor<8xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
func.func @named_sharded(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.named_computation<"foo">(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] (%a: tensor<8xf32>) {
    sdy.return %a : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
func.func @inlined_mesh_sharded(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=2]>, [{"x"}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
func.func @result_attr_only(%arg0: tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  return %arg0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
func.func @nested_sharding(%arg0: tensor<8xf32>, %arg1: tensor<i32>) -> tensor<8xf32> {
  %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<8xf32>, tensor<i32>
    cond {
    %c = stablehlo.constant dense<3> : tensor<i32>
    %1 = stablehlo.compare LT, %iterArg_0, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %1 = stablehlo.negate %iterArg {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
    %2 = stablehlo.negate %1 : tensor<8xf32>
    stablehlo.return %2, %iterArg_0 : tensor<8xf32>, tensor<i32>
  }
  return %0#0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
func.func @non_divisible(%arg0: tensor<7xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<7xf32> {
  return %arg0 : tensor<7xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
  %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x16xf32>
  %1 = sdy.all_gather [{"x"}, {"y"}] %0 out_sharding=<@mesh, [{}, {}]> : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @gather_one_dim(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y", "x"}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
  %0 = sdy.all_gather [{}, {"y", "x"}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>
func.func @slice_on_permuted_devices(%arg0: tensor<8x16xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> (tensor<8x16xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}) {
  %0 = sdy.all_slice [{"y"}, {"x"}] %arg0 out_sharding=<@mesh, [{"y"}, {"x"}]> : tensor<8x16xi32>
  return %0 : tensor<8x16xi32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @to_all(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) {
  %0 = sdy.all_to_all [{"y"}: 0->1] %arg0 out_sharding=<@mesh, [{}, {"y"}]> : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @permute(%arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "x"}]>}) -> (tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}]>}) {
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"x", "y"}]> : tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @max_of_partial_maxima(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  %0 = sdy.constant dense<0xFF800000> : tensor<f32>
  %1 = stablehlo.reduce(%arg0 init: %0) applies stablehlo.maximum across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  %2 = sdy.all_reduce {"y"} %1 out_sharding=<@mesh, [{"x"}]> : tensor<8xf32>
  return %2 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @split_splat_constant(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} dense<2.000000e+00> : tensor<8x16xf32>
  %1 = stablehlo.multiply %arg0, %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x16xf32>
  %2 = "stablehlo.optimization_barrier"(%1) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<4xf32>) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, tensor<4xf32>) {
  %0 = func.call @callee(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0, %arg1 : tensor<8x16xf32>, tensor<4xf32>
}
func.func private @callee(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = stablehlo.exponential %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  %0 = stablehlo.reverse %arg0, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @sum_of_whole_values(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  %1 = sdy.all_reduce {"y"} %0 out_sharding=<@mesh, [{"x"}]> : tensor<8xf32>
  return %1 : tensor<8xf32>
}
