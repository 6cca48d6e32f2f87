"""Reports how many pysdy results the gspmd tests checked against XLA's own HloSharding."""

import xla_oracle


def pytest_terminal_summary(terminalreporter):
    if xla_oracle.checks["xla"]:
        terminalreporter.write_line(f"gspmd: {xla_oracle.checks['xla']} checks against XLA's HloSharding")
