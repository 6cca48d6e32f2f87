// RUN: pysdy-opt %s -split-input-file -sdy-inline-meshes 2>/dev/null | filecheck %s

// CHECK-LABEL: func.func @mesh_0(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<["a"=2, "b"=2]>, [{"a"}, {}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=2]>, [{"x"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<[], device_ids=[3]>, []>}) {
// CHECK-NEXT: %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<mesh<["a"=2, "b"=2]>, [{"b"}, {}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: %1 = sdy.sharding_constraint %0 <mesh<["y"=2]>, [{"y"}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: %2 = sdy.sharding_constraint %1 <mesh<[]>, [{}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: %3 = sdy.manual_computation(%2) in_shardings=[<mesh<["y"=2, "z"=2, "w"=2]>, [{"y", "z"}, {}], replicated={"w"}>] out_shardings=[<mesh<["y"=2, "z"=2, "w"=2]>, [{"y"}, {}]>] manual_axes={"y"} (%arg2: tensor<4x8xf32>) {
// CHECK-NEXT: sdy.return %arg2 : tensor<4x8xf32>
// CHECK-NEXT: } : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: return %3 : tensor<8x8xf32>
// CHECK-NEXT: }
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

// CHECK-LABEL: func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=2]>, [{"x"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=2], device_ids=[1, 0]>, [{}, {}]>}) {
// CHECK-NEXT: %0:2 = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<mesh<["x"=2]>, [{"x"}, {}]>, <mesh<["x"=2]>, [{}, {}]>]>} %arg0, %arg0 : tensor<8x8xf32>, tensor<8x8xf32>
// CHECK-NEXT: return %0#0 : tensor<8x8xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @mesh(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
// CHECK-NEXT: return %arg0 : tensor<8x8xf32>
// CHECK-NEXT: }
func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=2]>, [{"x"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=2], device_ids=[1,0]>, [{}, {}]>}) {
  %0:2 = "stablehlo.optimization_barrier"(%arg0, %arg0) {sdy.sharding = #sdy.sharding_per_value<[<mesh<["x"=2]>, [{"x"}, {}]>, <mesh<["x"=2]>, [{}, {}]>]>} : (tensor<8x8xf32>, tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
  return %0#0 : tensor<8x8xf32>
}
func.func @mesh(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}

// -----

// CHECK-LABEL: func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=2], device_ids=[1, 0]>, [{"x"}, {}]>}) -> tensor<8x8xf32> {
// CHECK-NEXT: return %arg0 : tensor<8x8xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["a"=2, "b"=2]> {foo = 1 : i32, stablehlo.mesh = {axes = [{name = "q", size = 4 : i64}]}}
sdy.mesh @mesh2 = <["a"=2, "b"=2], device_ids=[3,2,1,0]> 
sdy.mesh @mesh3 = <[], device_ids=[5]> 
func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=2], device_ids=[1,0]>, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}

// -----

// CHECK-LABEL: func.func @main(%arg0: tensor<8x2xf32>, %arg1: tensor<i32>, %arg2: !stablehlo.token) -> tensor<8x2xf32> {
// CHECK-NEXT: %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<8x2xf32>, tensor<i32> attributes {sdy.sharding = #sdy.sharding_per_value<[<mesh<["a"=2, "b"=2]>, [{"a"}, {}]>, <mesh<["a"=2, "b"=2]>, []>]>}
// CHECK-NEXT: cond {
// CHECK-NEXT: %c = stablehlo.constant dense<3> : tensor<i32>
// CHECK-NEXT: %7 = stablehlo.compare LT, %iterArg_0, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT: stablehlo.return %7 : tensor<i1>
// CHECK-NEXT: } do {
// CHECK-NEXT: %7 = stablehlo.add %iterArg, %iterArg : tensor<8x2xf32>
// CHECK-NEXT: stablehlo.return %7, %iterArg_0 : tensor<8x2xf32>, tensor<i32>
// CHECK-NEXT: }
// CHECK-NEXT: %1 = "stablehlo.case"(%arg1) ({
// CHECK-NEXT: stablehlo.return %0#0 : tensor<8x2xf32>
// CHECK-NEXT: }, {
// CHECK-NEXT: stablehlo.return %arg0 : tensor<8x2xf32>
// CHECK-NEXT: }) : (tensor<i32>) -> tensor<8x2xf32>
// CHECK-NEXT: %2:2 = stablehlo.optimization_barrier %1, %arg2 : tensor<8x2xf32>, !stablehlo.token
// CHECK-NEXT: %3 = stablehlo.compare EQ, %arg1, %arg1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT: %4 = "stablehlo.if"(%3) ({
// CHECK-NEXT: stablehlo.return %2#0 : tensor<8x2xf32>
// CHECK-NEXT: }, {
// CHECK-NEXT: stablehlo.return %arg0 : tensor<8x2xf32>
// CHECK-NEXT: }) : (tensor<i1>) -> tensor<8x2xf32>
// CHECK-NEXT: %5 = sdy.named_computation<"foo">(%4) (%arg3: tensor<8x2xf32>) {
// CHECK-NEXT: sdy.return %arg3 : tensor<8x2xf32>
// CHECK-NEXT: } : (tensor<8x2xf32>) -> tensor<8x2xf32>
// CHECK-NEXT: %6 = sdy.manual_computation(%5) in_shardings=[<mesh<["a"=2, "b"=2]>, [{"a"}, {}]>] out_shardings=[<mesh<["a"=2, "b"=2]>, [{"a"}, {}]>] manual_axes={"a"} (%arg3: tensor<4x2xf32>) {
// CHECK-NEXT: sdy.return %arg3 : tensor<4x2xf32>
// CHECK-NEXT: } : (tensor<8x2xf32>) -> tensor<8x2xf32>
// CHECK-NEXT: return %6 : tensor<8x2xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x2xf32>, %arg1: tensor<i32>, %t: !stablehlo.token) -> (tensor<8x2xf32>) {
  %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<8x2xf32>, tensor<i32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>, <@mesh, []>]>}
    cond {
    %c = stablehlo.constant dense<3> : tensor<i32>
    %1 = stablehlo.compare  LT, %iterArg_0, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %1 = stablehlo.add %iterArg, %iterArg : tensor<8x2xf32>
    stablehlo.return %1, %iterArg_0 : tensor<8x2xf32>, tensor<i32>
  }
  %2 = "stablehlo.case"(%arg1) ({
    stablehlo.return %0#0 : tensor<8x2xf32>
  }, {
    stablehlo.return %arg0 : tensor<8x2xf32>
  }) : (tensor<i32>) -> tensor<8x2xf32>
  %3:2 = stablehlo.optimization_barrier %2, %t : tensor<8x2xf32>, !stablehlo.token
  %p = stablehlo.compare EQ, %arg1, %arg1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %4 = "stablehlo.if"(%p) ({
    stablehlo.return %3#0 : tensor<8x2xf32>
  }, {
    stablehlo.return %arg0 : tensor<8x2xf32>
  }) : (tensor<i1>) -> tensor<8x2xf32>
  %5 = sdy.named_computation<"foo">(%4) (%a: tensor<8x2xf32>) {
    sdy.return %a : tensor<8x2xf32>
  } : (tensor<8x2xf32>) -> tensor<8x2xf32>
  %6 = sdy.manual_computation(%5) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%b: tensor<4x2xf32>) {
    sdy.return %b : tensor<4x2xf32>
  } : (tensor<8x2xf32>) -> tensor<8x2xf32>
  return %6 : tensor<8x2xf32>
}

// -----

// CHECK-LABEL: func.func @nested(%arg0: tensor<16x8xf32>, %arg1: tensor<i32>, %arg2: !stablehlo.token) -> (tensor<16x8xf32>, !stablehlo.token) {
// CHECK-NEXT: %0:2 = sdy.named_computation<"outer">(%arg0, %arg1, %arg2) in_shardings=[<mesh<["a"=2, "b"=4, "c"=2]>, [{"a"}, {}]>, <mesh<["a"=2, "b"=4, "c"=2]>, []>, <mesh<["a"=2, "b"=4, "c"=2]>, []>] out_shardings=[<mesh<["a"=2, "b"=4, "c"=2]>, [{"b", ?}, {}]>, <mesh<["a"=2, "b"=4, "c"=2]>, []>] (%arg3: tensor<16x8xf32>, %arg4: tensor<i32>, %arg5: !stablehlo.token) {
// CHECK-NEXT: %2:3 = stablehlo.while(%iterArg = %arg3, %iterArg_0 = %arg4, %iterArg_1 = %arg5) : tensor<16x8xf32>, tensor<i32>, !stablehlo.token
// CHECK-NEXT: cond {
// CHECK-NEXT: %c = stablehlo.constant dense<3> : tensor<i32>
// CHECK-NEXT: %3 = stablehlo.compare LT, %iterArg_0, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT: stablehlo.return %3 : tensor<i1>
// CHECK-NEXT: } do {
// CHECK-NEXT: %3 = sdy.manual_computation(%iterArg) in_shardings=[<mesh<["a"=2, "b"=4, "c"=2]>, [{"a", "b":(1)2}, {"c"}], replicated={"b":(2)2}>] out_shardings=[<mesh<["a"=2, "b"=4, "c"=2]>, [{"a", "b":(1)2, ?}, {}], unreduced={"c"}>] manual_axes={"a", "b"} (%arg6: tensor<4x8xf32>) {
// CHECK-NEXT: %4 = stablehlo.add %arg6, %arg6 : tensor<4x8xf32>
// CHECK-NEXT: sdy.return %4 : tensor<4x8xf32>
// CHECK-NEXT: } : (tensor<16x8xf32>) -> tensor<16x8xf32>
// CHECK-NEXT: stablehlo.return %3, %iterArg_0, %iterArg_1 : tensor<16x8xf32>, tensor<i32>, !stablehlo.token
// CHECK-NEXT: }
// CHECK-NEXT: sdy.return %2#0, %2#2 : tensor<16x8xf32>, !stablehlo.token
// CHECK-NEXT: } : (tensor<16x8xf32>, tensor<i32>, !stablehlo.token) -> (tensor<16x8xf32>, !stablehlo.token)
// CHECK-NEXT: %1:2 = "stablehlo.case"(%arg1) ({
// CHECK-NEXT: stablehlo.return %0#0, %arg1 : tensor<16x8xf32>, tensor<i32>
// CHECK-NEXT: }, {
// CHECK-NEXT: stablehlo.return %arg0, %arg1 : tensor<16x8xf32>, tensor<i32>
// CHECK-NEXT: }) {sdy.sharding = #sdy.sharding_per_value<[<mesh<["a"=2, "b"=4, "c"=2]>, [{}, {"c"}p0]>, <mesh<["a"=2, "b"=4, "c"=2]>, []>]>} : (tensor<i32>) -> (tensor<16x8xf32>, tensor<i32>)
// CHECK-NEXT: return %1#0, %0#1 : tensor<16x8xf32>, !stablehlo.token
// CHECK-NEXT: }
sdy.mesh @mesh = <["a"=2, "b"=4, "c"=2]>
func.func @nested(%arg0: tensor<16x8xf32>, %arg1: tensor<i32>, %t: !stablehlo.token) -> (tensor<16x8xf32>, !stablehlo.token) {
  %0:2 = sdy.named_computation<"outer">(%arg0, %arg1, %t) in_shardings=[<@mesh, [{"a"}, {}]>, <@mesh, []>, <@mesh, []>] out_shardings=[<@mesh, [{"b", ?}, {}]>, <@mesh, []>] (%x: tensor<16x8xf32>, %i: tensor<i32>, %tok: !stablehlo.token) {
    %1:3 = stablehlo.while(%iterArg = %x, %iterArg_0 = %i, %iterTok = %tok) : tensor<16x8xf32>, tensor<i32>, !stablehlo.token
      cond {
      %c = stablehlo.constant dense<3> : tensor<i32>
      %2 = stablehlo.compare  LT, %iterArg_0, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %2 : tensor<i1>
    } do {
      %2 = sdy.manual_computation(%iterArg) in_shardings=[<@mesh, [{"a", "b":(1)2}, {"c"}], replicated={"b":(2)2}>] out_shardings=[<@mesh, [{"a", "b":(1)2, ?}, {}], unreduced={"c"}>] manual_axes={"a", "b"} (%m: tensor<4x8xf32>) {
        %3 = stablehlo.add %m, %m : tensor<4x8xf32>
        sdy.return %3 : tensor<4x8xf32>
      } : (tensor<16x8xf32>) -> tensor<16x8xf32>
      stablehlo.return %2, %iterArg_0, %iterTok : tensor<16x8xf32>, tensor<i32>, !stablehlo.token
    }
    sdy.return %1#0, %1#2 : tensor<16x8xf32>, !stablehlo.token
  } : (tensor<16x8xf32>, tensor<i32>, !stablehlo.token) -> (tensor<16x8xf32>, !stablehlo.token)
  %4:2 = "stablehlo.case"(%arg1) ({
    stablehlo.return %0#0, %arg1 : tensor<16x8xf32>, tensor<i32>
  }, {
    stablehlo.return %arg0, %arg1 : tensor<16x8xf32>, tensor<i32>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"c"}p0]>, <@mesh, []>]>} : (tensor<i32>) -> (tensor<16x8xf32>, tensor<i32>)
  return %4#0, %0#1 : tensor<16x8xf32>, !stablehlo.token
}

// -----

// CHECK-LABEL: func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<["a"=1, "b"=2, "c"=1, "d"=4]>, [{"a", "b"}, {"c"}p1]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<["a"=1, "b"=2, "c"=1, "d"=4]>, [{"c", ?}p2, {"d":(1)2}], unreduced={"a"}>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<["a"=1, "b"=2, "c"=1, "d"=4]>, [{"a"}, {}]>}) {
// CHECK-NEXT: %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<mesh<["a"=1, "b"=2, "c"=1, "d"=4]>, [{"b", "a"}, {}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: %1 = sdy.sharding_constraint %0 <mesh<["a"=1, "b"=2, "c"=1, "d"=4]>, [{"a"}, {"c"}]> : tensor<8x8xf32>
// CHECK-NEXT: %2 = sdy.manual_computation(%1) in_shardings=[<mesh<["a"=1, "b"=2, "c"=1, "d"=4]>, [{"a", "b"}, {"d"}], replicated={"c"}>] out_shardings=[<mesh<["a"=1, "b"=2, "c"=1, "d"=4]>, [{"a", "b"}, {}]>] manual_axes={"a", "b"} (%arg2: tensor<4x8xf32>) {
// CHECK-NEXT: sdy.return %arg2 : tensor<4x8xf32>
// CHECK-NEXT: } : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: return %2 : tensor<8x8xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["a"=1, "b"=2, "c"=1, "d"=4]>
func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}, {"c"}p1]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c", ?}p2, {"d":(1)2}], unreduced={"a"}>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) {
  %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b", "a"}, {}]>]>} : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"a"}, {"c"}]> : tensor<8x8xf32>
  %3 = sdy.manual_computation(%1) in_shardings=[<@mesh, [{"a", "b"}, {"d"}], replicated={"c"}>] out_shardings=[<@mesh, [{"a", "b"}, {}]>] manual_axes={"a", "b"} (%b: tensor<4x8xf32>) {
    sdy.return %b : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}
