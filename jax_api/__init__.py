"""`pysdy.jax`: JAX programs through pysdy's pipeline (a `jit` and a hook on JAX's compile step)."""
