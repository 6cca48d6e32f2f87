// RUN: pysdy-opt %s -split-input-file -pysdy-inline-calls | filecheck %s

// Calls, and the calls in their callees, become copies of the callee's body; the private callees go.
sdy.mesh @mesh = <["a"=2]>

// CHECK-LABEL: func @nested_calls
// CHECK-NEXT:    %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32>
// CHECK-NEXT:    %1 = stablehlo.add %0, %arg0 : tensor<8xf32>
// CHECK-NEXT:    %2 = stablehlo.add %1, %1 : tensor<8xf32>
// CHECK-NEXT:    %3 = stablehlo.add %2, %1 : tensor<8xf32>
// CHECK-NEXT:    return %3 : tensor<8xf32>
// CHECK-NEXT:  }
// CHECK-NOT:   func.func
func.func @nested_calls(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  %0 = call @twice(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = call @twice(%0) : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}

func.func private @twice(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @double(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = stablehlo.add %0, %arg0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}

func.func private @double(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// A call in a loop body and one in a manual computation: the copies use the values the calls used.
sdy.mesh @mesh = <["a"=2]>

// CHECK-LABEL: func @calls_in_regions
// CHECK:         stablehlo.while(%iterArg = %arg0)
// CHECK:         } do {
// CHECK-NEXT:      %[[SINE:.*]] = stablehlo.sine %iterArg : tensor<8xf32>
// CHECK-NEXT:      stablehlo.return %[[SINE]] : tensor<8xf32>
// CHECK:         sdy.manual_computation(%{{.*}}) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%[[LOCAL:.*]]: tensor<4xf32>) {
// CHECK-NEXT:      %[[COSINE:.*]] = stablehlo.cosine %[[LOCAL]] : tensor<4xf32>
// CHECK-NEXT:      sdy.return %[[COSINE]] : tensor<4xf32>
// CHECK-NOT:   func.func
func.func @calls_in_regions(%arg0: tensor<8xf32>, %arg1: tensor<i1>) -> tensor<8xf32> {
  %0 = stablehlo.while(%iterArg = %arg0) : tensor<8xf32>
    cond {
    stablehlo.return %arg1 : tensor<i1>
  } do {
    %2 = func.call @sine(%iterArg) : (tensor<8xf32>) -> tensor<8xf32>
    stablehlo.return %2 : tensor<8xf32>
  }
  %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%arg2: tensor<4xf32>) {
    %2 = func.call @cosine(%arg2) : (tensor<4xf32>) -> tensor<4xf32>
    sdy.return %2 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}

func.func private @sine(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.sine %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}

func.func private @cosine(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.cosine %arg0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Kept: a call with attributes (a host computation, a result sharding) and a call to a callee with shardings in
// its signature; a public callee stays after its call is inlined.
sdy.mesh @mesh = <["a"=2]>

// CHECK-LABEL: func @kept_calls
// CHECK-NEXT:    %0 = call @host(%arg0) {mhlo.frontend_attributes = {_xla_compute_type = "host"}}
// CHECK-NEXT:    %1 = call @host(%0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>}
// CHECK-NEXT:    %2 = call @sharded(%1)
// CHECK-NEXT:    %3 = stablehlo.negate %2 : tensor<8xf32>
// CHECK-NEXT:    return %3 : tensor<8xf32>
// CHECK:       func.func private @host
// CHECK:       func.func private @sharded
// CHECK:       func.func @public
func.func @kept_calls(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @host(%arg0) {mhlo.frontend_attributes = {_xla_compute_type = "host"}} : (tensor<8xf32>) -> tensor<8xf32>
  %1 = call @host(%0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : (tensor<8xf32>) -> tensor<8xf32>
  %2 = call @sharded(%1) : (tensor<8xf32>) -> tensor<8xf32>
  %3 = call @public(%2) : (tensor<8xf32>) -> tensor<8xf32>
  return %3 : tensor<8xf32>
}

func.func private @host(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.exponential %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}

func.func private @sharded(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}

func.func @public(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// A function still named elsewhere (a custom call's computation) stays after its call is inlined; one named only by
// an erased function goes, wherever it stands in the module.

// CHECK-LABEL: func @named_elsewhere
// CHECK-NEXT:    %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32>
// CHECK-NEXT:    %1 = stablehlo.custom_call @foo(%0) {called_computations = [@kept]} : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:    %2 = stablehlo.sine %1 : tensor<8xf32>
// CHECK-NEXT:    return %2 : tensor<8xf32>
// CHECK-NEXT:  }
// CHECK-NEXT:  func.func private @kept(
// CHECK-NOT:   func.func
func.func @named_elsewhere(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @twice(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = stablehlo.custom_call @foo(%0) {called_computations = [@kept]} : (tensor<8xf32>) -> tensor<8xf32>
  %2 = call @kept(%1) : (tensor<8xf32>) -> tensor<8xf32>
  return %2 : tensor<8xf32>
}

func.func private @double(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}

func.func private @twice(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @double(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

func.func private @kept(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.sine %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}
