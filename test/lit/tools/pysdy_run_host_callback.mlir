// RUN: not pysdy-run %s 2>&1 | filecheck %s

// A host callback (JAX's io_callback) calls a Python function that lives in the process that lowered the
// module: pysdy-run refuses it with one line and exit status 1 instead of letting XLA call nothing.

// CHECK-NOT: Traceback
// CHECK: pysdy-run: error: the module calls a Python function of the process that lowered it (@xla_ffi_python_cpu_callback): only that process can run it, through pysdy.jax.jit

module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>
  func.func public @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x8xf32> {
    %0 = stablehlo.sine %arg0 : tensor<8x8xf32>
    %1 = stablehlo.custom_call @xla_ffi_python_cpu_callback(%0) {backend_config = "", has_side_effect = true, mhlo.backend_config = {index = 0 : ui64}, operand_layouts = [dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>], sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %2 = stablehlo.add %1, %arg0 : tensor<8x8xf32>
    return %2 : tensor<8x8xf32>
  }
}
