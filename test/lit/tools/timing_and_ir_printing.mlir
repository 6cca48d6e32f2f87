// RUN: pysdy-opt %s -sdy-populate-op-sharding-rules -mlir-timing 2>&1 | filecheck %s --check-prefix=TIMING
// RUN: pysdy-opt %s -sdy-populate-op-sharding-rules -cse -mlir-print-ir-after-all 2>&1 | filecheck %s --check-prefix=IR

// Python passes are real MLIR passes: MLIR's timing and IR printing see them.

// TIMING: Execution time report
// TIMING: PopulateOpShardingRulesPass

// IR: IR Dump After PopulateOpShardingRulesPass
// IR: stablehlo.abs %arg0 {sdy.sharding_rule
// IR: IR Dump After CSE
func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}
