sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func private @foo(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}]>}) {
  %0 = stablehlo.abs %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func @main(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = call @foo(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = call @bar(%0) {mhlo.frontend_attributes = {inlineable = "false"}} : (tensor<8xf32>) -> tensor<8xf32>
  %2:2 = call @baz(%1) : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  %3 = call @foo(%2#0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : (tensor<8xf32>) -> tensor<8xf32>
  return %3, %2#1 : tensor<8xf32>, tensor<8xf32>
}
func.func private @bar(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @foo(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = call @qux(%0) : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}
func.func private @qux(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @baz(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<[], device_ids=[0]>, []>}) {
  return %arg0, %arg0 : tensor<8xf32>, tensor<8xf32>
}
func.func private @unused(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @qux(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
// -----
func.func private @p(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
func.func @q(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @p(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @r(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @q(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = call @p(%0) : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}
func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<i32>) -> tensor<8xf32> {
  %0 = call @q(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = call @r(%0) : (tensor<8xf32>) -> tensor<8xf32>
  %2 = call @r(%1) : (tensor<8xf32>) -> tensor<8xf32>
  %3 = "stablehlo.case"(%arg1) ({
    %4 = call @r(%2) : (tensor<8xf32>) -> tensor<8xf32>
    stablehlo.return %4 : tensor<8xf32>
  }) : (tensor<i32>) -> tensor<8xf32>
  return %3 : tensor<8xf32>
}
func.func private @ext(%arg0: tensor<8xf32>) -> tensor<8xf32>
// -----
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.named_computation<"pre">(%arg0) (%a: tensor<8xf32>) {
    %1 = func.call @p(%a) : (tensor<8xf32>) -> tensor<8xf32>
    sdy.return %1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @p(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
