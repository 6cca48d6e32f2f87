// RUN: pysdy-opt %s -split-input-file -sdy-lift-inlined-meshes | filecheck %s

// JAX 0.11+'s shard_map with psum: a second mesh op, identical to the first, named only by the collective.
// CHECK: sdy.mesh @mesh = <["x"=2, "y"=4]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 4 : i64}]}}
// CHECK-NOT: sdy.mesh
// CHECK-LABEL: func.func public @identical_mesh_named_by_collective(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<4x16xf32> {
// CHECK-NEXT: %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {"y"}]>] out_shardings=[<@mesh, [{}, {"y"}]>] manual_axes={"x", "y"} (%arg1: tensor<4x4xf32>) {
// CHECK-NEXT: %1 = "stablehlo.all_reduce"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh, axes = [#stablehlo.axis_ref<name = "x">]>, use_global_device_ids}> ({
// CHECK-NEXT: ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
// CHECK-NEXT: %2 = stablehlo.add %arg2, %arg3 : tensor<f32>
// CHECK-NEXT: stablehlo.return %2 : tensor<f32>
// CHECK-NEXT: }) : (tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: sdy.return %1 : tensor<4x4xf32>
// CHECK-NEXT: } : (tensor<8x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: return %0 : tensor<4x16xf32>
// CHECK-NEXT: }
module {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  sdy.mesh @mesh_0 = <["x"=2, "y"=4]>
  func.func public @identical_mesh_named_by_collective(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<4x16xf32> {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {"y"}]>] out_shardings=[<@mesh, [{}, {"y"}]>] manual_axes={"x", "y"} (%arg1: tensor<4x4xf32>) {
      %1 = "stablehlo.all_reduce"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh_0, axes = [#stablehlo.axis_ref<name = "x">]>, use_global_device_ids}> ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %s : tensor<f32>
      }) : (tensor<4x4xf32>) -> tensor<4x4xf32>
      sdy.return %1 : tensor<4x4xf32>
    } : (tensor<8x16xf32>) -> tensor<4x16xf32>
    return %0 : tensor<4x16xf32>
  }
}

// -----

// Meshes inlined in shardings are lifted before those inlined in replica groups; distinct inlined meshes get
// one mesh op each.
// CHECK: sdy.mesh @mesh = <["x"=2, "y"=4]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 4 : i64}]}}
// CHECK-NEXT: sdy.mesh @mesh_0 = <["a"=2, "b"=4]> {stablehlo.mesh = {axes = [{name = "a", size = 2 : i64}, {name = "b", size = 4 : i64}]}}
// CHECK-NEXT: sdy.mesh @mesh_1 = <["x"=2, "y"=4]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 4 : i64}]}}
// CHECK-LABEL: func.func public @inlined_in_shardings_and_replica_groups(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
// CHECK-NEXT: %0 = "stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh_0, axes = [#stablehlo.axis_ref<name = "a">]>, use_global_device_ids}> ({
// CHECK-NEXT: ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
// CHECK-NEXT: %4 = stablehlo.add %arg1, %arg2 : tensor<f32>
// CHECK-NEXT: stablehlo.return %4 : tensor<f32>
// CHECK-NEXT: }) : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: %1 = stablehlo.abs %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x16xf32>
// CHECK-NEXT: %2 = "stablehlo.all_reduce"(%1) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh_1, axes = [#stablehlo.axis_ref<name = "x">]>, use_global_device_ids}> ({
// CHECK-NEXT: ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
// CHECK-NEXT: %4 = stablehlo.add %arg1, %arg2 : tensor<f32>
// CHECK-NEXT: stablehlo.return %4 : tensor<f32>
// CHECK-NEXT: }) : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: %3 = "stablehlo.all_reduce"(%2) <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh_0, axes = [#stablehlo.axis_ref<name = "b">]>, use_global_device_ids}> ({
// CHECK-NEXT: ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
// CHECK-NEXT: %4 = stablehlo.add %arg1, %arg2 : tensor<f32>
// CHECK-NEXT: stablehlo.return %4 : tensor<f32>
// CHECK-NEXT: }) : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: return %3 : tensor<8x16xf32>
// CHECK-NEXT: }
module {
  func.func public @inlined_in_shardings_and_replica_groups(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
    %0 = "stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = #stablehlo.mesh<axes = [#stablehlo.mesh_axis<name = "a", size = 2>, #stablehlo.mesh_axis<name = "b", size = 4>]>, axes = [#stablehlo.axis_ref<name = "a">]>, use_global_device_ids}> ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %s : tensor<f32>
      }) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %1 = stablehlo.abs %0 {sdy.sharding = #sdy.sharding_per_value<[<mesh<["x"=2, "y"=4]>, [{"x"}, {}]>]>} : tensor<8x16xf32>
    %2 = "stablehlo.all_reduce"(%1) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = #stablehlo.mesh<axes = [#stablehlo.mesh_axis<name = "x", size = 2>, #stablehlo.mesh_axis<name = "y", size = 4>]>, axes = [#stablehlo.axis_ref<name = "x">]>, use_global_device_ids}> ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %s : tensor<f32>
      }) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %3 = "stablehlo.all_reduce"(%2) <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = #stablehlo.mesh<axes = [#stablehlo.mesh_axis<name = "a", size = 2>, #stablehlo.mesh_axis<name = "b", size = 4>]>, axes = [#stablehlo.axis_ref<name = "b">]>, use_global_device_ids}> ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %s : tensor<f32>
      }) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    return %3 : tensor<8x16xf32>
  }
}

// -----

// A collective naming a deduplicated mesh op names the one kept.
// CHECK: sdy.mesh @existing = <["a"=2, "b"=4]> {stablehlo.mesh = {axes = [{name = "a", size = 2 : i64}, {name = "b", size = 4 : i64}]}}
// CHECK-LABEL: func.func public @deduplicated_mesh_op_named_by_collective(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@existing, [{"a"}, {}]>}) -> tensor<8x16xf32> {
// CHECK-NEXT: %0 = "stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @existing, axes = [#stablehlo.axis_ref<name = "a">]>, use_global_device_ids}> ({
// CHECK-NEXT: ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
// CHECK-NEXT: %2 = stablehlo.add %arg1, %arg2 : tensor<f32>
// CHECK-NEXT: stablehlo.return %2 : tensor<f32>
// CHECK-NEXT: }) : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: %1 = "stablehlo.all_reduce"(%0) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @existing, axes = [#stablehlo.axis_ref<name = "b">]>, use_global_device_ids}> ({
// CHECK-NEXT: ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
// CHECK-NEXT: %2 = stablehlo.add %arg1, %arg2 : tensor<f32>
// CHECK-NEXT: stablehlo.return %2 : tensor<f32>
// CHECK-NEXT: }) : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: return %1 : tensor<8x16xf32>
// CHECK-NEXT: }
module {
  sdy.mesh @existing = <["a"=2, "b"=4]>
  sdy.mesh @dup = <["a"=2, "b"=4]>
  func.func public @deduplicated_mesh_op_named_by_collective(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@dup, [{"a"}, {}]>}) -> tensor<8x16xf32> {
    %0 = "stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @dup, axes = [#stablehlo.axis_ref<name = "a">]>, use_global_device_ids}> ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %s : tensor<f32>
      }) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %1 = "stablehlo.all_reduce"(%0) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @existing, axes = [#stablehlo.axis_ref<name = "b">]>, use_global_device_ids}> ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %s : tensor<f32>
      }) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    return %1 : tensor<8x16xf32>
  }
}
