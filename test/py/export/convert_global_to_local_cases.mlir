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

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @iotas_split_along_and_across(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, tensor<8x16xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %0 = stablehlo.iota dim = 1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x16xf32>
  %1 = stablehlo.add %arg0, %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x16xf32>
  %2 = stablehlo.iota dim = 0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x16xi32>
  return %1, %2 : tensor<8x16xf32>, tensor<8x16xi32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @iota_split_only_across(%arg0: tensor<8x16xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> (tensor<8x16xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) {
  %0 = stablehlo.iota dim = 0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>, mhlo.frontend_attributes = {kept = "no"}} : tensor<8x16xi32>
  %1 = stablehlo.multiply %arg0, %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : tensor<8x16xi32>
  return %1 : tensor<8x16xi32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @slices_taking_split_dims_whole(%arg0: tensor<8x24xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> (tensor<4x12xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, tensor<2x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) {
  %0 = stablehlo.slice %arg0 [2:6, 0:24:2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : (tensor<8x24xf32>) -> tensor<4x12xf32>
  %1 = stablehlo.slice %arg0 [1:7:3, 0:24:3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : (tensor<8x24xf32>) -> tensor<2x8xf32>
  return %0, %1 : tensor<4x12xf32>, tensor<2x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @slice_of_part_of_a_split_dim(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) {
  %0 = stablehlo.slice %arg0 [0:8, 0:8] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : (tensor<8x16xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @slice_with_a_stride_across_parts(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> (tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) {
  %0 = stablehlo.slice %arg0 [0:8, 0:16:3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : (tensor<8x16xf32>) -> tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @dynamic_slice_taking_split_dim_whole(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, %arg1: tensor<i32>) -> (tensor<2x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) {
  %c = stablehlo.constant dense<3> : tensor<i32>
  %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, sizes = [2, 16] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : (tensor<8x16xf32>, tensor<i32>, tensor<i32>) -> tensor<2x16xf32>
  return %0 : tensor<2x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {"y"}]>] out_shardings=[<@mesh, [{"x"}, {"y"}]>] manual_axes={"x", "y"} (%arg1: tensor<4x4xf32>) {
    %1 = "stablehlo.all_reduce"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %2 = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %3 = stablehlo.multiply %1, %arg1 : tensor<4x4xf32>
    sdy.return %3 : tensor<4x4xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {"y"}]>] out_shardings=[<@mesh, [{"x"}, {"y"}]>] manual_axes={"x"} (%arg1: tensor<4x16xf32>) {
    %1 = stablehlo.sine %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : tensor<4x16xf32>
    sdy.return %1 : tensor<4x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %2 = stablehlo.cosine %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @manual_body_split_otherwise(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {"y"}]>] out_shardings=[<@mesh, [{"x"}, {"y"}]>] manual_axes={"x"} (%arg1: tensor<4x16xf32>) {
    %1 = stablehlo.sine %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : tensor<4x16xf32>
    sdy.return %1 : tensor<4x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @loop_over_split_values(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.while(%i = %c0, %v = %arg0) : tensor<i32>, tensor<8x16xf32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>, <@mesh, [{"x"}, {"y"}]>]>}
  cond {
    %c3 = stablehlo.constant dense<3> : tensor<i32>
    %1 = stablehlo.compare LT, %i, %c3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %c1 = stablehlo.constant dense<1> : tensor<i32>
    %1 = stablehlo.add %i, %c1 : tensor<i32>
    %2 = stablehlo.sine %v {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x16xf32>
    stablehlo.return %1, %2 : tensor<i32>, tensor<8x16xf32>
  }
  return %0#1 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @loop_body_returning_another_split(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.while(%i = %c0, %v = %arg0) : tensor<i32>, tensor<8x16xf32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>, <@mesh, [{"x"}, {"y"}]>]>}
  cond {
    %c3 = stablehlo.constant dense<3> : tensor<i32>
    %1 = stablehlo.compare LT, %i, %c3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %c1 = stablehlo.constant dense<1> : tensor<i32>
    %1 = stablehlo.add %i, %c1 : tensor<i32>
    %2 = stablehlo.transpose %v, dims = [0, 1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {"x"}]>]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    stablehlo.return %1, %2 : tensor<i32>, tensor<8x16xf32>
  }
  return %0#1 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @branches_over_split_values(%arg0: tensor<i1>, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %0 = "stablehlo.if"(%arg0) ({
    %1 = stablehlo.sine %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x16xf32>
    stablehlo.return %1 : tensor<8x16xf32>
  }, {
    %1 = stablehlo.cosine %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x16xf32>
    stablehlo.return %1 : tensor<8x16xf32>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : (tensor<i1>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @reduce_scatters(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, %arg1: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, %arg2: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x", "y"}]>}, %arg3: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"y"}>]>} : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  %1 = sdy.reduce_scatter [{}, {"y"}] %0 out_sharding=<@mesh, [{}, {"y"}]> : tensor<8x8xf32>
  %2 = stablehlo.dot_general %arg2, %arg3, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"x", "y"}>]>} : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  %3 = sdy.reduce_scatter [{"x"}, {"y"}] %2 out_sharding=<@mesh, [{"x"}, {"y"}]> : tensor<8x8xf32>
  return %1, %3 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @partial_results_nothing_finishes(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg1: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %c = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = stablehlo.reduce(%arg0 init: %c) applies stablehlo.maximum across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  %1 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  %2 = stablehlo.negate %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
  return %0, %2 : tensor<8xf32>, tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @argmax_over_split_dims(%arg0: tensor<8x16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {"y"}]>}) -> (tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<16xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
  %i = stablehlo.iota dim = 2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {"y"}]>]>} : tensor<8x16x4xi32>
  %c = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.reduce(%arg0 init: %c), (%i init: %c0) across dimensions = [0, 2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>, <@mesh, [{}]>]>} : (tensor<8x16x4xf32>, tensor<8x16x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<16xf32>, tensor<16xi32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%j: tensor<i32>, %k: tensor<i32>) {
    %1 = stablehlo.compare GT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %2 = stablehlo.compare EQ, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %3 = stablehlo.compare LT, %j, %k, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %4 = stablehlo.and %2, %3 : tensor<i1>
    %5 = stablehlo.or %1, %4 : tensor<i1>
    %6 = stablehlo.select %1, %a, %b : tensor<i1>, tensor<f32>
    %7 = stablehlo.select %5, %j, %k : tensor<i1>, tensor<i32>
    stablehlo.return %6, %7 : tensor<f32>, tensor<i32>
  }
  return %0#0, %0#1 : tensor<16xf32>, tensor<16xi32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @partial_sums_read_finished_and_not(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%arg0 init: %c) applies stablehlo.add across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  %1 = sdy.all_reduce {"y"} %0 out_sharding=<@mesh, [{"x"}]> : tensor<8xf32>
  %2 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  return %1, %2 : tensor<8xf32>, tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @gather_of_rows_split_across(%arg0: tensor<64x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, %arg1: tensor<4x8x1xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}]>}) -> (tensor<4x8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {"y"}]>}) {
  %c0 = stablehlo.constant dense<0> : tensor<4x8x1xi32>
  %c63 = stablehlo.constant dense<63> : tensor<4x8x1xi32>
  %i = stablehlo.clamp %c0, %arg1, %c63 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {}]>]>} : tensor<4x8x1xi32>
  %0 = "stablehlo.gather"(%arg0, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 16>}> {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {"y"}]>]>} : (tensor<64x16xf32>, tensor<4x8x1xi32>) -> tensor<4x8x16xf32>
  return %0 : tensor<4x8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @gather_along_split_batch_dims(%arg0: tensor<4x8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}, {}]>}, %arg1: tensor<4x8x3x1xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}, {}, {}]>}) -> (tensor<4x8x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}, {}]>}) {
  %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [2], operand_batching_dims = [0, 1], start_indices_batching_dims = [0, 1], start_index_map = [2], index_vector_dim = 3>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1>}> {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}, {}]>]>} : (tensor<4x8x16xf32>, tensor<4x8x3x1xi32>) -> tensor<4x8x3xf32>
  return %0 : tensor<4x8x3xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @gather_indexing_a_split_dim(%arg0: tensor<64x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, %arg1: tensor<4x1xi32>) -> (tensor<4x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
  %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 16>}> {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<64x16xf32>, tensor<4x1xi32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @concatenate_across_split_dims(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<8x24xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = stablehlo.concatenate %arg0, %arg1, dim = 1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x16xf32>, tensor<8x8xf32>) -> tensor<8x24xf32>
  return %0 : tensor<8x24xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @concatenate_along_a_split_dim(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = stablehlo.concatenate %arg0, %arg1, dim = 0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @all_gather_over_a_sub_axis(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y":(1)2}, {}]>}) {
  %0 = sdy.all_gather [{"y":(2)2}, {}] %arg0 out_sharding=<@mesh, [{"y":(1)2}, {}]> : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @convolution_over_a_split_batch(%arg0: tensor<8x16x16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}, {}]>}, %arg1: tensor<3x3x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {}, {"y"}]>}) -> (tensor<8x16x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}, {"y"}]>}) {
  %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 2], pad = [[1, 1], [0, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>], sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {}, {"y"}]>]>} : (tensor<8x16x16x4xf32>, tensor<3x3x4x8xf32>) -> tensor<8x16x8x8xf32>
  return %0 : tensor<8x16x8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @grouped_convolution_over_split_groups(%arg0: tensor<8x8x16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}, {}, {}]>}, %arg1: tensor<16x2x3x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}, {}, {}]>}) -> (tensor<8x16x16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}, {}, {}]>}) {
  %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 2], pad = [[1, 1], [0, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 4 : i64, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}, {}, {}]>]>} : (tensor<8x8x16x16xf32>, tensor<16x2x3x3xf32>) -> tensor<8x16x16x8xf32>
  return %0 : tensor<8x16x16x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @convolution_over_a_split_spatial_dim(%arg0: tensor<8x16x16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}, {}, {}]>}, %arg1: tensor<3x3x4x8xf32>) -> (tensor<8x16x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}, {}, {}]>}) {
  %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 2], pad = [[1, 1], [0, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}, {}, {}]>]>} : (tensor<8x16x16x4xf32>, tensor<3x3x4x8xf32>) -> tensor<8x16x8x8xf32>
  return %0 : tensor<8x16x8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @convolution_contracting_split_unfinished(%arg0: tensor<8x16x16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}, {"y"}]>}, %arg1: tensor<3x3x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"y"}, {}]>}) -> (tensor<8x16x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}, {}]>}) {
  %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 2], pad = [[1, 1], [0, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {}, {}]>]>} : (tensor<8x16x16x4xf32>, tensor<3x3x4x8xf32>) -> tensor<8x16x8x8xf32>
  return %0 : tensor<8x16x8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @window_sums_across_split_rows(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%arg0, %c) <{padding = dense<[[0, 0], [15, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 16>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @window_sums_along_a_split_dim(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) {
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%arg0, %c) <{padding = dense<[[0, 0], [15, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 16>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @pad_across_split_columns(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> (tensor<10x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) {
  %c = stablehlo.constant dense<1.5> : tensor<f32>
  %0 = stablehlo.pad %arg0, %c, low = [1, 0], high = [1, 0], interior = [0, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>, mhlo.frontend_attributes = {kept = "no"}} : (tensor<8x16xf32>, tensor<f32>) -> tensor<10x16xf32>
  return %0 : tensor<10x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @pad_along_a_split_dim(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<10x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %c = stablehlo.constant dense<1.5> : tensor<f32>
  %0 = stablehlo.pad %arg0, %c, low = [1, 0], high = [1, 0], interior = [0, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<10x16xf32>
  return %0 : tensor<10x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @scatter_of_rows_split_across(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, %arg1: tensor<4x1xi32>, %arg2: tensor<4x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) {
  %c0 = stablehlo.constant dense<0> : tensor<4x1xi32>
  %c7 = stablehlo.constant dense<7> : tensor<4x1xi32>
  %i = stablehlo.clamp %c0, %arg1, %c7 : tensor<4x1xi32>
  %0 = "stablehlo.scatter"(%arg0, %i, %arg2) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : (tensor<8x16xf32>, tensor<4x1xi32>, tensor<4x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>

func.func @gather_rows_split(%arg0: tensor<64x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, %arg1: tensor<4x8x1xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}]>}) -> (tensor<4x8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}]>}) {
  %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 16>}> {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {}]>]>} : (tensor<64x16xf32>, tensor<4x8x1xi32>) -> tensor<4x8x16xf32>
  %1 = sdy.all_reduce {"y"} %0 out_sharding=<@mesh, [{"x"}, {}, {}]> : tensor<4x8x16xf32>
  return %1 : tensor<4x8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>

func.func @gather_implicit_index_vector_i64(%arg0: tensor<64x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, %arg1: tensor<8xi64>) -> tensor<8x16xf32> {
  %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 16>}> : (tensor<64x16xf32>, tensor<8xi64>) -> tensor<8x16xf32>
  %1 = sdy.all_reduce {"y"} %0 out_sharding=<@mesh, [{}, {}]> : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>

func.func @gather_one_of_two_components_split(%arg0: tensor<64x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, %arg1: tensor<8x2xi32>) -> tensor<8x4xf32> {
  %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 4>}> : (tensor<64x16xf32>, tensor<8x2xi32>) -> tensor<8x4xf32>
  %1 = sdy.all_reduce {"y"} %0 out_sharding=<@mesh, [{}, {}]> : tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>

func.func @gather_finished_by_the_pass(%arg0: tensor<16x16xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}, %arg1: tensor<8x2xi32>) -> tensor<8xbf16> {
  %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [1, 0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<16x16xbf16>, tensor<8x2xi32>) -> tensor<8xbf16>
  return %0 : tensor<8xbf16>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>

func.func @scatter_into_split_rows(%arg0: tensor<64x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, %arg1: tensor<8x1xi32>, %arg2: tensor<8x16xf32>) -> (tensor<64x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) {
  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : (tensor<64x16xf32>, tensor<8x1xi32>, tensor<8x16xf32>) -> tensor<64x16xf32>
  return %0 : tensor<64x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>

func.func @scatter_one_of_two_components_split(%arg0: tensor<64x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, %arg1: tensor<8x2xi32>, %arg2: tensor<8xf32>) -> (tensor<64x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) {
  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : (tensor<64x16xf32>, tensor<8x2xi32>, tensor<8xf32>) -> tensor<64x16xf32>
  return %0 : tensor<64x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>

func.func @scatter_split_updates_and_rows(%arg0: tensor<64x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, %arg1: tensor<8x1xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg2: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<64x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) {
  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : (tensor<64x16xf32>, tensor<8x1xi32>, tensor<8x16xf32>) -> tensor<64x16xf32>
  %1 = sdy.all_reduce {"x"} %0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<64x16xf32>
  return %1 : tensor<64x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>

func.func @scatter_finished_by_the_pass(%arg0: tensor<64x16xi32>, %arg1: tensor<8x1xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}, %arg2: tensor<8x16xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> tensor<64x16xi32> {
  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.minimum %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) : (tensor<64x16xi32>, tensor<8x1xi32>, tensor<8x16xi32>) -> tensor<64x16xi32>
  return %0 : tensor<64x16xi32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @gather_two_axes_in_dim_ui32(%arg0: tensor<64x16xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "x"}, {}]>}, %arg1: tensor<8x1xui32>) -> (tensor<8x16xi32>) {
  %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 16>}> : (tensor<64x16xi32>, tensor<8x1xui32>) -> tensor<8x16xi32>
  %1 = sdy.all_reduce {"x", "y"} %0 out_sharding=<@mesh, [{}, {}]> : tensor<8x16xi32>
  return %1 : tensor<8x16xi32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @gather_not_collapsed(%arg0: tensor<64x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, %arg1: tensor<8x1xi32>) -> (tensor<8x1x16xf32>) {
  %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 16>}> : (tensor<64x16xf32>, tensor<8x1xi32>) -> tensor<8x1x16xf32>
  %1 = sdy.all_reduce {"y"} %0 out_sharding=<@mesh, [{}, {}, {}]> : tensor<8x1x16xf32>
  return %1 : tensor<8x1x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @gather_equal_bounds(%arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, %arg1: tensor<2x8xi32>) -> (tensor<8xf32>) {
  %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 0>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<16x16xf32>, tensor<2x8xi32>) -> tensor<8xf32>
  %1 = sdy.all_reduce {"y"} %0 out_sharding=<@mesh, [{}]> : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @gather_indexed_whole(%arg0: tensor<64x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, %arg1: tensor<8x2xi32>) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) {
  %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 16>}> {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : (tensor<64x16xf32>, tensor<8x2xi32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @gather_no_start_index(%arg0: tensor<64x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, %arg1: tensor<8x1xi32>) -> (tensor<8x16xf32>) {
  %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 16>}> : (tensor<64x16xf32>, tensor<8x1xi32>) -> tensor<8x16xf32>
  %1 = sdy.all_reduce {"y"} %0 out_sharding=<@mesh, [{}, {}]> : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @scatter_updates_split_mul(%arg0: tensor<64x16xi32>, %arg1: tensor<8x1xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, %arg2: tensor<8x16xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> (tensor<64x16xi32>) {
  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.multiply %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) : (tensor<64x16xi32>, tensor<8x1xi32>, tensor<8x16xi32>) -> tensor<64x16xi32>
  %1 = sdy.all_reduce {"y"} %0 out_sharding=<@mesh, [{}, {}]> : tensor<64x16xi32>
  return %1 : tensor<64x16xi32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @scatter_variadic(%arg0: tensor<64xf32>, %arg3: tensor<64xf32>, %arg1: tensor<8x1xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg2: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %arg4: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<64xf32>, tensor<64xf32>) {
  %0:2 = "stablehlo.scatter"(%arg0, %arg3, %arg1, %arg2, %arg4) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<f32>, %c: tensor<f32>, %b: tensor<f32>, %d: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    %t = stablehlo.add %c, %d : tensor<f32>
    stablehlo.return %s, %t : tensor<f32>, tensor<f32>
  }) : (tensor<64xf32>, tensor<64xf32>, tensor<8x1xi32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<64xf32>, tensor<64xf32>)
  %1 = sdy.all_reduce {"x"} %0#0 out_sharding=<@mesh, [{}]> : tensor<64xf32>
  %2 = sdy.all_reduce {"x"} %0#1 out_sharding=<@mesh, [{}]> : tensor<64xf32>
  return %1, %2 : tensor<64xf32>, tensor<64xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

func.func @logging_callback(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  stablehlo.custom_call @log(%arg0) {has_side_effect = true} : (tensor<8xf32>) -> ()
  return %arg0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
func.func @branches_returning_partial_sums(%p: tensor<i1>, %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}, %arg1: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
  %0 = "stablehlo.if"(%p) ({
    %1 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"x"}>]>} : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
    stablehlo.return %1 : tensor<8x8xf32>
  }, {
    %2 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"x"}>]>} : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
    stablehlo.return %2 : tensor<8x8xf32>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"x"}>]>} : (tensor<i1>) -> tensor<8x8xf32>
  %3 = sdy.all_reduce {"x"} %0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}
