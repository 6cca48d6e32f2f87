// RUN: not pysdy-opt %s -sdy-populate-op-sharding-rule 2>&1 | filecheck %s --check-prefix=PASS
// RUN: not pysdy-opt %s -sdy-populate-op-sharding-rules="conservative=true" 2>&1 | filecheck %s --check-prefix=OPTION
// RUN: not pysdy-opt %s --pass-pipeline='builtin.module(canonicalise)' 2>&1 | filecheck %s --check-prefix=UPSTREAM
// RUN: not pysdy-opt %s --pass-pipeline='builtin.module(cse)' -cse 2>&1 | filecheck %s --check-prefix=MIXED

// PASS: pysdy-opt: unknown option or pass 'sdy-populate-op-sharding-rule'; did you mean {{.*}}'sdy-populate-op-sharding-rules'
// OPTION: pysdy-opt: no such option 'conservative' for pass 'sdy-populate-op-sharding-rules'; did you mean 'conservative-propagation'?
// UPSTREAM: pysdy-opt: unknown pass 'canonicalise'; did you mean 'canonicalize'?
// MIXED: pysdy-opt: '--pass-pipeline' cannot be used with individual pass flags

func.func @f() {
  return
}
