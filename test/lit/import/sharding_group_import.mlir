// RUN: pysdy-opt %s -split-input-file -sdy-sharding-group-import 2>/dev/null | filecheck %s

// CHECK-LABEL: func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>, %arg2: tensor<8xf32>, %arg3: tensor<8xf32>) {
// CHECK-NEXT: sdy.sharding_group %arg0 group_id=0 : tensor<8xf32>
// CHECK-NEXT: sdy.sharding_group %arg1 group_id=0 : tensor<8xf32>
// CHECK-NEXT: sdy.sharding_group %arg2 group_id=1 : tensor<8xf32>
// CHECK-NEXT: sdy.sharding_group %arg3 group_id=1 : tensor<8xf32>
// CHECK-NEXT: return
// CHECK-NEXT: }
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

// CHECK-LABEL: func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>, %arg2: tensor<8xf32>) {
// CHECK-NEXT: sdy.sharding_group %arg0 group_id=0 : tensor<8xf32>
// CHECK-NEXT: sdy.sharding_group %arg1 group_id=1 : tensor<8xf32>
// CHECK-NEXT: sdy.sharding_group %arg2 group_id=0 : tensor<8xf32>
// CHECK-NEXT: return
// CHECK-NEXT: }
func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>, %arg2: tensor<8xf32>) {
  sdy.sharding_group %arg0 group_id=5 : tensor<8xf32>
  sdy.sharding_group %arg1 group_id=3 : tensor<8xf32>
  sdy.sharding_group %arg1 group_id=1 : tensor<8xf32>
  sdy.sharding_group %arg2 group_id=8 : tensor<8xf32>
  sdy.sharding_group %arg2 group_id=2 : tensor<8xf32>
  sdy.sharding_group %arg0 group_id=8 : tensor<8xf32>
  func.return
}
