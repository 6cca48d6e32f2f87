// RUN: pysdy-opt %s -sdy-basic-propagate=debug-sharding-origins=true -split-input-file | filecheck %s --check-prefix=ORIGINS
// RUN: pysdy-opt %s -sdy-basic-propagate=debug-propagation-edge-sharding=true -split-input-file | filecheck %s --check-prefix=EDGES
// RUN: pysdy-opt %s -sdy-aggressive-propagate=debug-sharding-origins=true -split-input-file | filecheck %s --check-prefix=AGGRESSIVE-ORIGINS
// RUN: pysdy-opt %s -sdy-aggressive-propagate=debug-propagation-edge-sharding=true -split-input-file | filecheck %s --check-prefix=AGGRESSIVE-EDGES

// The debug options of the propagation passes; expected text is jaxlib's C++ output. Where one step
// brings an axis from several sources, jaxlib orders those entries differently from run to run; pysdy
// orders them by source, one of the orders jaxlib prints.

// ORIGINS-LABEL: func @dot_then_elementwise(
// ORIGINS-SAME:      %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>, sdy.sharding_origins = {a = "self"}}, %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>, sdy.sharding_origins = {b = "self"}}) -> (tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>, sdy.sharding_origins = {a = "input: 0", b = "input: 1"}}) {
// ORIGINS-NEXT:  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>, sdy.sharding_origins = [{a = "input: 0", b = "input: 1"}]} : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
// ORIGINS-NEXT:  %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>, sdy.sharding_origins = [{a = "input: 0", b = "input: 1"}]} : tensor<8x32xf32>
// ORIGINS-NEXT:  return %1 : tensor<8x32xf32>
// ORIGINS-NEXT:  }
// EDGES-LABEL: func @dot_then_elementwise(
// EDGES-SAME:      %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}) -> (tensor<8x32xf32> {sdy.propagation_edges = #sdy.propagation_edges<[{step-2 = [{"a" = operand-0 -> [result-0]}, {"b" = operand-0 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>}) {
// EDGES-NEXT:  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.propagation_edges = #sdy.propagation_edges<[{step-0 = [{"a" = operand-0 -> [result-0]}, {"b" = operand-1 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>} : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
// EDGES-NEXT:  %1 = stablehlo.negate %0 {sdy.propagation_edges = #sdy.propagation_edges<[{step-1 = [{"a" = operand-0 -> [result-0]}, {"b" = operand-0 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>} : tensor<8x32xf32>
// EDGES-NEXT:  return %1 : tensor<8x32xf32>
// EDGES-NEXT:  }
// Each axis remembers the argument it came from; an argument's own axes read `self`. Steps count from 0 across the pass.
sdy.mesh @mesh = <["a"=2, "b"=4]>

func.func @dot_then_elementwise(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}) -> tensor<8x32xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %1 = stablehlo.negate %0 : tensor<8x32xf32>
  return %1 : tensor<8x32xf32>
}

// -----

// ORIGINS-LABEL: func @constraint_and_result_shardings(
// ORIGINS-SAME:      %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>, sdy.sharding_origins = {a = "constraint_0"}}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>, sdy.sharding_origins = {a = "constraint_0", b = "output: 1"}}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>, sdy.sharding_origins = {a = "constraint_0", b = "constraint_0"}}, tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>, sdy.sharding_origins = {a = "constraint_0", b = "self"}}) {
// ORIGINS-NEXT:  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"a"}, {"b"}]> {sdy.sharding_origin_name = "constraint_0", sdy.sharding_origins = {a = "self", b = "self"}} : tensor<8x16xf32>
// ORIGINS-NEXT:  %1 = stablehlo.abs %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>, sdy.sharding_origins = [{a = "constraint_0", b = "output: 1"}]} : tensor<8x16xf32>
// ORIGINS-NEXT:  %2 = stablehlo.add %0, %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>, sdy.sharding_origins = [{a = "constraint_0", b = "constraint_0"}]} : tensor<8x16xf32>
// ORIGINS-NEXT:  return %2, %1 : tensor<8x16xf32>, tensor<8x16xf32>
// ORIGINS-NEXT:  }
// EDGES-LABEL: func @constraint_and_result_shardings(
// EDGES-SAME:      %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>}) -> (tensor<8x16xf32> {sdy.propagation_edges = #sdy.propagation_edges<[{step-0 = [{"b" = result-0 -> [operand-0]}]}, {step-4 = [{"a" = operand-0 -> [result-0]}, {"b" = operand-0 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>}, tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}) {
// EDGES-NEXT:  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"a"}, {"b"}]> : tensor<8x16xf32>
// EDGES-NEXT:  %1 = stablehlo.abs %arg1 {sdy.propagation_edges = #sdy.propagation_edges<[{step-1 = [{"b" = result-0 -> [operand-0]}]}, {step-3 = [{"a" = result-0 -> [operand-0]}]}]>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>} : tensor<8x16xf32>
// EDGES-NEXT:  %2 = stablehlo.add %0, %1 {sdy.propagation_edges = #sdy.propagation_edges<[{step-2 = [{"a" = operand-0 -> [operand-1, result-0]}, {"b" = operand-0 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>} : tensor<8x16xf32>
// EDGES-NEXT:  return %2, %1 : tensor<8x16xf32>, tensor<8x16xf32>
// EDGES-NEXT:  }
// A constraint's operand takes its origin; function results record every edge on result 0.
sdy.mesh @mesh = <["a"=2, "b"=4]>

func.func @constraint_and_result_shardings(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg1: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}) {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"a"}, {"b"}]> : tensor<8x16xf32>
  %1 = stablehlo.abs %arg1 : tensor<8x16xf32>
  %2 = stablehlo.add %0, %1 : tensor<8x16xf32>
  return %2, %1 : tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

// ORIGINS-LABEL: func @reshape_split(
// ORIGINS-SAME:      %arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", "a"}]>, sdy.sharding_origins = {a = "self", b = "self"}}) -> (tensor<2x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b":(1)2, ?}, {"b":(2)2, "a", ?}]>, sdy.sharding_origins = {a = "input: 0", "b:(1)2" = "input: 0", "b:(2)2" = "input: 0"}}) {
// ORIGINS-NEXT:  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b":(1)2, ?}, {"b":(2)2, "a", ?}]>]>, sdy.sharding_origins = [{a = "input: 0", "b:(1)2" = "input: 0", "b:(2)2" = "input: 0"}]} : (tensor<16xf32>) -> tensor<2x8xf32>
// ORIGINS-NEXT:  return %0 : tensor<2x8xf32>
// ORIGINS-NEXT:  }
// EDGES-LABEL: func @reshape_split(
// EDGES-SAME:      %arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", "a"}]>}) -> (tensor<2x8xf32> {sdy.propagation_edges = #sdy.propagation_edges<[{step-1 = [{"a" = operand-0 -> [result-0]}, {"b":(1)2 = operand-0 -> [result-0]}, {"b":(2)2 = operand-0 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding<@mesh, [{"b":(1)2, ?}, {"b":(2)2, "a", ?}]>}) {
// EDGES-NEXT:  %0 = stablehlo.reshape %arg0 {sdy.propagation_edges = #sdy.propagation_edges<[{step-0 = [{"a" = operand-0 -> [result-0]}, {"b":(1)2 = operand-0 -> [result-0]}, {"b":(2)2 = operand-0 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b":(1)2, ?}, {"b":(2)2, "a", ?}]>]>} : (tensor<16xf32>) -> tensor<2x8xf32>
// EDGES-NEXT:  return %0 : tensor<2x8xf32>
// EDGES-NEXT:  }
// Sub-axes made by a reshape keep their full axis's origin.
sdy.mesh @mesh = <["a"=2, "b"=4]>

func.func @reshape_split(%arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", "a"}]>}) -> tensor<2x8xf32> {
  %0 = stablehlo.reshape %arg0 : (tensor<16xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// ORIGINS-LABEL: func @manual_computation(
// ORIGINS-SAME:      %arg0: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>, sdy.sharding_origins = {a = "mc_0_input: 0", b = "mc_0_input: 0"}}) -> (tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>, sdy.sharding_origins = {a = "mc_0_output: 0", b = "mc_0_input: 0"}}) {
// ORIGINS-NEXT:  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}, {"b", ?}]>] out_shardings=[<@mesh, [{"a"}, {?}]>] manual_axes={"a"} (%arg1: tensor<8x32xf32>) {
// ORIGINS-NEXT:  %2 = sdy.data_flow_edge %arg1 sharding=<@mesh, [{}, {"b", ?}]> {sdy.sharding_origins = {a = "self", b = "self"}} : tensor<8x32xf32>
// ORIGINS-NEXT:  %3 = stablehlo.abs %2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"b", ?}]>]>, sdy.sharding_origins = [{b = "mc_0_input: 0"}]} : tensor<8x32xf32>
// ORIGINS-NEXT:  sdy.return %3 : tensor<8x32xf32>
// ORIGINS-NEXT:  } {sdy.sharding_origin_name = "mc_0"} : (tensor<16x32xf32>) -> tensor<16x32xf32>
// ORIGINS-NEXT:  %1 = sdy.data_flow_edge %0 sharding=<@mesh, [{"a"}, {"b", ?}]> {sdy.sharding_origins = {a = "self", b = "mc_0_input: 0"}} : tensor<16x32xf32>
// ORIGINS-NEXT:  return %1 : tensor<16x32xf32>
// ORIGINS-NEXT:  }
// EDGES-LABEL: func @manual_computation(
// EDGES-SAME:      %arg0: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>}) -> (tensor<16x32xf32> {sdy.propagation_edges = #sdy.propagation_edges<[{step-0 = [{"a" = operand-0 -> [result-0]}]}, {step-4 = [{"b" = operand-0 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>}) {
// EDGES-NEXT:  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}, {"b", ?}]>] out_shardings=[<@mesh, [{"a"}, {?}]>] manual_axes={"a"} (%arg1: tensor<8x32xf32>) {
// EDGES-NEXT:  %2 = sdy.data_flow_edge %arg1 sharding=<@mesh, [{}, {"b", ?}]> {sdy.propagation_edges = #sdy.propagation_edges<[{step-1 = [{"a" = result-0 -> [operand-0]}, {"b" = result-0 -> [operand-0]}]}]>} : tensor<8x32xf32>
// EDGES-NEXT:  %3 = stablehlo.abs %2 {sdy.propagation_edges = #sdy.propagation_edges<[{step-2 = [{"b" = operand-0 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"b", ?}]>]>} : tensor<8x32xf32>
// EDGES-NEXT:  sdy.return %3 : tensor<8x32xf32>
// EDGES-NEXT:  } : (tensor<16x32xf32>) -> tensor<16x32xf32>
// EDGES-NEXT:  %1 = sdy.data_flow_edge %0 sharding=<@mesh, [{"a"}, {"b", ?}]> {sdy.propagation_edges = #sdy.propagation_edges<[{step-3 = [{"b" = operand-0 -> [result-0]}]}]>} : tensor<16x32xf32>
// EDGES-NEXT:  return %1 : tensor<16x32xf32>
// EDGES-NEXT:  }
// Manual computation inputs and outputs are origins `mc_<n>_input/output: <i>`, `self` on their edges.
sdy.mesh @mesh = <["a"=2, "b"=4]>

func.func @manual_computation(%arg0: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}, {"b", ?}]>] out_shardings=[<@mesh, [{"a"}, {?}]>] manual_axes={"a"} (%arg1: tensor<8x32xf32>) {
    %1 = sdy.data_flow_edge %arg1 sharding=<@mesh, [{}, {"b", ?}]> : tensor<8x32xf32>
    %2 = stablehlo.abs %1 : tensor<8x32xf32>
    sdy.return %2 : tensor<8x32xf32>
  } : (tensor<16x32xf32>) -> tensor<16x32xf32>
  %3 = sdy.data_flow_edge %0 sharding=<@mesh, [{"a"}, {?}]> : tensor<16x32xf32>
  return %3 : tensor<16x32xf32>
}

// -----

// EDGES-LABEL: func @steps_continue_after_recorded_ones(
// EDGES-SAME:      -> (tensor<8x8xf32> {sdy.propagation_edges = #sdy.propagation_edges<[{step-12 = [{"x" = operand-0 -> [result-0]}, {"y" = operand-0 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {"y", ?}]>}) {
// EDGES-NEXT:  %0 = stablehlo.add %arg0, %arg1 {sdy.propagation_edges = #sdy.propagation_edges<[{step-9 = [{"x" = operand-0 -> [operand-1, result-0]}, {"y" = operand-0 -> [operand-1, result-0]}]}]>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", ?}]>]>} : tensor<8x8xf32>
// EDGES-NEXT:  %1 = sdy.sharding_constraint %arg1 <@mesh, [{"x", ?}, {"y", ?}]> {sdy.propagation_edges = #sdy.propagation_edges<[{step-10 = [{"x" = operand-0 -> [result-0]}, {"y" = operand-0 -> [result-0]}]}]>} : tensor<8x8xf32>
// EDGES-NEXT:  %2 = stablehlo.abs %0 {sdy.propagation_edges = #sdy.propagation_edges<[{step-11 = [{"x" = operand-0 -> [result-0]}, {"y" = operand-0 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", ?}]>]>} : tensor<8x8xf32>
// Steps are numbered on from the last one an op already records (here step 8, from an earlier pass),
// and an op's new edges replace the ones it had.
sdy.mesh @mesh = <["x"=2, "y"=4]>

func.func @steps_continue_after_recorded_ones(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg1: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg1 {sdy.propagation_edges = #sdy.propagation_edges<[{step-2 = [{"y" = result-0 -> [operand-0]}]}, {step-8 = [{"x" = result-0 -> [operand-0]}]}]>} : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %arg1 <@mesh, [{?}, {?}]> {sdy.propagation_edges = #sdy.propagation_edges<[{step-5 = [{"x" = result-0 -> [operand-0]}]}]>} : tensor<8x8xf32>
  %2 = stablehlo.abs %0 : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}

// -----

// ORIGINS-LABEL: func @origins_recorded_before(
// ORIGINS-SAME:      %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>, sdy.sharding_origins = {x = "self"}}, %arg1: tensor<8xf32> {sdy.sharding_origins = {x = "self", y = "input: 0"}}, %arg2: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}]>, sdy.sharding_origins = {x = "input: 0"}}, tensor<8xf32>, tensor<8xf32>) {
// ORIGINS-NEXT:  %0:2 = stablehlo.custom_call @foo(%arg0, %arg2) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}]>, <@mesh, [{?}]>]>, sdy.sharding_origins = [{x = "input: 0"}, {y = "input: 2"}], sdy.sharding_rule = #sdy.op_sharding_rule<([i], [j])->([i], [j]) {i=8, j=8}, custom>} : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
// ORIGINS-NEXT:  %1 = sdy.sharding_constraint %arg2 <@mesh, [{}]> {sdy.sharding_origin_name = "constraint_0", sdy.sharding_origins = {x = "self", y = "constraint_1"}} : tensor<8xf32>
// Origins already on the module stay where nothing new is recorded (result 1 of the custom call), and
// those naming their own value read `self` too.
sdy.mesh @mesh = <["x"=2, "y"=4]>

func.func @origins_recorded_before(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %arg1: tensor<8xf32> {sdy.sharding_origins = {x = "input: 1", y = "input: 0"}}, %arg2: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %0:2 = stablehlo.custom_call @foo(%arg0, %arg2) {sdy.sharding_rule = #sdy.op_sharding_rule<([i], [j])->([i], [j]) {i=8, j=8}, custom>, sdy.sharding_origins = [{y = "input: 2"}, {y = "input: 2"}]} : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  %1 = sdy.sharding_constraint %arg2 <@mesh, [{}]> {sdy.sharding_origins = {x = "constraint_0", y = "constraint_1"}} : tensor<8xf32>
  return %0#0, %0#1, %1 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

// EDGES-LABEL: func @transposed_sub_axes(
// EDGES-SAME:      %arg0: tensor<4x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z":(1)2}, {"z":(2)2}]>}) -> (tensor<6x4xf32> {sdy.propagation_edges = #sdy.propagation_edges<[{step-1 = [{"z":(1)2 = operand-0 -> [result-0]}, {"z":(2)2 = operand-0 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding<@mesh, [{"z":(2)2, ?}, {"z":(1)2, ?}]>}) {
// EDGES-NEXT:  %0 = stablehlo.transpose %arg0, dims = [1, 0] {sdy.propagation_edges = #sdy.propagation_edges<[{step-0 = [{"z":(1)2 = operand-0 -> [result-0]}, {"z":(2)2 = operand-0 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"z":(2)2, ?}, {"z":(1)2, ?}]>]>} : (tensor<4x6xf32>) -> tensor<6x4xf32>
// Sub-axes of one axis are in axis order, not in the order the result's dimensions hold them.
sdy.mesh @mesh = <["z"=4]>

func.func @transposed_sub_axes(%arg0: tensor<4x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z":(1)2}, {"z":(2)2}]>}) -> tensor<6x4xf32> {
  %0 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<4x6xf32>) -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}

// -----

// AGGRESSIVE-ORIGINS-LABEL: func @scatter_axis_from_two_sources(
// AGGRESSIVE-ORIGINS-SAME:      %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>, sdy.sharding_origins = {x = "self", y = "self"}}, %arg1: tensor<8x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>, sdy.sharding_origins = {x = "self"}}, %arg2: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}]>, sdy.sharding_origins = {x = "input: 1"}}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {"y", ?}]>, sdy.sharding_origins = {x = "input: 0", y = "input: 0"}}) {
// AGGRESSIVE-ORIGINS:      }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", ?}]>]>, sdy.sharding_origins = [{x = "input: 0", y = "input: 0"}]} : (tensor<8x16xf32>, tensor<8x2xi32>, tensor<8xf32>) -> tensor<8x16xf32>
// AGGRESSIVE-EDGES-LABEL: func @scatter_axis_from_two_sources(
// AGGRESSIVE-EDGES-SAME:      -> (tensor<8x16xf32> {sdy.propagation_edges = #sdy.propagation_edges<[{step-1 = [{"x" = operand-0 -> [result-0]}, {"y" = operand-0 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {"y", ?}]>}) {
// AGGRESSIVE-EDGES:      }) {sdy.propagation_edges = #sdy.propagation_edges<[{step-0 = [{"x" = operand-0 -> [result-0]}, {"x" = operand-1 -> [operand-2]}, {"y" = operand-0 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", ?}]>]>} : (tensor<8x16xf32>, tensor<8x2xi32>, tensor<8xf32>) -> tensor<8x16xf32>
// One step brings "x" from two sources: the operand's dim 0 to the result, the indices' batch dim to the updates.
// Each source is an entry of its own, and each target takes its origin from its own source.
sdy.mesh @mesh = <["x"=2, "y"=4]>

func.func @scatter_axis_from_two_sources(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg1: tensor<8x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg2: tensor<8xf32>) -> tensor<8x16xf32> {
  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
    stablehlo.return %arg4 : tensor<f32>
  }) : (tensor<8x16xf32>, tensor<8x2xi32>, tensor<8xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// AGGRESSIVE-ORIGINS-LABEL: func @axis_from_operand_and_result(
// AGGRESSIVE-ORIGINS:       stablehlo.custom_call @foo(%arg0, %arg1) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}]>, <@mesh, [{"x", ?}]>]>, sdy.sharding_origins = [{x = "input: 0"}, {x = "output: 1"}], sdy.sharding_rule = #sdy.op_sharding_rule<([i], [j])->([i], [j]) {i=8, j=8}, custom>}
// AGGRESSIVE-EDGES-LABEL: func @axis_from_operand_and_result(
// AGGRESSIVE-EDGES:       stablehlo.custom_call @foo(%arg0, %arg1) {sdy.propagation_edges = #sdy.propagation_edges<[{step-1 = [{"x" = operand-0 -> [result-0]}, {"x" = result-1 -> [operand-1]}]}]>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}]>, <@mesh, [{"x", ?}]>]>, sdy.sharding_rule = #sdy.op_sharding_rule<([i], [j])->([i], [j]) {i=8, j=8}, custom>}
// The sources of one axis are ordered as targets are: operands first.
sdy.mesh @mesh = <["x"=2, "y"=4]>

func.func @axis_from_operand_and_result(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %arg1: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}]>}) {
  %0:2 = stablehlo.custom_call @foo(%arg0, %arg1) {sdy.sharding_rule = #sdy.op_sharding_rule<([i], [j])->([i], [j]) {i=8, j=8}, custom>} : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  return %0#0, %0#1 : tensor<8xf32>, tensor<8xf32>
}

// -----

// AGGRESSIVE-EDGES-LABEL: func @sub_axes_in_axis_order(
// AGGRESSIVE-EDGES-SAME:      -> (tensor<8xf32> {sdy.propagation_edges = #sdy.propagation_edges<[{step-1 = [{"x":(2)2 = operand-0 -> [result-0]}]}, {step-2 = [{"x" = operand-0 -> [result-0]}]}, {step-3 = [{"x":(1)2 = operand-0 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding<@mesh, [{"x":(2)2, ?}]>}, tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}]>}, tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2, ?}]>}) {
// AGGRESSIVE-EDGES-NEXT:  %0:3 = stablehlo.custom_call @foo(%arg0, %arg1, %arg2) {sdy.propagation_edges = #sdy.propagation_edges<[{step-0 = [{"x":(1)2 = operand-2 -> [result-2]}, {"x" = operand-1 -> [result-1]}, {"x":(2)2 = operand-0 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x":(2)2, ?}]>, <@mesh, [{"x", ?}]>, <@mesh, [{"x":(1)2, ?}]>]>, sdy.sharding_rule = #sdy.op_sharding_rule<([i], [j], [k])->([i], [j], [k]) {i=8, j=8, k=8}, custom>}
// Axes are in Shardy's axis order: a sub-axis of pre-size 1, then the full axis, then later sub-axes.
sdy.mesh @mesh = <["x"=4, "y"=4]>

func.func @sub_axes_in_axis_order(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(2)2}]>}, %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %arg2: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2}]>}) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %0:3 = stablehlo.custom_call @foo(%arg0, %arg1, %arg2) {sdy.sharding_rule = #sdy.op_sharding_rule<([i], [j], [k])->([i], [j], [k]) {i=8, j=8, k=8}, custom>} : (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>)
  return %0#0, %0#1, %0#2 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}
