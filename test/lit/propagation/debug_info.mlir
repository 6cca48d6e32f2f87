// RUN: pysdy-opt %s -sdy-basic-propagate=debug-sharding-origins=true -split-input-file | filecheck %s --check-prefix=ORIGINS
// RUN: pysdy-opt %s -sdy-basic-propagate=debug-propagation-edge-sharding=true -split-input-file | filecheck %s --check-prefix=EDGES

// The debug options of the propagation passes; expected text is jaxlib's C++ output.

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
