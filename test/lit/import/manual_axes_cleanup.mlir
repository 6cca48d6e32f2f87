// RUN: pysdy-opt %s -split-input-file -sdy-manual-axes-cleanup 2>/dev/null | filecheck %s

// CHECK: sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
// CHECK-LABEL: func.func @f(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>) -> tensor<8x8xf32> {
// CHECK-NEXT: %0:2 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"c"}, {}], replicated={"a"}>, <@mesh, [{"c", "b"}, {"a"}]>] out_shardings=[<@mesh, [{"c"}, {}], replicated={"a"}>, <@mesh, [{"c"}, {}], replicated={"a"}>] manual_axes={"a", "c"} (%arg2: tensor<4x8xf32>, %arg3: tensor<4x4xf32>) {
// CHECK-NEXT: %1 = sdy.manual_computation(%arg2) in_shardings=[<@mesh, [{}, {}], replicated={"b"}>] out_shardings=[<@mesh, [{}, {}], replicated={"b"}>] manual_axes={"b"} (%arg4: tensor<4x8xf32>) {
// CHECK-NEXT: sdy.return %arg4 : tensor<4x8xf32>
// CHECK-NEXT: } : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: sdy.return %1, %arg2 : tensor<4x8xf32>, tensor<4x8xf32>
// CHECK-NEXT: } : (tensor<8x8xf32>, tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
// CHECK-NEXT: return %0#0 : tensor<8x8xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
func.func @f(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %3:2 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"c"}, {}]>, <@mesh, [{"c", "b"}, {"a"}]>] out_shardings=[<@mesh, [{"c"}, {}]>, <@mesh, [{"c"}, {}], replicated={"a"}>] manual_axes={"c", "a"} (%b: tensor<4x8xf32>, %c: tensor<4x4xf32>) {
    %4 = sdy.manual_computation(%b) in_shardings=[<@mesh, [{}, {}]>] out_shardings=[<@mesh, [{}, {}], replicated={"b"}>] manual_axes={"b"} (%d: tensor<4x8xf32>) {
      sdy.return %d : tensor<4x8xf32>
    } : (tensor<4x8xf32>) -> tensor<4x8xf32>
    sdy.return %4, %b : tensor<4x8xf32>, tensor<4x8xf32>
  } : (tensor<8x8xf32>, tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
  return %3#0 : tensor<8x8xf32>
}

// -----

// CHECK-LABEL: func.func @no_io_no_axes() {
// CHECK-NEXT: sdy.manual_computation() in_shardings=[] out_shardings=[] manual_axes={} () {
// CHECK-NEXT: %0 = sdy.constant dense<1.000000e+00> : tensor<8xf32>
// CHECK-NEXT: sdy.return
// CHECK-NEXT: } : () -> ()
// CHECK-NEXT: return
// CHECK-NEXT: }
func.func @no_io_no_axes() {
  sdy.manual_computation() in_shardings=[] out_shardings=[] manual_axes={} () {
    %0 = sdy.constant dense<1.000000e+00> : tensor<8xf32>
    sdy.return
  } : () -> ()
  func.return
}

// -----

// CHECK: sdy.mesh @mesh = <["a"=8, "b"=4]>
// CHECK-LABEL: func.func @partly_used_manual_axes(%arg0: tensor<16x8xf32>) -> tensor<16x8xf32> {
// CHECK-NEXT: %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a":(2)2}, {}], replicated={"a":(1)2, "a":(4)2, "b"}>] out_shardings=[<@mesh, [{"a":(4)2}, {}], replicated={"a":(1)4, "b"}>] manual_axes={"a", "b"} (%arg1: tensor<8x8xf32>) {
// CHECK-NEXT: sdy.return %arg1 : tensor<8x8xf32>
// CHECK-NEXT: } : (tensor<16x8xf32>) -> tensor<16x8xf32>
// CHECK-NEXT: return %0 : tensor<16x8xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["a"=8, "b"=4]>
func.func @partly_used_manual_axes(%arg0: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a":(2)2}, {}], replicated={"b":(1)2}>] out_shardings=[<@mesh, [{"a":(4)2}, {}], replicated={"a":(1)2}>] manual_axes={"b", "a"} (%x: tensor<8x8xf32>) {
    sdy.return %x : tensor<8x8xf32>
  } : (tensor<16x8xf32>) -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

// CHECK: sdy.mesh @mesh = <["a"=2, "b"=2]>
// CHECK-LABEL: func.func @main(%arg0: tensor<8x2xf32>, %arg1: tensor<i32>, %arg2: !stablehlo.token) -> tensor<8x2xf32> {
// CHECK-NEXT: %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<8x2xf32>, tensor<i32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>, <@mesh, []>]>}
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
// CHECK-NEXT: %6 = sdy.manual_computation(%5) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%arg3: tensor<4x2xf32>) {
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

// CHECK: sdy.mesh @mesh = <["a"=2, "b"=4, "c"=2]>
// CHECK-LABEL: func.func @nested(%arg0: tensor<16x8xf32>, %arg1: tensor<i32>, %arg2: !stablehlo.token) -> (tensor<16x8xf32>, !stablehlo.token) {
// CHECK-NEXT: %0:2 = sdy.named_computation<"outer">(%arg0, %arg1, %arg2) in_shardings=[<@mesh, [{"a"}, {}]>, <@mesh, []>, <@mesh, []>] out_shardings=[<@mesh, [{"b", ?}, {}]>, <@mesh, []>] (%arg3: tensor<16x8xf32>, %arg4: tensor<i32>, %arg5: !stablehlo.token) {
// CHECK-NEXT: %2:3 = stablehlo.while(%iterArg = %arg3, %iterArg_0 = %arg4, %iterArg_1 = %arg5) : tensor<16x8xf32>, tensor<i32>, !stablehlo.token
// CHECK-NEXT: cond {
// CHECK-NEXT: %c = stablehlo.constant dense<3> : tensor<i32>
// CHECK-NEXT: %3 = stablehlo.compare LT, %iterArg_0, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT: stablehlo.return %3 : tensor<i1>
// CHECK-NEXT: } do {
// CHECK-NEXT: %3 = sdy.manual_computation(%iterArg) in_shardings=[<@mesh, [{"a", "b":(1)2}, {"c"}], replicated={"b":(2)2}>] out_shardings=[<@mesh, [{"a", "b":(1)2, ?}, {}], replicated={"b":(2)2}, unreduced={"c"}>] manual_axes={"a", "b"} (%arg6: tensor<4x8xf32>) {
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
// CHECK-NEXT: }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"c"}p0]>, <@mesh, []>]>} : (tensor<i32>) -> (tensor<16x8xf32>, tensor<i32>)
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

// A sharding that gains manual axes is written on the computation's common mesh as the first sharding on a
// non-empty mesh names it: here @mesh, so the one on @mesh_copy (the same mesh) moves to @mesh; the sharding
// that already uses every manual axis keeps its own spelling.
// CHECK: sdy.mesh @mesh = <["a"=2, "b"=2]>
// CHECK: sdy.mesh @mesh_copy = <["a"=2, "b"=2]>
// CHECK-LABEL: func.func @rewritten_on_common_mesh_symbol(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
// CHECK-NEXT: %0:2 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"a"}, {}], replicated={"b"}>, <@mesh, [{"a"}, {}], replicated={"b"}>] out_shardings=[<@mesh_copy, [{"a", "b"}, {}]>, <@mesh, [{"a"}, {}], replicated={"b"}>] manual_axes={"a", "b"} (%arg2: tensor<4x8xf32>, %arg3: tensor<4x8xf32>) {
// CHECK-NEXT: %1 = stablehlo.slice %arg2 [0:2, 0:8] : (tensor<4x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: sdy.return %1, %arg3 : tensor<2x8xf32>, tensor<4x8xf32>
// CHECK-NEXT: } : (tensor<8x8xf32>, tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
// CHECK-NEXT: return %0#0, %0#1 : tensor<8x8xf32>, tensor<8x8xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["a"=2, "b"=2]>
sdy.mesh @mesh_copy = <["a"=2, "b"=2]>
func.func @rewritten_on_common_mesh_symbol(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0:2 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"a"}, {}]>, <@mesh_copy, [{"a"}, {}]>] out_shardings=[<@mesh_copy, [{"a", "b"}, {}]>, <mesh<["a"=2, "b"=2]>, [{"a"}, {}]>] manual_axes={"b", "a"} (%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) {
    %1 = stablehlo.slice %x [0:2, 0:8] : (tensor<4x8xf32>) -> tensor<2x8xf32>
    sdy.return %1, %y : tensor<2x8xf32>, tensor<4x8xf32>
  } : (tensor<8x8xf32>, tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
  return %0#0, %0#1 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

// The first sharding on a non-empty mesh inlines it: shardings that gain manual axes inline it too, the empty
// mesh's included.
// CHECK: sdy.mesh @mesh = <["a"=2, "b"=2]>
// CHECK: sdy.mesh @empty = <[]>
// CHECK-LABEL: func.func @rewritten_on_inlined_common_mesh(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>) -> tensor<8x8xf32> {
// CHECK-NEXT: %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<mesh<["a"=2, "b"=2]>, [{}, {}], replicated={"a", "b"}>, <mesh<["a"=2, "b"=2]>, [{"a"}, {}], replicated={"b"}>] out_shardings=[<mesh<["a"=2, "b"=2]>, [{"b"}, {}], replicated={"a"}>] manual_axes={"a", "b"} (%arg2: tensor<8x8xf32>, %arg3: tensor<4x8xf32>) {
// CHECK-NEXT: sdy.return %arg3 : tensor<4x8xf32>
// CHECK-NEXT: } : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: return %0 : tensor<8x8xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["a"=2, "b"=2]>
sdy.mesh @empty = <[]>
func.func @rewritten_on_inlined_common_mesh(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@empty, [{}, {}]>, <mesh<["a"=2, "b"=2]>, [{"a"}, {}]>] out_shardings=[<@mesh, [{"b"}, {}]>] manual_axes={"a", "b"} (%x: tensor<8x8xf32>, %y: tensor<4x8xf32>) {
    sdy.return %y : tensor<4x8xf32>
  } : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
