// RUN: pysdy-opt --help | filecheck %s

// CHECK: USAGE: pysdy-opt [options] <input file|->
// CHECK: -split-input-file
// CHECK: -verify-diagnostics
// CHECK: -sdy-populate-op-sharding-rules {{ +}}Populates all registered ops with an `OpShardingRuleAttr`.
// CHECK-NEXT: conservative-propagation=<bool>
