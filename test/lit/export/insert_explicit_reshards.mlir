// RUN: pysdy-opt %s -sdy-insert-explicit-reshards | filecheck %s
// RUN: pysdy-opt %s -sdy-insert-explicit-reshards=enable-full-version=true | filecheck %s --check-prefix=FULL

// Reshards and all-reduces that make each op's shardings compatible with its sharding rule:
// by default only for dots, concatenates, calls and unreduced axes; everywhere with enable-full-version.
// Expected output: jaxlib's C++ pass on this input.

// CHECK: sdy.mesh @mesh = <["x"=4, "y"=2]>
// CHECK: sdy.mesh @mesh_rev = <["x"=4, "y"=2], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>
// CHECK-LABEL: func.func @dot_result_sharded_by_contraction(%arg0: tensor<4x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}, %arg1: tensor<32x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<4x8xf32> {
// CHECK-NEXT: %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : (tensor<4x32xf32>, tensor<32x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %1 = sdy.reshard %0 <@mesh, [{}, {"x"}]> : tensor<4x8xf32>
// CHECK-NEXT: return %1 : tensor<4x8xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @dot_conflicting_non_contracting(%arg0: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg1: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}) -> tensor<8x16xf32> {
// CHECK-NEXT: %0 = stablehlo.dot %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: return %0 : tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @reduce_into_unreduced_result(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}) -> tensor<8xf32> {
// CHECK-NEXT: %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}], unreduced={"x"}>]>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
// CHECK-NEXT: %1 = sdy.all_reduce {"x"} %0 out_sharding=<@mesh, [{"y"}]> : tensor<8xf32>
// CHECK-NEXT: %2 = stablehlo.negate %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>} : tensor<8xf32>
// CHECK-NEXT: return %2 : tensor<8xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @elementwise_mismatched_operands(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}, %arg2: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}, %arg3: tensor<8x16xi1> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<8x16xf32> {
// CHECK-NEXT: %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x16xf32>
// CHECK-NEXT: %1 = stablehlo.select %arg3, %arg1, %arg2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : tensor<8x16xi1>, tensor<8x16xf32>
// CHECK-NEXT: %2 = stablehlo.multiply %0, %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : tensor<8x16xf32>
// CHECK-NEXT: return %2 : tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @reshape_splitting_an_axis(%arg0: tensor<24xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<6x4xf32> {
// CHECK-NEXT: %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {"x"}]>]>} : (tensor<24xf32>) -> tensor<6x4xf32>
// CHECK-NEXT: %1 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<24xf32>) -> tensor<6x4xf32>
// CHECK-NEXT: %2 = stablehlo.add %0, %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<6x4xf32>
// CHECK-NEXT: return %2 : tensor<6x4xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @sub_axes(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2}, {"x":(2)2}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2, "y"}, {}]>}) {
// CHECK-NEXT: %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x":(1)2}, {"y"}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: %1 = stablehlo.dot %0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x":(2)2}, {"x":(1)2}]>]>} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: return %1 : tensor<8x8xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @unreduced_input_to_replicated(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"x", "y"}>}, %arg1: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"y"}>}) -> (tensor<4x8xf32>, tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"y"}>}) {
// CHECK-NEXT: %0 = sdy.all_reduce {"x"} %arg0 out_sharding=<@mesh, [{}, {}], unreduced={"y"}> : tensor<4x8xf32>
// CHECK-NEXT: %1 = stablehlo.add %0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"y"}>]>} : tensor<4x8xf32>
// CHECK-NEXT: %2 = sdy.all_reduce {"x", "y"} %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<4x8xf32>
// CHECK-NEXT: %3 = sdy.all_reduce {"y"} %arg1 out_sharding=<@mesh, [{}, {}]> : tensor<4x8xf32>
// CHECK-NEXT: %4 = stablehlo.multiply %2, %3 : tensor<4x8xf32>
// CHECK-NEXT: return %4, %1 : tensor<4x8xf32>, tensor<4x8xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @reshard_to_unreduced(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x8xf32> {
// CHECK-NEXT: %0 = sdy.sharded_to_unreduced [{}, {"y"}] %arg0 out_sharding=<@mesh, [{"x"}, {}], unreduced={"y"}> : tensor<8x8xf32>
// CHECK-NEXT: %1 = sdy.sharded_to_unreduced [{"x"}, {}] %0 out_sharding=<@mesh, [{}, {}], unreduced={"x", "y"}> : tensor<8x8xf32>
// CHECK-NEXT: %2 = sdy.all_reduce {"x", "y"} %1 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: %3 = stablehlo.negate %2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: return %3 : tensor<8x8xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @return_to_unreduced(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}], unreduced={"y"}>}, tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}], unreduced={"y"}>}) {
// CHECK-NEXT: %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: %1 = sdy.sharded_to_unreduced [{}, {"y"}] %0 out_sharding=<@mesh, [{"x"}, {}], unreduced={"y"}> : tensor<8x8xf32>
// CHECK-NEXT: %2 = sdy.replicated_to_unreduced {"y"} %arg1 out_sharding=<@mesh, [{"x"}, {}], unreduced={"y"}> : tensor<8x8xf32>
// CHECK-NEXT: return %1, %2 : tensor<8x8xf32>, tensor<8x8xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @meshes_with_other_device_order(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_rev, [{"x"}, {}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x16xf32> {
// CHECK-NEXT: %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_rev, [{"x"}, {}]>]>} : tensor<8x16xf32>
// CHECK-NEXT: %1 = stablehlo.subtract %0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : tensor<8x16xf32>
// CHECK-NEXT: return %1 : tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @while_case_and_barrier(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<i32>) -> tensor<8x16xf32> {
// CHECK-NEXT: %0 = stablehlo.while(%iterArg = %arg0) : tensor<8x16xf32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>}
// CHECK-NEXT: cond {
// CHECK-NEXT: %c = stablehlo.constant dense<true> : tensor<i1>
// CHECK-NEXT: stablehlo.return %c : tensor<i1>
// CHECK-NEXT: } do {
// CHECK-NEXT: %4 = stablehlo.negate %iterArg {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x16xf32>
// CHECK-NEXT: stablehlo.return %4 : tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %1 = "stablehlo.case"(%arg1) ({
// CHECK-NEXT: stablehlo.return %0 : tensor<8x16xf32>
// CHECK-NEXT: }, {
// CHECK-NEXT: %4 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : tensor<8x16xf32>
// CHECK-NEXT: stablehlo.return %4 : tensor<8x16xf32>
// CHECK-NEXT: }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : (tensor<i32>) -> tensor<8x16xf32>
// CHECK-NEXT: %2 = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} %1 : tensor<8x16xf32>
// CHECK-NEXT: %3 = stablehlo.optimization_barrier %arg0 : tensor<8x16xf32>
// CHECK-NEXT: return %2 : tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @named_and_manual_computations(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x16xf32> {
// CHECK-NEXT: %0 = sdy.named_computation<"foo">(%arg0) in_shardings=[<@mesh, [{}, {"y"}]>] out_shardings=[<@mesh, [{"y"}, {}]>] (%arg1: tensor<8x16xf32>) {
// CHECK-NEXT: %2 = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : tensor<8x16xf32>
// CHECK-NEXT: sdy.return %2 : tensor<8x16xf32>
// CHECK-NEXT: } : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x", "y"}, {}]>] manual_axes={"x"} (%arg1: tensor<2x16xf32>) {
// CHECK-NEXT: %2 = stablehlo.abs %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : tensor<2x16xf32>
// CHECK-NEXT: sdy.return %2 : tensor<2x16xf32>
// CHECK-NEXT: } : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: return %1 : tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @concatenate_and_need_replication(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg1: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{"x", "y"}, {}]> : tensor<8x4xf32>
// CHECK-NEXT: %1 = sdy.reshard %arg1 <@mesh, [{"x", "y"}, {}]> : tensor<8x4xf32>
// CHECK-NEXT: %2 = stablehlo.concatenate %0, %1, dim = 1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}]>]>} : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %3 = sdy.reshard %2 <@mesh, [{"x"}, {"y"}]> : tensor<8x8xf32>
// CHECK-NEXT: %4 = stablehlo.concatenate %arg1, %arg1, dim = 1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %5 = stablehlo.add %3, %4 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: return %5 : tensor<8x8xf32>
// CHECK-NEXT: }

// FULL: sdy.mesh @mesh = <["x"=4, "y"=2]>
// FULL: sdy.mesh @mesh_rev = <["x"=4, "y"=2], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>
// FULL-LABEL: func.func @dot_result_sharded_by_contraction(%arg0: tensor<4x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}, %arg1: tensor<32x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<4x8xf32> {
// FULL-NEXT: %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : (tensor<4x32xf32>, tensor<32x8xf32>) -> tensor<4x8xf32>
// FULL-NEXT: %1 = sdy.all_reduce {"x"} %0 out_sharding=<@mesh, [{}, {"y"}]> : tensor<4x8xf32>
// FULL-NEXT: %2 = sdy.reshard %1 <@mesh, [{}, {"x"}]> : tensor<4x8xf32>
// FULL-NEXT: %3 = sdy.reshard %2 <@mesh, [{}, {}]> : tensor<4x8xf32>
// FULL-NEXT: return %3 : tensor<4x8xf32>
// FULL-NEXT: }
// FULL-LABEL: func.func @dot_conflicting_non_contracting(%arg0: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg1: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}) -> tensor<8x16xf32> {
// FULL-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{}, {"y"}]> : tensor<8x32xf32>
// FULL-NEXT: %1 = stablehlo.dot %0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
// FULL-NEXT: %2 = sdy.all_reduce {"y"} %1 out_sharding=<@mesh, [{}, {"x"}]> : tensor<8x16xf32>
// FULL-NEXT: %3 = sdy.reshard %2 <@mesh, [{"x"}, {}]> : tensor<8x16xf32>
// FULL-NEXT: %4 = sdy.reshard %3 <@mesh, [{}, {}]> : tensor<8x16xf32>
// FULL-NEXT: return %4 : tensor<8x16xf32>
// FULL-NEXT: }
// FULL-LABEL: func.func @reduce_into_unreduced_result(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}) -> tensor<8xf32> {
// FULL-NEXT: %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// FULL-NEXT: %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}], unreduced={"x"}>]>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
// FULL-NEXT: %1 = sdy.all_reduce {"x"} %0 out_sharding=<@mesh, [{"y"}]> : tensor<8xf32>
// FULL-NEXT: %2 = stablehlo.negate %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>} : tensor<8xf32>
// FULL-NEXT: %3 = sdy.reshard %2 <@mesh, [{}]> : tensor<8xf32>
// FULL-NEXT: return %3 : tensor<8xf32>
// FULL-NEXT: }
// FULL-LABEL: func.func @elementwise_mismatched_operands(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}, %arg2: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}, %arg3: tensor<8x16xi1> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<8x16xf32> {
// FULL-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{"x"}, {"y"}]> : tensor<8x16xf32>
// FULL-NEXT: %1 = sdy.reshard %arg1 <@mesh, [{"x"}, {"y"}]> : tensor<8x16xf32>
// FULL-NEXT: %2 = stablehlo.add %0, %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x16xf32>
// FULL-NEXT: %3 = sdy.reshard %arg3 <@mesh, [{"y"}, {"x"}]> : tensor<8x16xi1>
// FULL-NEXT: %4 = sdy.reshard %arg1 <@mesh, [{"y"}, {"x"}]> : tensor<8x16xf32>
// FULL-NEXT: %5 = stablehlo.select %3, %4, %arg2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {"x"}]>]>} : tensor<8x16xi1>, tensor<8x16xf32>
// FULL-NEXT: %6 = sdy.reshard %5 <@mesh, [{}, {"x"}]> : tensor<8x16xf32>
// FULL-NEXT: %7 = sdy.reshard %2 <@mesh, [{"y"}, {"x"}]> : tensor<8x16xf32>
// FULL-NEXT: %8 = sdy.reshard %6 <@mesh, [{"y"}, {"x"}]> : tensor<8x16xf32>
// FULL-NEXT: %9 = stablehlo.multiply %7, %8 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {"x"}]>]>} : tensor<8x16xf32>
// FULL-NEXT: %10 = sdy.reshard %9 <@mesh, [{"y"}, {}]> : tensor<8x16xf32>
// FULL-NEXT: %11 = sdy.reshard %10 <@mesh, [{}, {}]> : tensor<8x16xf32>
// FULL-NEXT: return %11 : tensor<8x16xf32>
// FULL-NEXT: }
// FULL-LABEL: func.func @reshape_splitting_an_axis(%arg0: tensor<24xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<6x4xf32> {
// FULL-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{"y"}]> : tensor<24xf32>
// FULL-NEXT: %1 = stablehlo.reshape %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : (tensor<24xf32>) -> tensor<6x4xf32>
// FULL-NEXT: %2 = sdy.reshard %1 <@mesh, [{"y"}, {"x"}]> : tensor<6x4xf32>
// FULL-NEXT: %3 = sdy.reshard %arg0 <@mesh, [{"x":(1)2}]> : tensor<24xf32>
// FULL-NEXT: %4 = stablehlo.reshape %3 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x":(1)2}, {}]>]>} : (tensor<24xf32>) -> tensor<6x4xf32>
// FULL-NEXT: %5 = sdy.reshard %4 <@mesh, [{}, {}]> : tensor<6x4xf32>
// FULL-NEXT: %6 = sdy.reshard %5 <@mesh, [{"y"}, {"x"}]> : tensor<6x4xf32>
// FULL-NEXT: %7 = stablehlo.add %2, %6 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {"x"}]>]>} : tensor<6x4xf32>
// FULL-NEXT: %8 = sdy.reshard %7 <@mesh, [{"x"}, {}]> : tensor<6x4xf32>
// FULL-NEXT: %9 = sdy.reshard %8 <@mesh, [{}, {}]> : tensor<6x4xf32>
// FULL-NEXT: return %9 : tensor<6x4xf32>
// FULL-NEXT: }
// FULL-LABEL: func.func @sub_axes(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2}, {"x":(2)2}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2, "y"}, {}]>}) {
// FULL-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{"x"}, {"y"}]> : tensor<8x8xf32>
// FULL-NEXT: %1 = stablehlo.add %0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x8xf32>
// FULL-NEXT: %2 = sdy.reshard %1 <@mesh, [{"x":(1)2}, {"y"}]> : tensor<8x8xf32>
// FULL-NEXT: %3 = sdy.reshard %2 <@mesh, [{"x":(2)2}, {"x":(1)2}]> : tensor<8x8xf32>
// FULL-NEXT: %4 = sdy.reshard %arg1 <@mesh, [{"x":(1)2}, {"y"}]> : tensor<8x8xf32>
// FULL-NEXT: %5 = stablehlo.dot %3, %4 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x":(2)2}, {"y"}]>]>} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
// FULL-NEXT: %6 = sdy.all_reduce {"x":(1)2} %5 out_sharding=<@mesh, [{"x":(2)2}, {"y"}]> : tensor<8x8xf32>
// FULL-NEXT: %7 = sdy.reshard %6 <@mesh, [{"x":(2)2}, {"x":(1)2}]> : tensor<8x8xf32>
// FULL-NEXT: %8 = sdy.reshard %7 <@mesh, [{"x":(1)2, "y"}, {}]> : tensor<8x8xf32>
// FULL-NEXT: return %8 : tensor<8x8xf32>
// FULL-NEXT: }
// FULL-LABEL: func.func @unreduced_input_to_replicated(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"x", "y"}>}, %arg1: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"y"}>}) -> (tensor<4x8xf32>, tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"y"}>}) {
// FULL-NEXT: %0 = sdy.all_reduce {"x"} %arg0 out_sharding=<@mesh, [{}, {}], unreduced={"y"}> : tensor<4x8xf32>
// FULL-NEXT: %1 = stablehlo.add %0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"y"}>]>} : tensor<4x8xf32>
// FULL-NEXT: %2 = sdy.all_reduce {"x", "y"} %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<4x8xf32>
// FULL-NEXT: %3 = sdy.all_reduce {"y"} %arg1 out_sharding=<@mesh, [{}, {}]> : tensor<4x8xf32>
// FULL-NEXT: %4 = stablehlo.multiply %2, %3 : tensor<4x8xf32>
// FULL-NEXT: return %4, %1 : tensor<4x8xf32>, tensor<4x8xf32>
// FULL-NEXT: }
// FULL-LABEL: func.func @reshard_to_unreduced(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x8xf32> {
// FULL-NEXT: %0 = sdy.sharded_to_unreduced [{}, {"y"}] %arg0 out_sharding=<@mesh, [{"x"}, {}], unreduced={"y"}> : tensor<8x8xf32>
// FULL-NEXT: %1 = sdy.sharded_to_unreduced [{"x"}, {}] %0 out_sharding=<@mesh, [{}, {}], unreduced={"x", "y"}> : tensor<8x8xf32>
// FULL-NEXT: %2 = sdy.all_reduce {"x", "y"} %1 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
// FULL-NEXT: %3 = stablehlo.negate %2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : tensor<8x8xf32>
// FULL-NEXT: return %3 : tensor<8x8xf32>
// FULL-NEXT: }
// FULL-LABEL: func.func @return_to_unreduced(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}], unreduced={"y"}>}, tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}], unreduced={"y"}>}) {
// FULL-NEXT: %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x8xf32>
// FULL-NEXT: %1 = sdy.sharded_to_unreduced [{}, {"y"}] %0 out_sharding=<@mesh, [{"x"}, {}], unreduced={"y"}> : tensor<8x8xf32>
// FULL-NEXT: %2 = sdy.replicated_to_unreduced {"y"} %arg1 out_sharding=<@mesh, [{"x"}, {}], unreduced={"y"}> : tensor<8x8xf32>
// FULL-NEXT: return %1, %2 : tensor<8x8xf32>, tensor<8x8xf32>
// FULL-NEXT: }
// FULL-LABEL: func.func @meshes_with_other_device_order(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_rev, [{"x"}, {}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x16xf32> {
// FULL-NEXT: %0 = sdy.reshard %arg1 <@mesh_rev, [{"x"}, {}]> : tensor<8x16xf32>
// FULL-NEXT: %1 = stablehlo.add %arg0, %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_rev, [{"x"}, {}]>]>} : tensor<8x16xf32>
// FULL-NEXT: %2 = sdy.reshard %1 <@mesh, [{"x"}, {"y"}]> : tensor<8x16xf32>
// FULL-NEXT: %3 = sdy.reshard %arg1 <@mesh, [{"x"}, {"y"}]> : tensor<8x16xf32>
// FULL-NEXT: %4 = stablehlo.subtract %2, %3 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x16xf32>
// FULL-NEXT: %5 = sdy.reshard %4 <@mesh, [{}, {"y"}]> : tensor<8x16xf32>
// FULL-NEXT: %6 = sdy.reshard %5 <@mesh, [{}, {}]> : tensor<8x16xf32>
// FULL-NEXT: return %6 : tensor<8x16xf32>
// FULL-NEXT: }
// FULL-LABEL: func.func @while_case_and_barrier(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<i32>) -> tensor<8x16xf32> {
// FULL-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{}, {}]> : tensor<8x16xf32>
// FULL-NEXT: %1 = sdy.reshard %arg0 <@mesh, [{}, {"y"}]> : tensor<8x16xf32>
// FULL-NEXT: %2 = stablehlo.while(%iterArg = %1) : tensor<8x16xf32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>}
// FULL-NEXT: cond {
// FULL-NEXT: %c = stablehlo.constant dense<true> : tensor<i1>
// FULL-NEXT: stablehlo.return %c : tensor<i1>
// FULL-NEXT: } do {
// FULL-NEXT: %8 = sdy.reshard %iterArg <@mesh, [{"x"}, {"y"}]> : tensor<8x16xf32>
// FULL-NEXT: %9 = stablehlo.negate %8 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x16xf32>
// FULL-NEXT: %10 = sdy.reshard %9 <@mesh, [{}, {"y"}]> : tensor<8x16xf32>
// FULL-NEXT: stablehlo.return %10 : tensor<8x16xf32>
// FULL-NEXT: }
// FULL-NEXT: %3 = "stablehlo.case"(%arg1) ({
// FULL-NEXT: stablehlo.return %2 : tensor<8x16xf32>
// FULL-NEXT: }, {
// FULL-NEXT: %8 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x16xf32>
// FULL-NEXT: %9 = sdy.reshard %8 <@mesh, [{"y"}, {}]> : tensor<8x16xf32>
// FULL-NEXT: %10 = sdy.reshard %9 <@mesh, [{}, {"y"}]> : tensor<8x16xf32>
// FULL-NEXT: stablehlo.return %10 : tensor<8x16xf32>
// FULL-NEXT: }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : (tensor<i32>) -> tensor<8x16xf32>
// FULL-NEXT: %4 = sdy.reshard %3 <@mesh, [{"x"}, {"y"}]> : tensor<8x16xf32>
// FULL-NEXT: %5 = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} %4 : tensor<8x16xf32>
// FULL-NEXT: %6 = stablehlo.optimization_barrier %0 : tensor<8x16xf32>
// FULL-NEXT: %7 = sdy.reshard %5 <@mesh, [{}, {}]> : tensor<8x16xf32>
// FULL-NEXT: return %7 : tensor<8x16xf32>
// FULL-NEXT: }
// FULL-LABEL: func.func @named_and_manual_computations(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x16xf32> {
// FULL-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{}, {"y"}]> : tensor<8x16xf32>
// FULL-NEXT: %1 = sdy.named_computation<"foo">(%0) in_shardings=[<@mesh, [{}, {"y"}]>] out_shardings=[<@mesh, [{"y"}, {}]>] (%arg1: tensor<8x16xf32>) {
// FULL-NEXT: %5 = sdy.reshard %arg1 <@mesh, [{}, {"x"}]> : tensor<8x16xf32>
// FULL-NEXT: %6 = stablehlo.negate %5 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : tensor<8x16xf32>
// FULL-NEXT: %7 = sdy.reshard %6 <@mesh, [{"y"}, {}]> : tensor<8x16xf32>
// FULL-NEXT: sdy.return %7 : tensor<8x16xf32>
// FULL-NEXT: } : (tensor<8x16xf32>) -> tensor<8x16xf32>
// FULL-NEXT: %2 = sdy.reshard %1 <@mesh, [{"x"}, {}]> : tensor<8x16xf32>
// FULL-NEXT: %3 = sdy.manual_computation(%2) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x", "y"}, {}]>] manual_axes={"x"} (%arg1: tensor<2x16xf32>) {
// FULL-NEXT: %5 = sdy.reshard %arg1 <@mesh, [{}, {"y"}]> : tensor<2x16xf32>
// FULL-NEXT: %6 = stablehlo.abs %5 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : tensor<2x16xf32>
// FULL-NEXT: %7 = sdy.reshard %6 <@mesh, [{"y"}, {}]> : tensor<2x16xf32>
// FULL-NEXT: sdy.return %7 : tensor<2x16xf32>
// FULL-NEXT: } : (tensor<8x16xf32>) -> tensor<8x16xf32>
// FULL-NEXT: %4 = sdy.reshard %3 <@mesh, [{}, {}]> : tensor<8x16xf32>
// FULL-NEXT: return %4 : tensor<8x16xf32>
// FULL-NEXT: }
// FULL-LABEL: func.func @concatenate_and_need_replication(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg1: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
// FULL-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{"x", "y"}, {}]> : tensor<8x4xf32>
// FULL-NEXT: %1 = sdy.reshard %arg1 <@mesh, [{"x", "y"}, {}]> : tensor<8x4xf32>
// FULL-NEXT: %2 = stablehlo.concatenate %0, %1, dim = 1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}]>]>} : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x8xf32>
// FULL-NEXT: %3 = sdy.reshard %2 <@mesh, [{"x"}, {"y"}]> : tensor<8x8xf32>
// FULL-NEXT: %4 = stablehlo.concatenate %arg1, %arg1, dim = 1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x8xf32>
// FULL-NEXT: %5 = sdy.reshard %4 <@mesh, [{"x"}, {"y"}]> : tensor<8x8xf32>
// FULL-NEXT: %6 = stablehlo.add %3, %5 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x8xf32>
// FULL-NEXT: %7 = sdy.reshard %6 <@mesh, [{"x"}, {}]> : tensor<8x8xf32>
// FULL-NEXT: %8 = sdy.reshard %7 <@mesh, [{}, {}]> : tensor<8x8xf32>
// FULL-NEXT: return %8 : tensor<8x8xf32>
// FULL-NEXT: }
sdy.mesh @mesh = <["x"=4, "y"=2]>
sdy.mesh @mesh_rev = <["x"=4, "y"=2], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>

// The dot result is sharded along the contraction axes: it takes the operands' sharding and is resharded after.
func.func @dot_result_sharded_by_contraction(%arg0: tensor<4x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
                %arg1: tensor<32x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<4x8xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : (tensor<4x32xf32>, tensor<32x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// Both operands use "x" on a non-contracting dimension.
func.func @dot_conflicting_non_contracting(%arg0: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
                %arg1: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.dot %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// A reduction over an axis the result keeps unreduced, then an all-reduce where it stops being unreduced.
func.func @reduce_into_unreduced_result(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}) -> tensor<8xf32> {
  %cst = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}], unreduced={"x"}>]>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>} : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// Elementwise ops whose operands and results disagree.
func.func @elementwise_mismatched_operands(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
                %arg2: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>},
                %arg3: tensor<8x16xi1> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x16xf32>
  %1 = stablehlo.select %arg3, %arg1, %arg2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : tensor<8x16xi1>, tensor<8x16xf32>
  %2 = stablehlo.multiply %0, %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}

// Reshapes whose operand axis is split across result dimensions.
func.func @reshape_splitting_an_axis(%arg0: tensor<24xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<6x4xf32> {
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {"x"}]>]>} : (tensor<24xf32>) -> tensor<6x4xf32>
  %1 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<24xf32>) -> tensor<6x4xf32>
  %2 = stablehlo.add %0, %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<6x4xf32>
  return %2 : tensor<6x4xf32>
}

// Sub-axes on operands and results.
func.func @sub_axes(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2}, {"x":(2)2}]>},
                %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2, "y"}, {}]>}) {
  %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x":(1)2}, {"y"}]>]>} : tensor<8x8xf32>
  %1 = stablehlo.dot %0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x":(2)2}, {"x":(1)2}]>]>} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// Unreduced function inputs all-reduced where their users are not unreduced.
func.func @unreduced_input_to_replicated(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"x", "y"}>},
                %arg1: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"y"}>}) -> (tensor<4x8xf32>, tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"y"}>}) {
  %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"y"}>]>} : tensor<4x8xf32>
  %1 = stablehlo.multiply %arg0, %arg1 : tensor<4x8xf32>
  return %1, %0 : tensor<4x8xf32>, tensor<4x8xf32>
}

// Reshards to unreduced shardings become sharded-to-unreduced ops.
func.func @reshard_to_unreduced(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{"x"}, {}], unreduced={"y"}> : tensor<8x8xf32>
  %1 = sdy.reshard %0 <@mesh, [{}, {}], unreduced={"x", "y"}> : tensor<8x8xf32>
  %2 = stablehlo.negate %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}

// Returned values made unreduced as the function results ask.
func.func @return_to_unreduced(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
                %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}], unreduced={"y"}>}, tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}], unreduced={"y"}>}) {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x8xf32>
  return %0, %arg1 : tensor<8x8xf32>, tensor<8x8xf32>
}

// Shardings on a mesh with another device order are resharded to the common one.
func.func @meshes_with_other_device_order(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_rev, [{"x"}, {}]>},
                %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_rev, [{"x"}, {}]>]>} : tensor<8x16xf32>
  %1 = stablehlo.subtract %0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// Data-flow ops: their operands and region results are resharded to the op's shardings.
func.func @while_case_and_barrier(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<i32>) -> tensor<8x16xf32> {
  %0 = stablehlo.while(%iterArg = %arg0) : tensor<8x16xf32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>}
  cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %1 = stablehlo.negate %iterArg {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x16xf32>
    stablehlo.return %1 : tensor<8x16xf32>
  }
  %2 = "stablehlo.case"(%arg1) ({
    stablehlo.return %0 : tensor<8x16xf32>
  }, {
    %3 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : tensor<8x16xf32>
    stablehlo.return %3 : tensor<8x16xf32>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : (tensor<i32>) -> tensor<8x16xf32>
  %4 = "stablehlo.optimization_barrier"(%2) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %5 = "stablehlo.optimization_barrier"(%arg0) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %4 : tensor<8x16xf32>
}

// Named and manual computations (manual axes stripped inside).
func.func @named_and_manual_computations(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x16xf32> {
  %0 = sdy.named_computation<"foo">(%arg0) in_shardings=[<@mesh, [{}, {"y"}]>] out_shardings=[<@mesh, [{"y"}, {}]>] (%arg1: tensor<8x16xf32>) {
    %1 = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : tensor<8x16xf32>
    sdy.return %1 : tensor<8x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %2 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x", "y"}, {}]>] manual_axes={"x"} (%arg2: tensor<2x16xf32>) {
    %3 = stablehlo.abs %arg2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : tensor<2x16xf32>
    sdy.return %3 : tensor<2x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}

// A concatenate whose operands differ from its result uses the full version even by default.
func.func @concatenate_and_need_replication(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
                %arg1: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.concatenate %arg0, %arg1, dim = 1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x8xf32>
  %1 = stablehlo.concatenate %arg1, %arg1, dim = 1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x8xf32>
  %2 = stablehlo.add %0, %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}
