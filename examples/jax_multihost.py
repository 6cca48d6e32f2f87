"""Two local processes x 4 CPU devices under `jax.distributed`, running one `pysdy.jax.jit` program on all 8 devices.

    python examples/jax_multihost.py            # starts both processes and reports
    python examples/jax_multihost.py --worker ID --port PORT   # one process (what the launcher runs)

Each process builds its half of a data-parallel MLP training step's inputs
(the batch is split across the two processes, the hidden layer across each
process's 4 devices), runs the step compiled through pysdy's propagation
and XLA's partitioner (the hook's route), and checks the replicated loss and
gradients against the same step run by plain JAX on one local device, within
float32's relative tolerance (pysdy.runtime.comparison).
Cross-process collectives use gloo over TCP on this machine's loopback.
"""

from __future__ import annotations

import argparse
import socket
import subprocess
import sys
import time

PROCESSES = 2
LOCAL_DEVICES = 4
WORKER_TIMEOUT_SECONDS = 300


def _free_loopback_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _hostname_is_loopback() -> bool:
    """gloo's TCP transport listens on this host name's address; the example only runs where that is loopback."""
    try:
        return socket.gethostbyname(socket.gethostname()).startswith("127.")
    except OSError:
        return False


def _mlp_loss(params, x, y):
    import jax
    import jax.numpy as jnp

    w1, w2 = params
    return jnp.mean((jax.nn.gelu(x @ w1) @ w2 - y) ** 2)


def _host_values(seed: int = 0):
    import numpy as np

    rng = np.random.default_rng(seed)
    params = (rng.standard_normal((32, 64)).astype(np.float32), rng.standard_normal((64, 32)).astype(np.float32))
    return params, rng.standard_normal((16, 32)).astype(np.float32), rng.standard_normal((16, 32)).astype(np.float32)


def run_worker(process_id: int, port: int) -> int:
    import jax

    jax.config.update("jax_num_cpu_devices", LOCAL_DEVICES)
    jax.config.update("jax_cpu_collectives_implementation", "gloo")
    jax.distributed.initialize(
        coordinator_address=f"127.0.0.1:{port}", num_processes=PROCESSES, process_id=process_id
    )
    import numpy as np
    from jax.sharding import AxisType, NamedSharding
    from jax.sharding import PartitionSpec as P

    import pysdy.jax
    from pysdy.runtime.comparison import mismatch

    if jax.device_count() != PROCESSES * LOCAL_DEVICES or jax.local_device_count() != LOCAL_DEVICES:
        print(f"process {process_id}: expected {PROCESSES}x{LOCAL_DEVICES} devices, have {jax.device_count()}")
        return 1
    # Rows of the mesh are processes: "batch" crosses the process boundary, "model" stays inside one.
    mesh = jax.make_mesh((PROCESSES, LOCAL_DEVICES), ("batch", "model"), axis_types=(AxisType.Auto,) * 2)
    param_shardings = (NamedSharding(mesh, P(None, "model")), NamedSharding(mesh, P("model", None)))
    data_sharding = NamedSharding(mesh, P("batch", None))
    replicated = NamedSharding(mesh, P())

    params, x, y = _host_values()

    def global_array(value, sharding):
        return jax.make_array_from_callback(value.shape, sharding, lambda index: value[index])

    args = (
        tuple(global_array(p, s) for p, s in zip(params, param_shardings)),
        global_array(x, data_sharding),
        global_array(y, data_sharding),
    )
    step = pysdy.jax.jit(
        jax.value_and_grad(_mlp_loss),
        in_shardings=(param_shardings, data_sharding, data_sharding),
        out_shardings=(replicated, (replicated, replicated)),
    )
    loss, grads = step(*args)
    compiled_hlo = step.lower(*args).compile().as_text()

    local = jax.local_devices()[0]
    expected_loss, expected_grads = jax.jit(jax.value_and_grad(_mlp_loss))(*jax.device_put((params, x, y), local))
    results = [np.asarray(r.addressable_data(0)) for r in (loss, *grads)]
    expected = [np.asarray(e) for e in (expected_loss, *expected_grads)]
    # Partitioned reductions add in another order: compare within float32's relative tolerance, not absolutely.
    mismatches = [m for m in map(mismatch, results, expected) if m is not None]
    worst = max(float(np.max(np.abs(r - e))) for r, e in zip(results, expected))
    hooked = [c for c in pysdy.jax.compilations() if c.num_partitions == PROCESSES * LOCAL_DEVICES]
    ok = not mismatches and bool(hooked) and "all-reduce" in compiled_hlo
    print(
        f"process {process_id}: {'OK' if ok else 'FAILED'} loss={float(results[0]):.6f} "
        f"max|diff|={worst:.2e} within-tolerance={'; '.join(mismatches) or 'yes'} "
        f"pysdy_compiles={len(hooked)} all-reduce={'all-reduce' in compiled_hlo} "
        f"devices={jax.device_count()} local={[d.id for d in jax.local_devices()]}",
        flush=True,
    )
    jax.distributed.shutdown()
    return 0 if ok else 1


def launch() -> int:
    if not _hostname_is_loopback():
        print(
            f"cannot run here: gloo listens on the address of host name '{socket.gethostname()}', "
            "which is not a loopback address, and this example only talks to 127.0.0.0/8"
        )
        return 1
    port = _free_loopback_port()
    workers = [
        subprocess.Popen(
            [sys.executable, __file__, "--worker", str(i), "--port", str(port)],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for i in range(PROCESSES)
    ]
    deadline = time.monotonic() + WORKER_TIMEOUT_SECONDS
    status = 0
    for worker in workers:
        try:
            output, _ = worker.communicate(timeout=max(1.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            worker.kill()
            output, _ = worker.communicate()
            print(f"worker {worker.pid} timed out after {WORKER_TIMEOUT_SECONDS} s")
            status = 1
        lines = [line for line in output.splitlines() if line.startswith("process ")]
        print("\n".join(lines) if lines else output[-3000:])
        status = status or worker.returncode
    return 1 if status else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worker", type=int, help="run as this process id")
    parser.add_argument("--port", type=int, help="the coordinator's port on 127.0.0.1")
    options = parser.parse_args()
    if options.worker is None:
        return launch()
    if options.port is None:
        parser.error("--worker needs --port")
    return run_worker(options.worker, options.port)


if __name__ == "__main__":
    sys.exit(main())
