// RUN: not pysdy-run %s --devices 4 2>&1 | filecheck %s --check-prefix=MESH
// RUN: env JAX_NUM_CPU_DEVICES=4 not pysdy-run %s 2>&1 | filecheck %s --check-prefix=FEW
// RUN: not pysdy-run %s --inputs %t.missing.npz 2>&1 | filecheck %s --check-prefix=INPUTS
// RUN: not pysdy-run %s --route spmd 2>&1 | filecheck %s --check-prefix=ROUTE

// Each mistake is one line on stderr and exit status 1, never a traceback.

// MESH-NOT: Traceback
// MESH: pysdy-run: error: mesh @mesh spans 8 devices, more than the 4 the module is compiled for

// FEW-NOT: Traceback
// FEW: pysdy-run: error: too few devices: the module needs 8, the cpu backend has 4 (JAX_NUM_CPU_DEVICES sets how many CPU devices JAX makes)

// INPUTS-NOT: Traceback
// INPUTS: pysdy-run: error: could not read inputs from '{{.*}}.missing.npz'

// ROUTE: pysdy-run: error: argument --route: invalid choice: 'spmd'

module @double attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=8]>
  func.func public @main(%arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<16xf32> {
    %0 = stablehlo.add %arg0, %arg0 : tensor<16xf32>
    return %0 : tensor<16xf32>
  }
}
