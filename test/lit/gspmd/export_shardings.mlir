// RUN: pysdy-opt %s -split-input-file -xla-sdy-stablehlo-export-shardings | filecheck %s
// RUN: pysdy-opt %s -split-input-file -xla-sdy-stablehlo-export-shardings=add-missing-sharding-to-control-flow=true | filecheck %s --check-prefix=ADD

// Expected output: XLA's own export of these inputs (test/py/gspmd/test_export_lit_inputs.py compares them as HLO,
// with add-missing-sharding-to-control-flow off as in jaxlib's fallback). The shardings a PartitionSpec can say,
// @manual_body's included (XLA's partitioner cannot take it as an entry), are compared with JAX's NamedSharding there.

// No axis used: replicated.
// CHECK-LABEL: module {
// CHECK-NEXT: func.func @fully_replicated(%arg0: tensor<8x16xf32> {mhlo.sharding = "{replicated}"}) -> tensor<8x16xf32> {
// CHECK-NEXT: return %arg0 : tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @fully_replicated(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> tensor<8x16xf32> {
  return %arg0 : tensor<8x16xf32>
}

// -----

// Axes in mesh order over the default device order: a plain iota.
// CHECK-LABEL: module {
// CHECK-NEXT: func.func @tiled_iota(%arg0: tensor<8x16xf32> {mhlo.sharding = "{devices=[2,4]<=[8]}"}) -> tensor<8x16xf32> {
// CHECK-NEXT: return %arg0 : tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @tiled_iota(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x16xf32> {
  return %arg0 : tensor<8x16xf32>
}

// -----

// Axes in the other order: the iota over the mesh shape, transposed.
// CHECK-LABEL: module {
// CHECK-NEXT: func.func @transposed_iota(%arg0: tensor<8x16xf32> {mhlo.sharding = "{devices=[4,2]<=[2,4]T(1,0)}"}) -> tensor<8x16xf32> {
// CHECK-NEXT: return %arg0 : tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @transposed_iota(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}) -> tensor<8x16xf32> {
  return %arg0 : tensor<8x16xf32>
}

// -----

// A mesh listing its devices: the tile assignment lists them in the mesh's order.
// CHECK-LABEL: module {
// CHECK-NEXT: func.func @mesh_device_ids(%arg0: tensor<8x16xf32> {mhlo.sharding = "{devices=[4,2]7,3,6,2,5,1,4,0}"}) -> tensor<8x16xf32> {
// CHECK-NEXT: return %arg0 : tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>
func.func @mesh_device_ids(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}) -> tensor<8x16xf32> {
  return %arg0 : tensor<8x16xf32>
}

// -----

// Sub-axes split an axis into its factors: the iota is reshaped to them before the transpose.
// CHECK-LABEL: module {
// CHECK-NEXT: func.func @sub_axes(%arg0: tensor<8x16xf32> {mhlo.sharding = "{devices=[2,4]<=[4,2]T(1,0)}"}) -> tensor<8x16xf32> {
// CHECK-NEXT: return %arg0 : tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @sub_axes(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y":(2)2}, {"x", "y":(1)2}]>}) -> tensor<8x16xf32> {
  return %arg0 : tensor<8x16xf32>
}

// -----

// Unused axes replicate the tiles: a last replicated tile dim.
// CHECK-LABEL: module {
// CHECK-NEXT: func.func @partially_replicated(%arg0: tensor<8x16xf32> {mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}) -> tensor<8x16xf32> {
// CHECK-NEXT: return %arg0 : tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @partially_replicated(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> tensor<8x16xf32> {
  return %arg0 : tensor<8x16xf32>
}

// -----

// Explicitly replicated axes export as the implicitly replicated ones.
// CHECK-LABEL: module {
// CHECK-NEXT: func.func @explicit_replicated(%arg0: tensor<8x16xf32> {mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}) -> tensor<8x16xf32> {
// CHECK-NEXT: return %arg0 : tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @explicit_replicated(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}], replicated={"x"}>}) -> tensor<8x16xf32> {
  return %arg0 : tensor<8x16xf32>
}

// -----

// Unreduced axes make an unreduced subgroup dim.
// CHECK-LABEL: module {
// CHECK-NEXT: func.func @unreduced(%arg0: tensor<8x16xf32> {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dims={unreduced}}"}) -> tensor<8x16xf32> {
// CHECK-NEXT: return %arg0 : tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @unreduced(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}], unreduced={"y"}>}) -> tensor<8x16xf32> {
  return %arg0 : tensor<8x16xf32>
}

// -----

// Unreduced and unused axes: unreduced and replicated subgroup dims, in that order.
// CHECK-LABEL: module {
// CHECK-NEXT: func.func @unreduced_and_replicated(%arg0: tensor<8x16xf32> {mhlo.sharding = "{devices=[1,1,4,2]<=[2,4]T(1,0) last_tile_dims={unreduced, replicated}}"}) -> tensor<8x16xf32> {
// CHECK-NEXT: return %arg0 : tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @unreduced_and_replicated(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"y"}>}) -> tensor<8x16xf32> {
  return %arg0 : tensor<8x16xf32>
}

// -----

// A mesh with no axes and one device: the op is placed on that device.
// CHECK-LABEL: module {
// CHECK-NEXT: func.func @maximal_mesh(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
// CHECK-NEXT: %0 = stablehlo.negate %arg0 {mhlo.sharding = "{maximal device=3}"} : tensor<8x16xf32>
// CHECK-NEXT: return %0 : tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @maximal = <[], device_ids=[3]>
func.func @maximal_mesh(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// A mesh with no axes and no devices: replicated.
// CHECK-LABEL: module {
// CHECK-NEXT: func.func @empty_mesh(%arg0: tensor<8x16xf32> {mhlo.sharding = "{replicated}"}) -> tensor<8x16xf32> {
// CHECK-NEXT: %0 = stablehlo.negate %arg0 {mhlo.sharding = "{replicated}"} : tensor<8x16xf32>
// CHECK-NEXT: return %0 : tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @empty = <[]>
func.func @empty_mesh(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@empty, [{}, {}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@empty, [{}, {}]>]>} : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// An op with two results: one tuple sharding of both.
// CHECK-LABEL: module {
// CHECK-NEXT: func.func @tuple_sharding(%arg0: tensor<8x16xf32>, %arg1: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
// CHECK-NEXT: %0:2 = "stablehlo.sort"(%arg0, %arg1) <{dimension = 0 : i64, is_stable = false}> ({
// CHECK-NEXT: ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>, %arg4: tensor<f32>, %arg5: tensor<f32>):
// CHECK-NEXT: %1 = stablehlo.compare GT, %arg2, %arg3 : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK-NEXT: stablehlo.return %1 : tensor<i1>
// CHECK-NEXT: }) {mhlo.sharding = "{{[{][{]}}devices=[1,8]<=[8]}, {devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}}"} : (tensor<8x16xf32>, tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
// CHECK-NEXT: return %0#0, %0#1 : tensor<8x16xf32>, tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @tuple_sharding(%arg0: tensor<8x16xf32>, %arg1: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %0:2 = "stablehlo.sort"(%arg0, %arg1) <{dimension = 0 : i64, is_stable = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>, %d: tensor<f32>):
    %p = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x", "y"}]>, <@mesh, [{}, {"y"}]>]>} : (tensor<8x16xf32>, tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
  return %0#0, %0#1 : tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

// Function results export like arguments; a result without a sharding keeps none, other attributes stay.
// CHECK-LABEL: module {
// CHECK-NEXT: func.func @func_results(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32> {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}, tensor<8x16xf32>, tensor<8x16xf32> {jax.result_info = "r", mhlo.sharding = "{devices=[1,8]<=[8]}"}) {
// CHECK-NEXT: return %arg0, %arg0, %arg0 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @func_results(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, tensor<8x16xf32>, tensor<8x16xf32> {jax.result_info = "r", sdy.sharding = #sdy.sharding<@mesh, [{}, {"x", "y"}]>}) {
  return %arg0, %arg0, %arg0 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

// In a manual computation's outlined body (marked by the shard-map export), manual axes make a manual subgroup dim; all axes manual is {manual}.
// CHECK-LABEL: module {
// CHECK-NEXT: func.func @manual_body(%arg0: tensor<4x16xf32> {mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dims={manual}}"}) -> (tensor<4x16xf32> {mhlo.sharding = "{devices=[1,1,2,4]<=[8] last_tile_dims={manual, replicated}}"}) {
// CHECK-NEXT: %0 = stablehlo.negate %arg0 {mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dims={manual}}"} : tensor<4x16xf32>
// CHECK-NEXT: %1 = stablehlo.abs %0 {mhlo.sharding = "{manual}"} : tensor<4x16xf32>
// CHECK-NEXT: return %1 : tensor<4x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @manual_body(%arg0: tensor<4x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>, xla.sdy.manual_axes = #sdy<manual_axes{"x"}>}) -> (tensor<4x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>, xla.sdy.manual_axes = #sdy<manual_axes{"x"}>}) {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>, xla.sdy.manual_axes = #sdy<manual_axes{"x"}>} : tensor<4x16xf32>
  %1 = stablehlo.abs %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>, xla.sdy.manual_axes = #sdy<manual_axes{"x", "y"}>} : tensor<4x16xf32>
  return %1 : tensor<4x16xf32>
}

// -----

// A while without a sharding gets none, or {replicated} with add-missing-sharding-to-control-flow (ADD).
// ADD-LABEL: func.func @control_flow(
// ADD-NEXT: %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<i32>, tensor<8x16xf32> attributes {mhlo.sharding = "{replicated}"}
// CHECK-LABEL: module {
// CHECK-NEXT: func.func @control_flow(%arg0: tensor<i32>, %arg1: tensor<8x16xf32> {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}) -> tensor<8x16xf32> {
// CHECK-NEXT: %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<i32>, tensor<8x16xf32>{{$}}
// CHECK-NEXT: cond {
// CHECK-NEXT: %c = stablehlo.constant dense<3> : tensor<i32>
// CHECK-NEXT: %1 = stablehlo.compare LT, %iterArg, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT: stablehlo.return %1 : tensor<i1>
// CHECK-NEXT: } do {
// CHECK-NEXT: %c = stablehlo.constant dense<1> : tensor<i32>
// CHECK-NEXT: %1 = stablehlo.add %iterArg, %c : tensor<i32>
// CHECK-NEXT: stablehlo.return %1, %iterArg_0 : tensor<i32>, tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %0#1 : tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @control_flow(%arg0: tensor<i32>, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x16xf32> {
  %0:2 = stablehlo.while(%i = %arg0, %v = %arg1) : tensor<i32>, tensor<8x16xf32>
  cond {
    %k = stablehlo.constant dense<3> : tensor<i32>
    %p = stablehlo.compare LT, %i, %k : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %n = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %n, %v : tensor<i32>, tensor<8x16xf32>
  }
  return %0#1 : tensor<8x16xf32>
}

// -----

// The sharding of an mhlo.erf custom call goes into its mhlo.attributes.
// CHECK-LABEL: module {
// CHECK-NEXT: func.func @erf_custom_call(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
// CHECK-NEXT: %0 = stablehlo.custom_call @mhlo.erf(%arg0) {mhlo.attributes = {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}, mhlo.version = 1 : i64} : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: return %0 : tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @erf_custom_call(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.custom_call @mhlo.erf(%arg0) {mhlo.attributes = {}, mhlo.version = 1 : i64, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// Every mesh is removed, used or not.
// CHECK-LABEL: module {
// CHECK-NEXT: func.func @meshes_removed(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
// CHECK-NEXT: return %arg0 : tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
sdy.mesh @other = <["a"=8]>
func.func @meshes_removed(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  return %arg0 : tensor<8x16xf32>
}


// -----

// Open dims and priorities do not show in the exported sharding.
// CHECK-LABEL: module {
// CHECK-NEXT: func.func @open_dims_priorities(%arg0: tensor<8x16xf32> {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}) -> tensor<8x16xf32> {
// CHECK-NEXT: return %arg0 : tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @open_dims_priorities(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}p1, {?}]>}) -> tensor<8x16xf32> {
  return %arg0 : tensor<8x16xf32>
}

// -----

// A control flow op with a sharding exports it like any op, the ops in its regions theirs; add-missing-sharding-to-control-flow leaves it (ADD).
// ADD-LABEL: func.func @if_op(
// ADD: }) {mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"} : (tensor<i1>) -> tensor<8x16xf32>
// CHECK-LABEL: module {
// CHECK-NEXT: func.func @if_op(%arg0: tensor<i1>, %arg1: tensor<8x16xf32>) -> tensor<8x16xf32> {
// CHECK-NEXT: %0 = "stablehlo.if"(%arg0) ({
// CHECK-NEXT: %1 = stablehlo.negate %arg1 {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"} : tensor<8x16xf32>
// CHECK-NEXT: stablehlo.return %1 : tensor<8x16xf32>
// CHECK-NEXT: }, {
// CHECK-NEXT: stablehlo.return %arg1 : tensor<8x16xf32>
// CHECK-NEXT: }) {mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"} : (tensor<i1>) -> tensor<8x16xf32>
// CHECK-NEXT: return %0 : tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @if_op(%arg0: tensor<i1>, %arg1: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = "stablehlo.if"(%arg0) ({
    %1 = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x16xf32>
    stablehlo.return %1 : tensor<8x16xf32>
  }, {
    stablehlo.return %arg1 : tensor<8x16xf32>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : (tensor<i1>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// An mhlo.topk custom call's tuple sharding goes into its mhlo.attributes.
// CHECK-LABEL: module {
// CHECK-NEXT: func.func @topk(%arg0: tensor<8x16xf32>) -> (tensor<8x2xf32>, tensor<8x2xi32>) {
// CHECK-NEXT: %0:2 = stablehlo.custom_call @mhlo.topk(%arg0) {mhlo.attributes = {k = 2 : i64, largest = true, mhlo.sharding = "{{[{][{]}}devices=[2,1,4]<=[8] last_tile_dim_replicate}, {devices=[2,1,4]<=[8] last_tile_dim_replicate}}"}, mhlo.version = 1 : i64} : (tensor<8x16xf32>) -> (tensor<8x2xf32>, tensor<8x2xi32>)
// CHECK-NEXT: return %0#0, %0#1 : tensor<8x2xf32>, tensor<8x2xi32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @topk(%arg0: tensor<8x16xf32>) -> (tensor<8x2xf32>, tensor<8x2xi32>) {
  %0:2 = stablehlo.custom_call @mhlo.topk(%arg0) {mhlo.attributes = {k = 2 : i64, largest = true}, mhlo.version = 1 : i64, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>, <@mesh, [{"x"}, {}]>]>} : (tensor<8x16xf32>) -> (tensor<8x2xf32>, tensor<8x2xi32>)
  return %0#0, %0#1 : tensor<8x2xf32>, tensor<8x2xi32>
}

// -----

// The meshes a collective's replica groups name stay (XLA's HLO translation reads them, device order included);
// the others go.
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <["x"=2, "y"=4]>
// CHECK-NEXT: sdy.mesh @ids = <["a"=4, "b"=2], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>
// CHECK-NEXT: func.func @replica_group_meshes(%arg0: tensor<8x16xf32> {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}) -> tensor<8x16xf32> {
// CHECK-NEXT: %0 = "stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh, axes = [#stablehlo.axis_ref<name = "y">]>, use_global_device_ids}> ({
// CHECK-NEXT: ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
// CHECK-NEXT: %2 = stablehlo.add %arg1, %arg2 : tensor<f32>
// CHECK-NEXT: stablehlo.return %2 : tensor<f32>
// CHECK-NEXT: }) : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: %1 = "stablehlo.all_reduce"(%0) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @ids, axes = [#stablehlo.axis_ref<name = "a">]>, use_global_device_ids}> ({
// CHECK-NEXT: ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
// CHECK-NEXT: %2 = stablehlo.add %arg1, %arg2 : tensor<f32>
// CHECK-NEXT: stablehlo.return %2 : tensor<f32>
// CHECK-NEXT: }) : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: return %1 : tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
sdy.mesh @unused = <["u"=8]>
sdy.mesh @ids = <["a"=4, "b"=2], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>
func.func @replica_group_meshes(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x16xf32> {
  %0 = "stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh, axes = [#stablehlo.axis_ref<name = "y">]>, use_global_device_ids}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %1 = "stablehlo.all_reduce"(%0) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @ids, axes = [#stablehlo.axis_ref<name = "a">]>, use_global_device_ids}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}
