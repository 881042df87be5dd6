"""Shared test set-up: one hypothesis profile for every run, so no outcome depends on the
draw, the order or an example database left by an earlier run (issue 28)."""

from __future__ import annotations

from hypothesis import HealthCheck, settings

# Derandomized: each test's examples follow from its own name, the same in every run and
# in any order; no database, so nothing found in one run changes the next. A deadline would
# make a loaded machine fail a test for being slow, which is not a finding about the code.
settings.register_profile(
    "bridgefiles",
    derandomize=True,
    database=None,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("bridgefiles")
