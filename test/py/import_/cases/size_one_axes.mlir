sdy.mesh @mesh = <["a"=1, "b"=2, "c"=1, "d"=4]>
func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}, {"c"}p1]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c", ?}p2, {"d":(1)2}], unreduced={"a"}>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) {
  %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b", "a"}, {}]>]>} : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"a"}, {"c"}]> : tensor<8x8xf32>
  %3 = sdy.manual_computation(%1) in_shardings=[<@mesh, [{"a", "b"}, {"d"}], replicated={"c"}>] out_shardings=[<@mesh, [{"a", "b"}, {}]>] manual_axes={"a", "b"} (%b: tensor<4x8xf32>) {
    sdy.return %b : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}
