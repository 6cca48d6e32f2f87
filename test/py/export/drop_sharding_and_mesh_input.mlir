module @m attributes {mhlo.num_partitions = 8 : i32} {
  sdy.mesh @mesh = <["a"=2, "b"=4]>
  sdy.mesh @unused = <["c"=2]>
  func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>, mhlo.foo = 1 : i32}, %arg1: tensor<8x16xf32>) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}, tensor<8x16xf32>) {
    %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>, sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=16}>} : tensor<8x16xf32>
    %1 = stablehlo.while(%iterArg = %0) : tensor<8x16xf32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"b"}]>]>}
    cond {
      %c = stablehlo.constant dense<false> : tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %2 = stablehlo.abs %iterArg {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"b"}]>]>} : tensor<8x16xf32>
      stablehlo.return %2 : tensor<8x16xf32>
    }
    return %1, %0 : tensor<8x16xf32>, tensor<8x16xf32>
  }
  func.func private @other(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
    return %arg0 : tensor<8xf32>
  }
  module @inner {
    sdy.mesh @n1 = <["a"=2]>
    func.func @g(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@n1, [{"a"}]>}) -> tensor<8xf32> {
      return %arg0 : tensor<8xf32>
    }
  }
}
