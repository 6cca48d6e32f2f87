func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>, %arg2: tensor<8xf32>, %arg3: tensor<8xf32>) {
  sdy.sharding_group %arg0 group_id=9 : tensor<8xf32>
  sdy.sharding_group %arg1 group_id=5 : tensor<8xf32>
  sdy.sharding_group %arg1 group_id=3 : tensor<8xf32>
  sdy.sharding_group %arg2 group_id=7 : tensor<8xf32>
  sdy.sharding_group %arg2 group_id=1 : tensor<8xf32>
  sdy.sharding_group %arg3 group_id=4 : tensor<8xf32>
  sdy.sharding_group %arg3 group_id=7 : tensor<8xf32>
  sdy.sharding_group %arg3 group_id=4 : tensor<8xf32>
  sdy.sharding_group %arg0 group_id=6 : tensor<8xf32>
  sdy.sharding_group %arg1 group_id=9 : tensor<8xf32>
  sdy.sharding_group %arg1 group_id=9 : tensor<8xf32>
  sdy.sharding_group %arg0 group_id=0 : tensor<8xf32>
  sdy.sharding_group %arg3 group_id=2 : tensor<8xf32>
  func.return
}
// -----
func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<4xf32>) {
  sdy.sharding_group %arg0 group_id=1 : tensor<8xf32>
  sdy.sharding_group %arg1 group_id=1 : tensor<4xf32>
  func.return
}
// -----
sdy.mesh @mesh = <["a"=2]>
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  sdy.sharding_group %arg0 group_id=1 : tensor<8xf32>
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%b: tensor<4xf32>) {
    sdy.sharding_group %b group_id=1 : tensor<4xf32>
    sdy.return %b : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
// -----
func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>, %arg2: tensor<8xf32>) {
  sdy.sharding_group %arg0 group_id=5 : tensor<8xf32>
  sdy.sharding_group %arg1 group_id=3 : tensor<8xf32>
  sdy.sharding_group %arg1 group_id=1 : tensor<8xf32>
  sdy.sharding_group %arg2 group_id=8 : tensor<8xf32>
  sdy.sharding_group %arg2 group_id=2 : tensor<8xf32>
  sdy.sharding_group %arg0 group_id=8 : tensor<8xf32>
  func.return
}
