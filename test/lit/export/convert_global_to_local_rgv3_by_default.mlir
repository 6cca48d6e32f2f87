// RUN: pysdy-opt --help | filecheck %s
// REQUIRES: convert_global_to_local_rgv3_by_default

// From jax 0.11, sdy-convert-global-to-local's enable-rgv3 option is true by default (jaxlib 0.11.2's and 0.12.0.1's
// pass managers print the pass as `sdy-convert-global-to-local{... enable-rgv3=true ...}`).

// CHECK: -sdy-convert-global-to-local Converts an SDY program from global shapes to local shapes.
// CHECK-NEXT: combine-multi-dimension-reduce-scatter=<bool> Combine multi-dimension reduce-scatter into a single reduce-scatter. (default: False)
// CHECK-NEXT: enable-rgv3=<bool> Use StableHLO ReplicaGroupV3 (mesh-axes based) for collectives. (default: True)
