// RUN: pysdy-opt %s -split-input-file -xla-sdy-stablehlo-round-trip-export-callback-custom-calls | filecheck %s

// Expected output: XLA's own export of these inputs (test/py/gspmd/test_export_lit_inputs.py compares the whole
// export pipeline's HLO). Each case declares a mesh it does not use: jaxlib exports only modules with sdy in them.

// A callback whose one result is used returns it in a tuple, read by a get_tuple_element with the callback's sharding.
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <["x"=2, "y"=4]>
// CHECK-NEXT: func.func @used_result(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
// CHECK-NEXT: %0 = stablehlo.custom_call @xla_python_cpu_callback(%arg0) {api_version = 2 : i32, backend_config = "56238273106176", has_side_effect = true, mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}", operand_layouts = [dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<8x16xf32>) -> tuple<tensor<8x16xf32>>
// CHECK-NEXT: %1 = stablehlo.get_tuple_element %0[0] {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"} : (tuple<tensor<8x16xf32>>) -> tensor<8x16xf32>
// CHECK-NEXT: return %1 : tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @used_result(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.custom_call @xla_python_cpu_callback(%arg0) {api_version = 2 : i32, backend_config = "56238273106176", has_side_effect = true, mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}", operand_layouts = [dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// The same for an FFI callback on one device.
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <["x"=2, "y"=4]>
// CHECK-NEXT: func.func @used_result_ffi_maximal(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
// CHECK-NEXT: %0 = stablehlo.custom_call @xla_ffi_python_cpu_callback(%arg0) {api_version = 4 : i32, backend_config = {callback = 56238273106176 : ui64}, has_side_effect = true, mhlo.sharding = "{maximal device=0}", operand_layouts = [dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<8x16xf32>) -> tuple<tensor<8x16xf32>>
// CHECK-NEXT: %1 = stablehlo.get_tuple_element %0[0] {mhlo.sharding = "{maximal device=0}"} : (tuple<tensor<8x16xf32>>) -> tensor<8x16xf32>
// CHECK-NEXT: return %1 : tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @used_result_ffi_maximal(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.custom_call @xla_ffi_python_cpu_callback(%arg0) {api_version = 4 : i32, backend_config = {callback = 56238273106176 : ui64}, has_side_effect = true, mhlo.sharding = "{maximal device=0}", operand_layouts = [dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// A callback whose result is unused stays as it is.
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <["x"=2, "y"=4]>
// CHECK-NEXT: func.func @unused_result(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
// CHECK-NEXT: %0 = stablehlo.custom_call @xla_python_cpu_callback(%arg0) {api_version = 2 : i32, backend_config = "56238273106176", has_side_effect = true, mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}", operand_layouts = [dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: return %arg0 : tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @unused_result(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.custom_call @xla_python_cpu_callback(%arg0) {api_version = 2 : i32, backend_config = "56238273106176", has_side_effect = true, mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}", operand_layouts = [dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %arg0 : tensor<8x16xf32>
}

// -----

// So does an unused scalar result, which the import gives a callback without results.
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <["x"=2, "y"=4]>
// CHECK-NEXT: func.func @unused_scalar_result(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
// CHECK-NEXT: %0 = stablehlo.custom_call @xla_ffi_python_cpu_callback(%arg0) {api_version = 4 : i32, backend_config = {callback = 56238273106176 : ui64}, has_side_effect = true, mhlo.sharding = "{maximal device=0}", operand_layouts = [dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<> : tensor<0xindex>]} : (tensor<8x16xf32>) -> tensor<i64>
// CHECK-NEXT: return %arg0 : tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @unused_scalar_result(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.custom_call @xla_ffi_python_cpu_callback(%arg0) {api_version = 4 : i32, backend_config = {callback = 56238273106176 : ui64}, has_side_effect = true, mhlo.sharding = "{maximal device=0}", operand_layouts = [dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<> : tensor<0xindex>]} : (tensor<8x16xf32>) -> tensor<i64>
  return %arg0 : tensor<8x16xf32>
}

// -----

// A callback already returning a tuple stays as it is.
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <["x"=2, "y"=4]>
// CHECK-NEXT: func.func @tuple_result(%arg0: tensor<8x16xf32>) -> tuple<tensor<8x16xf32>> {
// CHECK-NEXT: %0 = stablehlo.custom_call @xla_python_cpu_callback(%arg0) {api_version = 2 : i32, backend_config = "56238273106176", has_side_effect = true, mhlo.sharding = "{{[{][{]}}devices=[2,1,4]<=[8] last_tile_dim_replicate}}", operand_layouts = [dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<8x16xf32>) -> tuple<tensor<8x16xf32>>
// CHECK-NEXT: return %0 : tuple<tensor<8x16xf32>>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @tuple_result(%arg0: tensor<8x16xf32>) -> tuple<tensor<8x16xf32>> {
  %0 = stablehlo.custom_call @xla_python_cpu_callback(%arg0) {api_version = 2 : i32, backend_config = "56238273106176", has_side_effect = true, mhlo.sharding = "{{devices=[2,1,4]<=[8] last_tile_dim_replicate}}", operand_layouts = [dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<8x16xf32>) -> tuple<tensor<8x16xf32>>
  return %0 : tuple<tensor<8x16xf32>>
}

// -----

// Other custom calls are left alone.
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <["x"=2, "y"=4]>
// CHECK-NEXT: func.func @other_custom_call(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
// CHECK-NEXT: %0 = stablehlo.custom_call @foo(%arg0) {has_side_effect = true, mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"} : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: return %0 : tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @other_custom_call(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.custom_call @foo(%arg0) {has_side_effect = true, mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

