// RUN: pysdy-opt %s -split-input-file -xla-sdy-open-while-free-vars-sharding | filecheck %s

// A sharded function argument used inside the loop: the loop's uses read a fully open constraint of it
// (replicated axes dropped too); the use after the loop keeps the argument.
sdy.mesh @mesh = <["a"=2, "b"=2]>

// CHECK-LABEL: func @sharded_argument
func.func @sharded_argument(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}], replicated={"b"}>}, %arg1: tensor<8xf32>) -> tensor<8xf32> {
  // CHECK-NEXT: %0 = sdy.sharding_constraint %arg0 <@mesh, [{?}]> : tensor<8xf32>
  // CHECK-NEXT: %1 = stablehlo.while(%iterArg = %arg1) : tensor<8xf32>
  // CHECK-NEXT: cond {
  // CHECK-NEXT: %c = stablehlo.constant dense<true> : tensor<i1>
  // CHECK-NEXT: stablehlo.return %c : tensor<i1>
  // CHECK-NEXT: } do {
  // CHECK-NEXT: %3 = stablehlo.add %iterArg, %0 : tensor<8xf32>
  // CHECK-NEXT: stablehlo.return %3 : tensor<8xf32>
  // CHECK-NEXT: }
  // CHECK-NEXT: %2 = stablehlo.add %1, %arg0 : tensor<8xf32>
  // CHECK-NEXT: return %2 : tensor<8xf32>
  %0 = stablehlo.while(%iterArg = %arg1) : tensor<8xf32>
  cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %2 = stablehlo.add %iterArg, %arg0 : tensor<8xf32>
    stablehlo.return %2 : tensor<8xf32>
  }
  %1 = stablehlo.add %0, %arg0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

// Free variables without a sharding, with a scalar sharding or with a fully open one stay as they are.
sdy.mesh @mesh = <["a"=2]>

// CHECK-LABEL: func @nothing_to_open
func.func @nothing_to_open(%arg0: tensor<8xf32>, %arg1: tensor<i32> {sdy.sharding = #sdy.sharding<@mesh, []>}, %arg2: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}]>}) -> tensor<i32> {
  // CHECK-NEXT: %0 = stablehlo.while(%iterArg = %arg1) : tensor<i32>
  // CHECK-NEXT: cond {
  // CHECK-NEXT: %1 = stablehlo.compare LT, %iterArg, %arg1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
  // CHECK-NEXT: stablehlo.return %1 : tensor<i1>
  // CHECK-NEXT: } do {
  // CHECK-NEXT: %1 = stablehlo.add %arg0, %arg2 : tensor<8xf32>
  // CHECK-NEXT: stablehlo.return %iterArg : tensor<i32>
  // CHECK-NEXT: }
  // CHECK-NEXT: return %0 : tensor<i32>
  %0 = stablehlo.while(%iterArg = %arg1) : tensor<i32>
  cond {
    %1 = stablehlo.compare LT, %iterArg, %arg1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %1 = stablehlo.add %arg0, %arg2 : tensor<8xf32>
    stablehlo.return %iterArg : tensor<i32>
  }
  return %0 : tensor<i32>
}

// -----

// Op results with shardings, used in the condition and in a region nested in the body: one constraint each,
// in the order of their first use (the condition first, nested ops before their parent), on the result's mesh.
sdy.mesh @mesh = <["a"=2, "b"=2]>

// CHECK-LABEL: func @op_results_in_order_of_use
func.func @op_results_in_order_of_use(%arg0: tensor<8x8xf32>, %arg1: tensor<i1>) -> tensor<8x8xf32> {
  // CHECK-NEXT: %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>} : tensor<8x8xf32>
  // CHECK-NEXT: %1 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"b"}]>]>} : tensor<8x8xf32>
  // CHECK-NEXT: %2 = sdy.sharding_constraint %1 <@mesh, [{?}, {?}]> : tensor<8x8xf32>
  // CHECK-NEXT: %3 = sdy.sharding_constraint %0 <@mesh, [{?}, {?}]> : tensor<8x8xf32>
  // CHECK-NEXT: %4 = stablehlo.while(%iterArg = %arg0) : tensor<8x8xf32>
  // CHECK-NEXT: cond {
  // CHECK-NEXT: %5 = stablehlo.compare LT, %2, %iterArg : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xi1>
  // CHECK-NEXT: %c = stablehlo.constant dense<true> : tensor<i1>
  // CHECK-NEXT: stablehlo.return %c : tensor<i1>
  // CHECK-NEXT: } do {
  // CHECK-NEXT: %5 = "stablehlo.if"(%arg1) ({
  // CHECK-NEXT: stablehlo.return %3 : tensor<8x8xf32>
  // CHECK-NEXT: }, {
  // CHECK-NEXT: stablehlo.return %2 : tensor<8x8xf32>
  // CHECK-NEXT: }) : (tensor<i1>) -> tensor<8x8xf32>
  // CHECK-NEXT: %6 = stablehlo.add %5, %iterArg : tensor<8x8xf32>
  // CHECK-NEXT: stablehlo.return %6 : tensor<8x8xf32>
  // CHECK-NEXT: }
  // CHECK-NEXT: return %4 : tensor<8x8xf32>
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>} : tensor<8x8xf32>
  %1 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"b"}]>]>} : tensor<8x8xf32>
  %2 = stablehlo.while(%iterArg = %arg0) : tensor<8x8xf32>
  cond {
    %3 = stablehlo.compare LT, %1, %iterArg : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xi1>
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %3 = "stablehlo.if"(%arg1) ({
      stablehlo.return %0 : tensor<8x8xf32>
    }, {
      stablehlo.return %1 : tensor<8x8xf32>
    }) : (tensor<i1>) -> tensor<8x8xf32>
    %4 = stablehlo.add %3, %iterArg : tensor<8x8xf32>
    stablehlo.return %4 : tensor<8x8xf32>
  }
  return %2 : tensor<8x8xf32>
}

// -----

// Nested loops: the inner loop is done first, so its constraint is itself a free variable of the outer loop
// and reads the outer loop's constraint.
sdy.mesh @mesh = <["a"=2]>

// CHECK-LABEL: func @nested_loops
func.func @nested_loops(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}, %arg1: tensor<8xf32>) -> tensor<8xf32> {
  // CHECK-NEXT: %0 = sdy.sharding_constraint %arg0 <@mesh, [{?}]> : tensor<8xf32>
  // CHECK-NEXT: %1 = stablehlo.while(%iterArg = %arg1) : tensor<8xf32>
  // CHECK-NEXT: cond {
  // CHECK-NEXT: %c = stablehlo.constant dense<true> : tensor<i1>
  // CHECK-NEXT: stablehlo.return %c : tensor<i1>
  // CHECK-NEXT: } do {
  // CHECK-NEXT: %2 = sdy.sharding_constraint %0 <@mesh, [{?}]> : tensor<8xf32>
  // CHECK-NEXT: %3 = stablehlo.while(%iterArg_0 = %iterArg) : tensor<8xf32>
  // CHECK-NEXT: cond {
  // CHECK-NEXT: %c = stablehlo.constant dense<true> : tensor<i1>
  // CHECK-NEXT: stablehlo.return %c : tensor<i1>
  // CHECK-NEXT: } do {
  // CHECK-NEXT: %4 = stablehlo.add %iterArg_0, %2 : tensor<8xf32>
  // CHECK-NEXT: stablehlo.return %4 : tensor<8xf32>
  // CHECK-NEXT: }
  // CHECK-NEXT: stablehlo.return %3 : tensor<8xf32>
  // CHECK-NEXT: }
  // CHECK-NEXT: return %1 : tensor<8xf32>
  %0 = stablehlo.while(%iterArg = %arg1) : tensor<8xf32>
  cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %1 = stablehlo.while(%iterArg_0 = %iterArg) : tensor<8xf32>
    cond {
      %c = stablehlo.constant dense<true> : tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %2 = stablehlo.add %iterArg_0, %arg0 : tensor<8xf32>
      stablehlo.return %2 : tensor<8xf32>
    }
    stablehlo.return %1 : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}
