// RUN: pysdy-opt %s -sdy-populate-op-sharding-rules 2>&1 | filecheck %s
// RUN: pysdy-opt %s -sdy-populate-op-sharding-rules="conservative-propagation=true" 2>&1 \
// RUN:   | filecheck %s --check-prefix=CONSERVATIVE

// Control-flow ops get no rule: their operands, block arguments and results
// are tied together by data-flow edges instead.
// CHECK-LABEL: func @while(
// CHECK-NOT: sdy.sharding_rule
// CONSERVATIVE-LABEL: func @while(
// CONSERVATIVE-NOT: sdy.sharding_rule
func.func @while(%arg0: tensor<8x4xf32>, %arg1: tensor<i1>) -> tensor<8x4xf32> {
  %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<8x4xf32>, tensor<i1>
    cond {
      stablehlo.return %iterArg_0 : tensor<i1>
    } do {
      stablehlo.return %iterArg, %iterArg_0 : tensor<8x4xf32>, tensor<i1>
    }
  return %0#0 : tensor<8x4xf32>
}

// CHECK-LABEL: func @if(
// CHECK-NOT: sdy.sharding_rule
// CONSERVATIVE-LABEL: func @if(
// CONSERVATIVE-NOT: sdy.sharding_rule
func.func @if(%arg0: tensor<i1>, %arg1: tensor<8x4xf32>, %arg2: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = "stablehlo.if"(%arg0) ({
    stablehlo.return %arg1 : tensor<8x4xf32>
  }, {
    stablehlo.return %arg2 : tensor<8x4xf32>
  }) : (tensor<i1>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// CHECK-LABEL: func @case(
// CHECK-NOT: sdy.sharding_rule
// CONSERVATIVE-LABEL: func @case(
// CONSERVATIVE-NOT: sdy.sharding_rule
func.func @case(%arg0: tensor<i32>, %arg1: tensor<8x4xf32>, %arg2: tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>) {
  %0:2 = "stablehlo.case"(%arg0) ({
    stablehlo.return %arg1, %arg2 : tensor<8x4xf32>, tensor<8x4xf32>
  }, {
    stablehlo.return %arg2, %arg1 : tensor<8x4xf32>, tensor<8x4xf32>
  }, {
    stablehlo.return %arg1, %arg1 : tensor<8x4xf32>, tensor<8x4xf32>
  }) : (tensor<i32>) -> (tensor<8x4xf32>, tensor<8x4xf32>)
  return %0#0, %0#1 : tensor<8x4xf32>, tensor<8x4xf32>
}

// CHECK-LABEL: func @optimization_barrier(
// CHECK-NOT: sdy.sharding_rule
// CONSERVATIVE-LABEL: func @optimization_barrier(
// CONSERVATIVE-NOT: sdy.sharding_rule
func.func @optimization_barrier(%arg0: tensor<8x4xf32>, %arg1: tensor<i32>, %arg2: !stablehlo.token) -> tensor<8x4xf32> {
  %0:3 = stablehlo.optimization_barrier %arg0, %arg1, %arg2 : tensor<8x4xf32>, tensor<i32>, !stablehlo.token
  return %0#0 : tensor<8x4xf32>
}

// Tokens, tuples, host transfers and constants get no rule either.
// CHECK-LABEL: func @ops_without_rule(
// CHECK-NOT: sdy.sharding_rule
// CONSERVATIVE-LABEL: func @ops_without_rule(
// CONSERVATIVE-NOT: sdy.sharding_rule
func.func @ops_without_rule(%arg0: tensor<8x4xf32>, %arg1: tensor<i32>, %arg2: !stablehlo.token) -> tensor<8x4xf32> {
  %0 = stablehlo.create_token : !stablehlo.token
  %1 = stablehlo.after_all %arg2, %0 : !stablehlo.token
  %2:2 = "stablehlo.infeed"(%1) {infeed_config = ""} : (!stablehlo.token) -> (tensor<8x4xf32>, !stablehlo.token)
  %3 = "stablehlo.outfeed"(%arg0, %2#1) {outfeed_config = ""} : (tensor<8x4xf32>, !stablehlo.token) -> !stablehlo.token
  %4 = "stablehlo.send"(%arg0, %3) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 2>, is_host_transfer = true} : (tensor<8x4xf32>, !stablehlo.token) -> !stablehlo.token
  %5:2 = "stablehlo.recv"(%4) {channel_handle = #stablehlo.channel_handle<handle = 2, type = 3>, is_host_transfer = true} : (!stablehlo.token) -> (tensor<8x4xf32>, !stablehlo.token)
  %6 = stablehlo.tuple %5#0, %arg1 : tuple<tensor<8x4xf32>, tensor<i32>>
  %7 = stablehlo.get_tuple_element %6[0] : (tuple<tensor<8x4xf32>, tensor<i32>>) -> tensor<8x4xf32>
  %8 = stablehlo.constant dense<1.0> : tensor<8x4xf32>
  %9 = stablehlo.partition_id : tensor<ui32>
  return %7 : tensor<8x4xf32>
}
