"""Runs many pysdy-opt fuzz cases (test/py/fuzz/cli_cases.py) and prints how many ended each way.

Usage (from the repo root):

    .venv/bin/python bench/fuzz_pysdy_opt.py                        # 10,000 cases of seed 0, with JAX programs
    .venv/bin/python bench/fuzz_pysdy_opt.py --cases 500 --seed 7 --no-jax
    .venv/bin/python bench/fuzz_pysdy_opt.py --show 3               # also list 3 cases of each bad outcome

Every case runs twice (the second run must print the same bytes) under a
per-run timeout, in a fork of one process that imported pysdy (see
test/py/fuzz/cli_runner.py). A case is fine when it exits 0, or exits 1 with a
`file:line:col: error:` diagnostic (a garbled command line may instead end in
a `pysdy-opt: ...` line). On a terminal a progress line is redrawn; piped,
only the final counts are printed. The exit status is 1 when any case is bad.
"""

from __future__ import annotations

import argparse
import collections
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "test", "py", "fuzz"))

import cli_cases  # noqa: E402
import cli_runner  # noqa: E402
import progress  # noqa: E402  (bench/, the script's own folder)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per run")
    parser.add_argument("--no-jax", action="store_true", help="leave out the JAX-lowered programs (no JAX import)")
    parser.add_argument("--show", type=int, default=5, help="cases listed per bad outcome")
    arguments = parser.parse_args()

    start = time.monotonic()
    programs = () if arguments.no_jax else tuple(cli_cases.jax_program_names())
    cli_cases.seeds(programs)
    seeded = time.monotonic() - start
    counts = collections.Counter()
    bad: dict[str, list[cli_runner.Outcome]] = collections.defaultdict(list)
    with cli_runner.Runner(arguments.timeout) as runner:
        for index in range(arguments.cases):
            outcome = runner.check(cli_cases.case(arguments.seed, index, programs))
            counts[outcome.kind] += 1
            if outcome.kind not in cli_runner.ACCEPTED:
                bad[outcome.kind].append(outcome)
            found = sum(len(v) for v in bad.values())
            progress.show(f"{index + 1}/{arguments.cases} cases, {found} bad, {time.monotonic() - start:.0f} s")
    progress.clear()
    elapsed = time.monotonic() - start
    print(f"{arguments.cases} cases (seed {arguments.seed}, {len(cli_cases.seeds(programs))} seed modules) "
          f"in {elapsed:.0f} s ({seeded:.0f} s to build the seeds)")
    for kind in cli_runner.OUTCOMES:
        print(f"  {counts[kind]:6d}  {kind}")
    for kind, outcomes in bad.items():
        print(f"\n{kind}:")
        for outcome in outcomes[: arguments.show]:
            print(f"  case {outcome.case.name}: pysdy-opt {' '.join(outcome.case.args)}")
            for line in outcome.detail.strip().splitlines()[-3:]:
                print(f"      {line}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
