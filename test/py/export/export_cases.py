"""Hand-written modules for the export-pass differential tests: the edge cases the JAX corpus does not reach.

Every module with several functions has a `main`: jaxlib's C++ aborts the
process on one without (pysdy reports an error instead).
"""

MESH = 'sdy.mesh @mesh = <["x"=4, "y"=2, "z"=3]>\n'

NON_DIVISIBLE = MESH + """
func.func @main(%arg0: tensor<6x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {"z", ?}]>},
                %arg1: tensor<3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}], replicated={"y"}, unreduced={"z"}>},
                %arg2: tensor<12xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "x"}p1]>},
                %arg3: tensor<2x10xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2, "y"}, {"z", ?}]>},
                %arg4: tensor<7xf32>)
    -> (tensor<6x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z", "x"}, {?}]>}, tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z", ?}]>}) {
  %0 = stablehlo.slice %arg2 [0:4] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}]>]>} : (tensor<12xf32>) -> tensor<4xf32>
  %1 = call @callee(%0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"z"}]>]>} : (tensor<4xf32>) -> tensor<4xf32>
  return %arg0, %1 : tensor<6x8xf32>, tensor<4xf32>
}
func.func private @callee(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}]>}) -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "z"}]>}) {
  return %arg0 : tensor<4xf32>
}
"""

SUB_AXES = MESH + """
func.func @main(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2, "y", ?}, {"x":(2)2}]>},
                %arg1: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "x":(2)2, ?}p0], replicated={"z"}>},
                %arg2: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(2)2, ?}], unreduced={"z"}>})
    -> (tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(2)2, "y", ?}, {"x":(1)2, ?}]>}, tensor<16xf32>) {
  %0 = call @other(%arg1) : (tensor<16xf32>) -> tensor<16xf32>
  return %arg0, %0 : tensor<16x8xf32>, tensor<16xf32>
}
func.func private @other(%arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2, ?}]>}) -> (tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2, ?}]>}) {
  return %arg0 : tensor<16xf32>
}
"""

SINGLE_NON_MAIN_FUNC = MESH + """
func.func @entry(%arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2, "y", ?}]>}) -> (tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(2)2, ?}]>}) {
  return %arg0 : tensor<16xf32>
}
"""

SHARDING_GROUPS = MESH + """
func.func @main(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>) -> tensor<8x8xf32> {
  sdy.sharding_group %arg0 group_id=0 : tensor<8x8xf32>
  sdy.sharding_group %arg1 group_id=0 : tensor<8x8xf32>
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
  %1 = stablehlo.while(%iterArg = %0) : tensor<8x8xf32>
    cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    sdy.sharding_group %iterArg group_id=1 : tensor<8x8xf32>
    stablehlo.return %iterArg : tensor<8x8xf32>
  }
  return %1 : tensor<8x8xf32>
}
"""

DATA_FLOW_EDGES = MESH + """
func.func @main(%arg0: tensor<8x6xf32>, %arg1: tensor<i32>, %arg2: tensor<8x6xf32>) -> (tensor<8x6xf32>, tensor<8x6xf32>, tensor<8x6xf32>, tensor<8x6xf32>) {
  %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg2) : tensor<8x6xf32>, tensor<8x6xf32>
    cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    stablehlo.return %iterArg, %iterArg_0 : tensor<8x6xf32>, tensor<8x6xf32>
  }
  %1 = sdy.data_flow_edge %0#0 sharding=<@mesh, [{"x", ?}, {?}]> : tensor<8x6xf32>
  %2 = sdy.data_flow_edge %0#1 : tensor<8x6xf32>
  %3 = "stablehlo.case"(%arg1) ({
    stablehlo.return %arg0 : tensor<8x6xf32>
  }, {
    stablehlo.return %arg2 : tensor<8x6xf32>
  }) : (tensor<i32>) -> tensor<8x6xf32>
  %4 = sdy.data_flow_edge %3 : tensor<8x6xf32>
  %5:2 = sdy.named_computation<"foo">(%1, %2) (%arg3: tensor<8x6xf32>, %arg4: tensor<8x6xf32>) {
    %7 = sdy.data_flow_edge %arg3 sharding=<@mesh, [{?}, {"z"}], replicated={"y"}> : tensor<8x6xf32>
    %8 = sdy.data_flow_edge %arg4 : tensor<8x6xf32>
    %9 = stablehlo.add %7, %8 : tensor<8x6xf32>
    sdy.return %9, %7 : tensor<8x6xf32>, tensor<8x6xf32>
  } : (tensor<8x6xf32>, tensor<8x6xf32>) -> (tensor<8x6xf32>, tensor<8x6xf32>)
  %6 = sdy.data_flow_edge %5#0 : tensor<8x6xf32>
  %10 = sdy.data_flow_edge %5#1 sharding=<@mesh, [{"y"}, {}]> : tensor<8x6xf32>
  %11 = stablehlo.optimization_barrier %6 : tensor<8x6xf32>
  %12 = sdy.data_flow_edge %11 sharding=<@mesh, [{}, {"z", ?}]> : tensor<8x6xf32>
  return %12, %10, %4, %2 : tensor<8x6xf32>, tensor<8x6xf32>, tensor<8x6xf32>, tensor<8x6xf32>
}
"""

MANUAL_COMPUTATION = MESH + """
func.func @main(%arg0: tensor<16x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {"z"}], replicated={"y"}>}) -> tensor<16x6xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x", "y", ?}, {}], replicated={"z"}>] out_shardings=[<@mesh, [{"x", ?}, {"z"}], unreduced={"y"}>] manual_axes={"x"} (%arg1: tensor<4x6xf32>) {
    %1 = sdy.data_flow_edge %arg1 sharding=<@mesh, [{"y"}, {?}]> : tensor<4x6xf32>
    %2 = stablehlo.negate %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y", ?}, {?}], replicated={"z"}>]>} : tensor<4x6xf32>
    sdy.return %2 : tensor<4x6xf32>
  } : (tensor<16x6xf32>) -> tensor<16x6xf32>
  %3 = sdy.data_flow_edge %0 sharding=<@mesh, [{"x", "y", ?}, {"z"}]> : tensor<16x6xf32>
  %4 = sdy.sharding_constraint %3 <@mesh, [{?}, {"z"}], replicated={"x"}> : tensor<16x6xf32>
  %5 = sdy.reshard %4 <@mesh, [{"y", ?}, {}]> : tensor<16x6xf32>
  return %5 : tensor<16x6xf32>
}
"""

# Free axes that do not divide the dimensions left after the manual axes, in the in/out shardings of a manual
# computation and of one nested in it.
NON_DIVISIBLE_MANUAL_COMPUTATION = MESH + """
func.func @main(%arg0: tensor<8x6xf32>, %arg1: tensor<12x10xf32>) -> (tensor<8x6xf32>, tensor<12x10xf32>) {
  %0:2 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"x", "z"}, {"y", ?}]>, <@mesh, [{"x", "y"}, {"z"}]>] out_shardings=[<@mesh, [{"x"}, {"z", "y"}]>, <@mesh, [{"x"}, {"y", "z", ?}]>] manual_axes={"x"} (%arg2: tensor<2x6xf32>, %arg3: tensor<3x10xf32>) {
    %1 = sdy.manual_computation(%arg2) in_shardings=[<@mesh, [{"z"}, {"y"}]>] out_shardings=[<@mesh, [{"z", ?}, {"y"}]>] manual_axes={"y"} (%arg4: tensor<2x3xf32>) {
      sdy.return %arg4 : tensor<2x3xf32>
    } : (tensor<2x6xf32>) -> tensor<2x6xf32>
    sdy.return %1, %arg3 : tensor<2x6xf32>, tensor<3x10xf32>
  } : (tensor<8x6xf32>, tensor<12x10xf32>) -> (tensor<8x6xf32>, tensor<12x10xf32>)
  return %0#0, %0#1 : tensor<8x6xf32>, tensor<12x10xf32>
}
"""

# A body-argument edge with a priority and another mesh: its in_sharding keeps both.
MANUAL_COMPUTATION_EDGE_PRIORITY = MESH + 'sdy.mesh @other = <["x"=4, "y"=2, "z"=3]>\n' + """
func.func @main(%arg0: tensor<16x6xf32>) -> tensor<16x6xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x", ?}, {?}]>] out_shardings=[<@mesh, [{"x", ?}, {?}]>] manual_axes={"x"} (%arg1: tensor<4x6xf32>) {
    %1 = sdy.data_flow_edge %arg1 sharding=<@other, [{"y"}p1, {?}]> : tensor<4x6xf32>
    sdy.return %1 : tensor<4x6xf32>
  } : (tensor<16x6xf32>) -> tensor<16x6xf32>
  return %0 : tensor<16x6xf32>
}
"""

SPLIT_CONSTANTS = MESH + """
func.func @main(%arg0: tensor<8x6xf32>) -> (tensor<8x6xf32>, tensor<8x6xf32>, tensor<8x6xf32>) {
  %0 = sdy.constant dense<1.0> : tensor<f32>
  %1 = sdy.constant dense<1.0> : tensor<f32>
  %2 = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} dense<2.0> : tensor<8x6xf32>
  %3 = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} dense<2.0> : tensor<8x6xf32>
  %4 = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} dense<2.0> : tensor<8x6xf32>
  %5 = stablehlo.broadcast_in_dim %0, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<f32>) -> tensor<8x6xf32>
  %6 = stablehlo.broadcast_in_dim %1, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<f32>) -> tensor<8x6xf32>
  %7 = stablehlo.broadcast_in_dim %1, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"z"}]>]>} : (tensor<f32>) -> tensor<8x6xf32>
  %8 = stablehlo.add %2, %5 : tensor<8x6xf32>
  %9 = stablehlo.add %3, %6 : tensor<8x6xf32>
  %10 = stablehlo.add %4, %7 : tensor<8x6xf32>
  %11 = stablehlo.while(%iterArg = %8) : tensor<8x6xf32>
    cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %12 = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} dense<2.0> : tensor<8x6xf32>
    %13 = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} dense<2.0> : tensor<8x6xf32>
    %14 = stablehlo.add %12, %13 : tensor<8x6xf32>
    stablehlo.return %14 : tensor<8x6xf32>
  }
  return %11, %9, %10 : tensor<8x6xf32>, tensor<8x6xf32>, tensor<8x6xf32>
}
"""

CALLS = MESH + """
func.func @main(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x6xf32> {
  %0 = call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : (tensor<8x6xf32>) -> tensor<8x6xf32>
  %1 = call @foo_0(%0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x6xf32>) -> tensor<8x6xf32>
  %2 = call @foo(%1) : (tensor<8x6xf32>) -> tensor<8x6xf32>
  %3:2 = call @bar(%2) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y", ?}, {}]>, <@mesh, [{?}, {?}]>]>} : (tensor<8x6xf32>) -> (tensor<8x6xf32>, tensor<8x6xf32>)
  %4 = stablehlo.add %0, %3#0 : tensor<8x6xf32>
  %5 = stablehlo.add %4, %3#1 : tensor<8x6xf32>
  return %5 : tensor<8x6xf32>
}
func.func private @foo(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) attributes {sdy.original_func_name = "foo"} {
  %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}
func.func private @foo_0(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> (tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) attributes {sdy.original_func_name = "foo"} {
  %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}
func.func private @bar(%arg0: tensor<8x6xf32>) -> (tensor<8x6xf32>, tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"z"}]>}) {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"z", ?}, {?}]>]>} : tensor<8x6xf32>
  return %arg0, %0 : tensor<8x6xf32>, tensor<8x6xf32>
}
"""

FUNC_DATA_FLOW_EDGES = MESH + """
func.func @main(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x6xf32> {
  %0:2 = call @foo(%arg0) : (tensor<8x6xf32>) -> (tensor<8x6xf32>, tensor<8x6xf32>)
  %1 = sdy.func_data_flow_edge %0#0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y", ?}, {}]>]>} : tensor<8x6xf32>
  %2 = sdy.func_data_flow_edge %0#1 : tensor<8x6xf32>
  %3 = stablehlo.add %1, %2 : tensor<8x6xf32>
  return %3 : tensor<8x6xf32>
}
func.func private @foo(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {"z"}]>}) -> (tensor<8x6xf32>, tensor<8x6xf32>) {
  %0 = sdy.func_data_flow_edge %arg0 : tensor<8x6xf32>
  %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"z", ?}, {?}]>]>} : tensor<8x6xf32>
  return %0, %1 : tensor<8x6xf32>, tensor<8x6xf32>
}
"""

NESTED_NAMED_COMPUTATIONS = MESH + """
func.func @main(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %0 = sdy.named_computation<"foo">(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"y"}, {}]>] (%arg1: tensor<8x6xf32>) {
    %1 = sdy.named_computation<"inner">(%arg1) (%arg2: tensor<8x6xf32>) {
      %2 = stablehlo.abs %arg2 : tensor<8x6xf32>
      sdy.return %2 : tensor<8x6xf32>
    } {mhlo.frontend_attributes = {_xla_compute_type = "host"}} : (tensor<8x6xf32>) -> tensor<8x6xf32>
    sdy.return %1 : tensor<8x6xf32>
  } : (tensor<8x6xf32>) -> tensor<8x6xf32>
  %3 = sdy.named_computation<"inner">(%0) (%arg1: tensor<8x6xf32>) {
    sdy.return %arg1 : tensor<8x6xf32>
  } : (tensor<8x6xf32>) -> tensor<8x6xf32>
  %4 = sdy.named_computation<"foo">(%3) (%arg1: tensor<8x6xf32>) {
    sdy.return %arg1 : tensor<8x6xf32>
  } : (tensor<8x6xf32>) -> tensor<8x6xf32>
  return %4 : tensor<8x6xf32>
}
func.func private @inner_0(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> {
  return %arg0 : tensor<8x6xf32>
}
func.func private @foo(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> {
  return %arg0 : tensor<8x6xf32>
}
"""

DEBUG_INFO = MESH + """
func.func @main(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>, sdy.sharding_origins = {x = "self"}}) -> (tensor<8x6xf32> {sdy.sharding_origins = {x = "input: 0"}, jax.result_info = "r"}) {
  %0 = stablehlo.abs %arg0 {sdy.sharding_origins = [{x = "input: 0"}], sdy.result_sharding_origins = [], sdy.propagation_edges = #sdy.propagation_edges<[{step-0 = [{"x" = operand-0 -> [result-0]}]}]>} : tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}
"""

# ub.poison is a constant to MLIR (ConstantLike) too: identical ones merge.
POISON_CONSTANTS = MESH + """
func.func @main(%arg0: tensor<i32>) -> (tensor<i32>, tensor<i32>) {
  %0 = ub.poison : tensor<i32>
  %1 = ub.poison : tensor<i32>
  %2 = stablehlo.add %0, %arg0 : tensor<i32>
  %3 = stablehlo.add %1, %arg0 : tensor<i32>
  return %2, %3 : tensor<i32>, tensor<i32>
}
"""
RULES = MESH + """
func.func @main(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %0 = stablehlo.abs %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=6}>} : tensor<8x6xf32>
  %1 = stablehlo.custom_call @foo(%0) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=6}, custom>} : (tensor<8x6xf32>) -> tensor<8x6xf32>
  return %1 : tensor<8x6xf32>
}
"""

# Copies of one function called in different manual contexts (`sdy.func_manual_axes`, which XLA's import
# of shard_map bodies sets): only copies of one context are merged; an attribute that is not manual
# axes counts as none, an empty one does not; the old name `sdy.manual_axes` is neither read nor removed.
CALLS_IN_MANUAL_CONTEXTS = MESH + """
func.func @main(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %0 = call @foo(%arg0) : (tensor<8x6xf32>) -> tensor<8x6xf32>
  %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{}, {}]>] out_shardings=[<@mesh, [{}, {}]>] manual_axes={"x"} (%arg1: tensor<8x6xf32>) {
    %5 = func.call @foo_0(%arg1) : (tensor<8x6xf32>) -> tensor<8x6xf32>
    %6 = func.call @foo_1(%5) : (tensor<8x6xf32>) -> tensor<8x6xf32>
    sdy.return %6 : tensor<8x6xf32>
  } : (tensor<8x6xf32>) -> tensor<8x6xf32>
  %2 = sdy.manual_computation(%1) in_shardings=[<@mesh, [{}, {}]>] out_shardings=[<@mesh, [{}, {}]>] manual_axes={"y"} (%arg1: tensor<8x6xf32>) {
    %5 = func.call @foo_2(%arg1) : (tensor<8x6xf32>) -> tensor<8x6xf32>
    sdy.return %5 : tensor<8x6xf32>
  } : (tensor<8x6xf32>) -> tensor<8x6xf32>
  %3 = call @foo_3(%2) : (tensor<8x6xf32>) -> tensor<8x6xf32>
  %4 = call @foo_4(%3) : (tensor<8x6xf32>) -> tensor<8x6xf32>
  %7 = call @foo_5(%4) : (tensor<8x6xf32>) -> tensor<8x6xf32>
  return %7 : tensor<8x6xf32>
}
func.func private @foo(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}
func.func private @foo_0(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> attributes {sdy.original_func_name = "foo", sdy.func_manual_axes = #sdy<manual_axes{"x"}>} {
  %0 = stablehlo.abs %arg0 : tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}
func.func private @foo_1(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> attributes {sdy.original_func_name = "foo", sdy.func_manual_axes = #sdy<manual_axes{"x"}>} {
  %0 = stablehlo.abs %arg0 : tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}
func.func private @foo_2(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> attributes {sdy.original_func_name = "foo", sdy.func_manual_axes = #sdy<manual_axes{"y"}>} {
  %0 = stablehlo.abs %arg0 : tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}
func.func private @foo_3(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> attributes {sdy.original_func_name = "foo", sdy.func_manual_axes = "x"} {
  %0 = stablehlo.abs %arg0 : tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}
func.func private @foo_4(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> attributes {sdy.original_func_name = "foo", sdy.func_manual_axes = #sdy<manual_axes{}>} {
  %0 = stablehlo.abs %arg0 : tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}
func.func private @foo_5(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> attributes {sdy.original_func_name = "foo", sdy.manual_axes = #sdy<manual_axes{"x"}>} {
  %0 = stablehlo.abs %arg0 : tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}
"""

# Copies told apart by their shardings: a list with no sharding on a non-maximal mesh counts as none, and
# missing shardings count as fully open on the first such mesh.
CALL_KEYS_BY_SHARDINGS = MESH + 'sdy.mesh @other = <["x"=4, "y"=2, "z"=3]>\nsdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>\n' + """
func.func @main(%arg0: tensor<8x6xf32>, %arg1: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %0 = call @bar_0(%arg0, %arg1) : (tensor<8x6xf32>, tensor<8x6xf32>) -> tensor<8x6xf32>
  %1 = call @bar_1(%0, %arg1) : (tensor<8x6xf32>, tensor<8x6xf32>) -> tensor<8x6xf32>
  %2 = call @bar_2(%1, %arg1) : (tensor<8x6xf32>, tensor<8x6xf32>) -> tensor<8x6xf32>
  %3 = call @bar_3(%2, %arg1) : (tensor<8x6xf32>, tensor<8x6xf32>) -> tensor<8x6xf32>
  %4 = call @bar_4(%3, %arg1) : (tensor<8x6xf32>, tensor<8x6xf32>) -> tensor<8x6xf32>
  %5 = call @bar_5(%4, %arg1) : (tensor<8x6xf32>, tensor<8x6xf32>) -> tensor<8x6xf32>
  %6 = call @bar_6(%5, %arg1) : (tensor<8x6xf32>, tensor<8x6xf32>) -> tensor<8x6xf32>
  return %6 : tensor<8x6xf32>
}
func.func private @bar_0(%arg0: tensor<8x6xf32>, %arg1: tensor<8x6xf32>) -> tensor<8x6xf32> attributes {sdy.original_func_name = "bar"} {
  return %arg0 : tensor<8x6xf32>
}
func.func private @bar_1(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_0, []>}, %arg1: tensor<8x6xf32>) -> tensor<8x6xf32> attributes {sdy.original_func_name = "bar"} {
  return %arg0 : tensor<8x6xf32>
}
func.func private @bar_2(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_0, []>}, %arg1: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@other, [{"x"}, {?}]>}) -> tensor<8x6xf32> attributes {sdy.original_func_name = "bar"} {
  return %arg0 : tensor<8x6xf32>
}
func.func private @bar_3(%arg0: tensor<8x6xf32>, %arg1: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@other, [{"x"}, {?}]>}) -> tensor<8x6xf32> attributes {sdy.original_func_name = "bar"} {
  return %arg0 : tensor<8x6xf32>
}
func.func private @bar_4(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@other, [{?}, {?}]>}, %arg1: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@other, [{"x"}, {?}]>}) -> tensor<8x6xf32> attributes {sdy.original_func_name = "bar"} {
  return %arg0 : tensor<8x6xf32>
}
func.func private @bar_5(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {?}]>}, %arg1: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@other, [{"x"}, {?}]>}) -> tensor<8x6xf32> attributes {sdy.original_func_name = "bar"} {
  return %arg0 : tensor<8x6xf32>
}
func.func private @bar_6(%arg0: tensor<8x6xf32>, %arg1: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@other, [{"x"}, {?}]>}) -> (tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@other, [{?}, {?}]>}) attributes {sdy.original_func_name = "bar"} {
  return %arg0 : tensor<8x6xf32>
}
"""

ALL = {
    "non_divisible": NON_DIVISIBLE,
    "sub_axes": SUB_AXES,
    "single_non_main_func": SINGLE_NON_MAIN_FUNC,
    "sharding_groups": SHARDING_GROUPS,
    "data_flow_edges": DATA_FLOW_EDGES,
    "manual_computation": MANUAL_COMPUTATION,
    "manual_computation_edge_priority": MANUAL_COMPUTATION_EDGE_PRIORITY,
    "non_divisible_manual_computation": NON_DIVISIBLE_MANUAL_COMPUTATION,
    "split_constants": SPLIT_CONSTANTS,
    "poison_constants": POISON_CONSTANTS,
    "calls": CALLS,
    "func_data_flow_edges": FUNC_DATA_FLOW_EDGES,
    "nested_named_computations": NESTED_NAMED_COMPUTATIONS,
    "debug_info": DEBUG_INFO,
    "rules": RULES,
    "calls_in_manual_contexts": CALLS_IN_MANUAL_CONTEXTS,
    "call_keys_by_shardings": CALL_KEYS_BY_SHARDINGS,
}
