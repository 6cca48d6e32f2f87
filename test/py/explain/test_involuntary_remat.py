"""The bundled example whose compile makes XLA warn "Involuntary full rematerialization": XLA warns at the reshape,
and pysdy's explanation names that reshape's line and the two annotations that meet there."""

import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
EXAMPLE = os.path.join(ROOT, "examples", "jax_involuntary_remat.py")


def line_of(marker: str) -> int:
    with open(EXAMPLE) as source:
        return next(number for number, line in enumerate(source, 1) if marker in line)


def test_xla_warns_at_the_reshape_and_pysdy_says_which_annotations_meet_there(tmp_path):
    page = tmp_path / "remat.html"
    done = subprocess.run(
        [sys.executable, EXAMPLE, "--html", str(page)], capture_output=True, text=True, timeout=600,
        env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "0"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    warnings = [line for line in done.stderr.splitlines() if "Involuntary full rematerialization" in line]
    assert warnings and all("reshape" in w for w in warnings)
    reshape, constraint = line_of("# back to sequences"), line_of("# sequence parallel")
    reshards = done.stdout.split("Largest tensors left replicated:")[0]
    blocks = re.split(r"\n  (?=\d+\. )", reshards)
    at_reshape = [block for block in blocks if f"stablehlo.reshape at {EXAMPLE}:{reshape}" in block.splitlines()[0]]
    assert at_reshape, done.stdout
    meeting = "\n".join(at_reshape)
    assert "the sharding constraint" in meeting and f"{EXAMPLE}:{constraint}" in meeting
    assert "the argument %arg1 (tokens)" in meeting
    assert page.exists() and f"jax_involuntary_remat.py:{reshape}" in page.read_text()
