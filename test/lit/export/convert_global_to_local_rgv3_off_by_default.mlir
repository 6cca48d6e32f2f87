// RUN: pysdy-opt --help | filecheck %s
// REQUIRES: !convert_global_to_local_rgv3_by_default

// Before jax 0.11, sdy-convert-global-to-local's enable-rgv3 option is false by default (jaxlib 0.10.2's pass
// manager prints the pass as `sdy-convert-global-to-local{... enable-rgv3=false ...}`).

// CHECK: -sdy-convert-global-to-local Converts an SDY program from global shapes to local shapes.
// CHECK-NEXT: combine-multi-dimension-reduce-scatter=<bool> Combine multi-dimension reduce-scatter into a single reduce-scatter. (default: False)
// CHECK-NEXT: enable-rgv3=<bool> Use StableHLO ReplicaGroupV3 (mesh-axes based) for collectives. (default: False)
