// RUN: pysdy-opt %s -split-input-file -sdy-manual-axes-cleanup -verify-diagnostics

func.func @manual_axes_without_in_out_shardings() {
  // expected-error@+1 {{op has manual_axes when there are no in/out shardings and the body is not empty. This isn't allowed at this stage, please contact the Shardy team or file a bug.}}
  sdy.manual_computation() in_shardings=[] out_shardings=[] manual_axes={"a"} () {
    %0 = sdy.constant dense<1.000000e+00> : tensor<8xf32>
    sdy.return
  } : () -> ()
  func.return
}
