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
func.func @no_io() {
  sdy.manual_computation() in_shardings=[] out_shardings=[] manual_axes={"a"} () {
    %0 = sdy.constant dense<1.000000e+00> : tensor<8xf32>
    sdy.return
  } : () -> ()
  func.return
}
// -----
func.func @no_io_no_axes() {
  sdy.manual_computation() in_shardings=[] out_shardings=[] manual_axes={} () {
    %0 = sdy.constant dense<1.000000e+00> : tensor<8xf32>
    sdy.return
  } : () -> ()
  func.return
}
// -----
sdy.mesh @mesh = <["a"=8, "b"=4]>
func.func @partly_used_manual_axes(%arg0: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a":(2)2}, {}], replicated={"b":(1)2}>] out_shardings=[<@mesh, [{"a":(4)2}, {}], replicated={"a":(1)2}>] manual_axes={"b", "a"} (%x: tensor<8x8xf32>) {
    sdy.return %x : tensor<8x8xf32>
  } : (tensor<16x8xf32>) -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
