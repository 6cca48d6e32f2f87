// A pre-LayerNorm transformer block (causal 4-head attention + GELU MLP) on a 2x4 mesh of 8 devices: transformer_block_forward of test/py/jax_corpus.py, printed by jax.jit(...).lower(...).as_text() with jax 0.10.2.
module @jit__transformer_block attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=4]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, %arg1: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, %arg2: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, %arg3: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, %arg4: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, %arg5: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}, %arg6: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, %arg7: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg8: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg9: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg10: tensor<4x8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}]>}) -> (tensor<4x8x32xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg10 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %cst_0 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x8x1xf32>
    %3 = stablehlo.divide %1, %2 : tensor<4x8x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %5 = stablehlo.subtract %arg10, %4 : tensor<4x8x32xf32>
    %6 = stablehlo.multiply %5, %5 : tensor<4x8x32xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %cst_2 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4x8x1xf32>
    %10 = stablehlo.divide %8, %9 : tensor<4x8x1xf32>
    %11 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %12 = stablehlo.subtract %arg10, %11 : tensor<4x8x32xf32>
    %cst_3 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<4x8x1xf32>
    %14 = stablehlo.add %10, %13 : tensor<4x8x1xf32>
    %15 = stablehlo.rsqrt %14 : tensor<4x8x1xf32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %17 = stablehlo.multiply %12, %16 : tensor<4x8x32xf32>
    %18 = stablehlo.broadcast_in_dim %arg8, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x8x32xf32>
    %20 = stablehlo.multiply %17, %19 : tensor<4x8x32xf32>
    %21 = stablehlo.dot_general %20, %arg0, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xf32>, tensor<32x32xf32>) -> tensor<4x8x32xf32>
    %22 = stablehlo.reshape %21 : (tensor<4x8x32xf32>) -> tensor<4x8x4x8xf32>
    %23 = stablehlo.dot_general %20, %arg1, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xf32>, tensor<32x32xf32>) -> tensor<4x8x32xf32>
    %24 = stablehlo.reshape %23 : (tensor<4x8x32xf32>) -> tensor<4x8x4x8xf32>
    %25 = stablehlo.dot_general %20, %arg2, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xf32>, tensor<32x32xf32>) -> tensor<4x8x32xf32>
    %26 = stablehlo.reshape %25 : (tensor<4x8x32xf32>) -> tensor<4x8x4x8xf32>
    %27 = stablehlo.dot_general %22, %24, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<4x8x4x8xf32>, tensor<4x8x4x8xf32>) -> tensor<4x4x8x8xf32>
    %cst_4 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %28 = stablehlo.sqrt %cst_4 : tensor<f32>
    %29 = stablehlo.convert %28 : tensor<f32>
    %30 = stablehlo.broadcast_in_dim %29, dims = [] : (tensor<f32>) -> tensor<4x4x8x8xf32>
    %31 = stablehlo.divide %27, %30 : tensor<4x4x8x8xf32>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %32 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<8x8xi1>
    %33 = call @tril(%32) : (tensor<8x8xi1>) -> tensor<8x8xi1>
    %cst_5 = stablehlo.constant dense<-1.000000e+09> : tensor<f32>
    %34 = call @_where(%33, %31, %cst_5) : (tensor<8x8xi1>, tensor<4x4x8x8xf32>, tensor<f32>) -> tensor<4x4x8x8xf32>
    %cst_6 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %35 = stablehlo.reduce(%34 init: %cst_6) applies stablehlo.maximum across dimensions = [3] : (tensor<4x4x8x8xf32>, tensor<f32>) -> tensor<4x4x8xf32>
    %cst_7 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %36 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<4x4x8xf32>
    %37 = stablehlo.maximum %36, %35 : tensor<4x4x8xf32>
    %38 = stablehlo.broadcast_in_dim %37, dims = [0, 1, 2] : (tensor<4x4x8xf32>) -> tensor<4x4x8x1xf32>
    %39 = stablehlo.broadcast_in_dim %38, dims = [0, 1, 2, 3] : (tensor<4x4x8x1xf32>) -> tensor<4x4x8x8xf32>
    %40 = stablehlo.subtract %34, %39 : tensor<4x4x8x8xf32>
    %41 = stablehlo.exponential %40 : tensor<4x4x8x8xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %42 = stablehlo.reduce(%41 init: %cst_8) applies stablehlo.add across dimensions = [3] : (tensor<4x4x8x8xf32>, tensor<f32>) -> tensor<4x4x8xf32>
    %43 = stablehlo.broadcast_in_dim %42, dims = [0, 1, 2] : (tensor<4x4x8xf32>) -> tensor<4x4x8x1xf32>
    %44 = stablehlo.broadcast_in_dim %43, dims = [0, 1, 2, 3] : (tensor<4x4x8x1xf32>) -> tensor<4x4x8x8xf32>
    %45 = stablehlo.divide %41, %44 : tensor<4x4x8x8xf32>
    %46 = stablehlo.dot_general %26, %45, batching_dims = [0, 2] x [0, 1], contracting_dims = [1] x [3], precision = [DEFAULT, DEFAULT] : (tensor<4x8x4x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %47 = stablehlo.transpose %46, dims = [0, 3, 1, 2] : (tensor<4x4x8x8xf32>) -> tensor<4x8x4x8xf32>
    %48 = stablehlo.reshape %47 : (tensor<4x8x4x8xf32>) -> tensor<4x8x32xf32>
    %49 = stablehlo.dot_general %48, %arg3, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xf32>, tensor<32x32xf32>) -> tensor<4x8x32xf32>
    %50 = stablehlo.add %arg10, %49 : tensor<4x8x32xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %51 = stablehlo.reduce(%50 init: %cst_9) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %52 = stablehlo.broadcast_in_dim %51, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %cst_10 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %53 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<4x8x1xf32>
    %54 = stablehlo.divide %52, %53 : tensor<4x8x1xf32>
    %55 = stablehlo.broadcast_in_dim %54, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %56 = stablehlo.subtract %50, %55 : tensor<4x8x32xf32>
    %57 = stablehlo.multiply %56, %56 : tensor<4x8x32xf32>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %58 = stablehlo.reduce(%57 init: %cst_11) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %59 = stablehlo.broadcast_in_dim %58, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %cst_12 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %60 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<4x8x1xf32>
    %61 = stablehlo.divide %59, %60 : tensor<4x8x1xf32>
    %62 = stablehlo.broadcast_in_dim %54, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %63 = stablehlo.subtract %50, %62 : tensor<4x8x32xf32>
    %cst_13 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %64 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<4x8x1xf32>
    %65 = stablehlo.add %61, %64 : tensor<4x8x1xf32>
    %66 = stablehlo.rsqrt %65 : tensor<4x8x1xf32>
    %67 = stablehlo.broadcast_in_dim %66, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %68 = stablehlo.multiply %63, %67 : tensor<4x8x32xf32>
    %69 = stablehlo.broadcast_in_dim %arg9, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %70 = stablehlo.broadcast_in_dim %69, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x8x32xf32>
    %71 = stablehlo.multiply %68, %70 : tensor<4x8x32xf32>
    %72 = stablehlo.dot_general %71, %arg4, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xf32>, tensor<32x64xf32>) -> tensor<4x8x64xf32>
    %73 = stablehlo.broadcast_in_dim %arg5, dims = [2] : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %74 = stablehlo.broadcast_in_dim %73, dims = [0, 1, 2] : (tensor<1x1x64xf32>) -> tensor<4x8x64xf32>
    %75 = stablehlo.add %72, %74 : tensor<4x8x64xf32>
    %76 = stablehlo.multiply %75, %75 : tensor<4x8x64xf32>
    %77 = stablehlo.multiply %76, %75 : tensor<4x8x64xf32>
    %cst_14 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %78 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<4x8x64xf32>
    %79 = stablehlo.multiply %78, %77 : tensor<4x8x64xf32>
    %80 = stablehlo.add %75, %79 : tensor<4x8x64xf32>
    %cst_15 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %81 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<4x8x64xf32>
    %82 = stablehlo.multiply %81, %80 : tensor<4x8x64xf32>
    %83 = stablehlo.tanh %82 : tensor<4x8x64xf32>
    %cst_16 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %84 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<4x8x64xf32>
    %85 = stablehlo.add %84, %83 : tensor<4x8x64xf32>
    %cst_17 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %86 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<4x8x64xf32>
    %87 = stablehlo.multiply %86, %85 : tensor<4x8x64xf32>
    %88 = stablehlo.multiply %75, %87 : tensor<4x8x64xf32>
    %89 = stablehlo.dot_general %88, %arg6, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x64xf32>, tensor<64x32xf32>) -> tensor<4x8x32xf32>
    %90 = stablehlo.broadcast_in_dim %arg7, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %91 = stablehlo.broadcast_in_dim %90, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x8x32xf32>
    %92 = stablehlo.add %89, %91 : tensor<4x8x32xf32>
    %93 = stablehlo.add %50, %92 : tensor<4x8x32xf32>
    return %93 : tensor<4x8x32xf32>
  }
  func.func private @tril(%arg0: tensor<8x8xi1>) -> tensor<8x8xi1> {
    %0 = stablehlo.iota dim = 0 : tensor<8x8xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<8x8xi32>
    %2 = stablehlo.add %0, %1 : tensor<8x8xi32>
    %3 = stablehlo.iota dim = 1 : tensor<8x8xi32>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi1>
    %c_0 = stablehlo.constant dense<false> : tensor<i1>
    %5 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i1>) -> tensor<8x8xi1>
    %6 = stablehlo.select %4, %arg0, %5 : tensor<8x8xi1>, tensor<8x8xi1>
    return %6 : tensor<8x8xi1>
  }
  func.func private @_where(%arg0: tensor<8x8xi1>, %arg1: tensor<4x4x8x8xf32>, %arg2: tensor<f32>) -> tensor<4x4x8x8xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [2, 3] : (tensor<8x8xi1>) -> tensor<4x4x8x8xi1>
    %2 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<4x4x8x8xf32>
    %3 = stablehlo.select %1, %arg1, %2 : tensor<4x4x8x8xi1>, tensor<4x4x8x8xf32>
    return %3 : tensor<4x4x8x8xf32>
  }
}
