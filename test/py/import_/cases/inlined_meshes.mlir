sdy.mesh @mesh = <["a"=2, "b"=2]>
sdy.mesh @dup = <["a"=2, "b"=2]>
sdy.mesh @other = <["c"=4]>
func.func @mesh_0(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@dup, [{"a"}, {}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=2]>, [{"x"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<[], device_ids=[3]>, []>}) {
  %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<mesh<["a"=2, "b"=2]>, [{"b"}, {}]>]>} : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <mesh<["y"=2]>, [{"y"}, {}]> : tensor<8x8xf32>
  %2 = sdy.sharding_constraint %1 <mesh<[]>, [{}, {}]> : tensor<8x8xf32>
  %3 = sdy.manual_computation(%2) in_shardings=[<mesh<["y"=2, "z"=2, "w"=2]>, [{"y", "z"}, {}], replicated={"w"}>] out_shardings=[<mesh<["y"=2, "z"=2, "w"=2]>, [{"y"}, {}]>] manual_axes={"y"} (%b: tensor<4x8xf32>) {
    sdy.return %b : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}
// -----
func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=2]>, [{"x"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=2], device_ids=[1,0]>, [{}, {}]>}) {
  %0:2 = "stablehlo.optimization_barrier"(%arg0, %arg0) {sdy.sharding = #sdy.sharding_per_value<[<mesh<["x"=2]>, [{"x"}, {}]>, <mesh<["x"=2]>, [{}, {}]>]>} : (tensor<8x8xf32>, tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
  return %0#0 : tensor<8x8xf32>
}
func.func @mesh(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}
// -----
sdy.mesh @mesh = <["a"=2, "b"=2]> {foo = 1 : i32, stablehlo.mesh = {axes = [{name = "q", size = 4 : i64}]}}
sdy.mesh @mesh2 = <["a"=2, "b"=2], device_ids=[3,2,1,0]> 
sdy.mesh @mesh3 = <[], device_ids=[5]> 
func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=2], device_ids=[1,0]>, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}
