"""Reports how many pysdy results the gspmd tests checked, by oracle."""

import xla_oracle


def pytest_terminal_summary(terminalreporter):
    if xla_oracle.checks["xla"]:
        terminalreporter.write_line(f"gspmd: {xla_oracle.checks['xla']} checks against XLA's HloSharding")
    if xla_oracle.checks["round trip"]:
        terminalreporter.write_line(f"gspmd: {xla_oracle.checks['round trip']} shardings equal after export, import and export")
