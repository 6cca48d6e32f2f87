// RUN: pysdy-opt %s -split-input-file -sdy-apply-sharding-constraints="debug-sharding-origins=true debug-propagation-edge-sharding=true" | filecheck %s

// Each constraint given to its input is a propagation step, whose axes go from the constraint's result
// to its operand; the input's axes take the constraint's origin. Expected output is what jaxlib's C++
// pass prints (including %arg0's origin, named after the constraint on it that is not applied).

sdy.mesh @mesh = <["a"=2, "b"=4]>

// CHECK-LABEL: func @main(
// CHECK-SAME:      %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>, sdy.sharding_origins = {a = "constraint_2"}}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>, sdy.sharding_origins = {b = "constraint_1"}}, %arg2: tensor<8x16xf32>) -> tensor<8x16xf32> {
// CHECK-NEXT:    %0 = stablehlo.add %arg0, %arg2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {"b"}]>]>, sdy.sharding_origins = [{a = "constraint_0", b = "constraint_0"}]} : tensor<8x16xf32>
// CHECK-NEXT:    %1 = sdy.sharding_constraint %0 <@mesh, [{"a"}, {"b"}]> {sdy.propagation_edges = #sdy.propagation_edges<[{step-0 = [{"a" = result-0 -> [operand-0]}, {"b" = result-0 -> [operand-0]}]}]>, sdy.sharding_origin_name = "constraint_0", sdy.sharding_origins = {a = "self", b = "self"}, sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>} : tensor<8x16xf32>
// CHECK-NEXT:    %2 = stablehlo.negate %1 : tensor<8x16xf32>
// CHECK-NEXT:    %3 = sdy.sharding_constraint %arg1 <@mesh, [{}, {"b"}]> {sdy.propagation_edges = #sdy.propagation_edges<[{step-1 = [{"b" = result-0 -> [operand-0]}]}]>, sdy.sharding_origin_name = "constraint_1", sdy.sharding_origins = {b = "self"}, sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>} : tensor<8x16xf32>
// CHECK-NEXT:    %4 = sdy.sharding_constraint %arg0 <@mesh, [{"b"}, {}]> {sdy.sharding_origin_name = "constraint_2", sdy.sharding_origins = {b = "self"}} : tensor<8x16xf32>
// CHECK-NEXT:    %5 = stablehlo.multiply %2, %3 : tensor<8x16xf32>
// CHECK-NEXT:    %6 = stablehlo.add %5, %4 : tensor<8x16xf32>
// CHECK-NEXT:    return %6 : tensor<8x16xf32>
// CHECK-NEXT:  }
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg1: tensor<8x16xf32>, %arg2: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.add %arg0, %arg2 : tensor<8x16xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"a"}, {"b"}]> : tensor<8x16xf32>
  %2 = stablehlo.negate %1 : tensor<8x16xf32>
  %3 = sdy.sharding_constraint %arg1 <@mesh, [{}, {"b"}]> : tensor<8x16xf32>
  %4 = sdy.sharding_constraint %arg0 <@mesh, [{"b"}, {}]> : tensor<8x16xf32>
  %5 = stablehlo.multiply %2, %3 : tensor<8x16xf32>
  %6 = stablehlo.add %5, %4 : tensor<8x16xf32>
  return %6 : tensor<8x16xf32>
}

// -----

// A replicated constraint takes a step too; steps are numbered on from the module's last.

sdy.mesh @mesh = <["a"=2, "b"=4]>

// CHECK-LABEL: func @main(
// CHECK-SAME:      %arg0: tensor<8x16xf32>, %arg1: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32> {sdy.sharding_origins = {a = "constraint_1", b = "constraint_1"}}, tensor<8x16xf32>) {
// CHECK-NEXT:    %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : tensor<8x16xf32>
// CHECK-NEXT:    %1 = sdy.sharding_constraint %0 <@mesh, [{}, {}]> {sdy.sharding_origin_name = "constraint_0", sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>} : tensor<8x16xf32>
// CHECK-NEXT:    %2 = stablehlo.sine %arg0 {sdy.propagation_edges = #sdy.propagation_edges<[{step-4 = [{"a" = operand-0 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>} : tensor<8x16xf32>
// CHECK-NEXT:    %3 = stablehlo.abs %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b", "a"}, {}]>]>, sdy.sharding_origins = [{a = "constraint_1", b = "constraint_1"}]} : tensor<8x16xf32>
// CHECK-NEXT:    %4 = sdy.sharding_constraint %3 <@mesh, [{"b", "a"}, {}]> {sdy.propagation_edges = #sdy.propagation_edges<[{step-6 = [{"a" = result-0 -> [operand-0]}, {"b" = result-0 -> [operand-0]}]}]>, sdy.sharding_origin_name = "constraint_1", sdy.sharding_origins = {a = "self", b = "self"}, sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>} : tensor<8x16xf32>
// CHECK-NEXT:    return %1, %4, %2 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
// CHECK-NEXT:  }
func.func @main(%arg0: tensor<8x16xf32>, %arg1: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) {
  %0 = stablehlo.negate %arg0 : tensor<8x16xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{}, {}]> : tensor<8x16xf32>
  %2 = stablehlo.sine %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>, sdy.propagation_edges = #sdy.propagation_edges<[{step-4 = [{"a" = operand-0 -> [result-0]}]}]>} : tensor<8x16xf32>
  %3 = stablehlo.abs %arg1 : tensor<8x16xf32>
  %4 = sdy.sharding_constraint %3 <@mesh, [{"b", "a"}, {}]> : tensor<8x16xf32>
  return %1, %4, %2 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
}
