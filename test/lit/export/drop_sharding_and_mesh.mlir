// RUN: pysdy-opt %s -sdy-drop-sharding-and-mesh | filecheck %s

sdy.mesh @mesh = <["a"=2, "b"=4]>

// Shardings on ops, arguments and results go, other attributes stay, and no mesh op is left.
// CHECK-NOT: sdy.mesh
// CHECK-LABEL: func.func @drops_shardings_and_meshes(%arg0: tensor<8x16xf32> {mhlo.foo = 1 : i32}) -> tensor<8x16xf32> {
// CHECK-NEXT: %0 = stablehlo.abs %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>} : tensor<8x16xf32>
// CHECK-NEXT: return %0 : tensor<8x16xf32>
// CHECK-NEXT: }
func.func @drops_shardings_and_meshes(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>, mhlo.foo = 1 : i32}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}) {
  %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>, sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>} : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
