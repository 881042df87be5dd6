"""Shared test set-up: one hypothesis profile for every run, so no outcome depends on the
draw, the order or an example database left by an earlier run (issue 28), and ``--order``
to run the tests reversed or shuffled, which shows that none depends on another."""

from __future__ import annotations

import random

import pytest
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


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--order",
        default="file",
        help="run the tests in file order (default), 'reverse', or 'shuffle:SEED': no test "
        "may depend on what ran before it, and this shows it",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    order = str(config.getoption("--order"))
    if order == "reverse":
        items.reverse()
    elif order.startswith("shuffle:"):
        items[:] = _shuffled(items, random.Random(order.partition(":")[2]))
    elif order != "file":
        raise pytest.UsageError(f"--order takes file, reverse or shuffle:SEED, not {order!r}")


def _shuffled(items: list[pytest.Item], draw: random.Random) -> list[pytest.Item]:
    """The modules in a random order and each module's tests in a random order, as
    pytest-randomly does: every order a test could meet, while a module's fixtures are
    still built once (a shuffle across modules rebuilds them at every step)."""
    modules: dict[str, list[pytest.Item]] = {}
    for item in items:
        modules.setdefault(item.nodeid.partition("::")[0], []).append(item)
    names = list(modules)
    draw.shuffle(names)
    result: list[pytest.Item] = []
    for name in names:
        tests = modules[name]
        draw.shuffle(tests)
        result.extend(tests)
    return result
