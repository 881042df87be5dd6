"""Every public name says why it is there: a one-line docstring at least (issue 26).

Public are the names of ``bridgefiles`` itself and of the modules other programs and
the command line import (docs/interfaces.md): their ``__all__``, or else every name
defined in the module without a leading underscore. Models and enumerations too: their
docstrings are the descriptions in the JSON Schemas we publish (``bridgefiles schema``).
"""

from __future__ import annotations

import importlib
import inspect

import pytest

import bridgefiles as bf

PUBLIC_MODULES = (
    "bridgefiles",
    "bridgefiles.api",
    "bridgefiles.errors",
    "bridgefiles.limits",
    "bridgefiles.diagnostics",
    "bridgefiles.model",
    "bridgefiles.formats.registry",
    "bridgefiles.formats.visitor",
    "bridgefiles.laws",
    "bridgefiles.scoring",
    "bridgefiles.scoring.settings",
    "bridgefiles.checks.validate",
    "bridgefiles.checks.schema",
    "bridgefiles.files.reading",
    "bridgefiles.files.output",
    "bridgefiles.views.table",
    "bridgefiles.views.render",
    "bridgefiles.jobs.conversion",
    "bridgefiles.jobs.report",
    "bridgefiles.jobs.verify",
    "bridgefiles.batch",
    "bridgefiles.batch.inputs",
    "bridgefiles.batch.tasks",
    "bridgefiles.batch.pool",
    "bridgefiles.batch.dask",
)


def _public(module_name: str) -> list[tuple[str, object]]:
    module = importlib.import_module(module_name)
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n, o in vars(module).items() if not n.startswith("_")
                 and getattr(o, "__module__", None) == module_name]
    return [(n, getattr(module, n)) for n in names]


@pytest.mark.parametrize("module_name", PUBLIC_MODULES)
def test_every_public_function_and_class_has_a_docstring(module_name: str) -> None:
    missing = [
        name for name, obj in _public(module_name)
        if (inspect.isfunction(obj) or inspect.isclass(obj))
        and str(getattr(obj, "__module__", "")).startswith("bridgefiles")
        and not (obj.__doc__ or "").strip()
    ]
    assert missing == []


def test_the_check_sees_a_missing_docstring() -> None:
    def undocumented() -> None:
        pass

    assert not (undocumented.__doc__ or "").strip()
    assert (bf.read.__doc__ or "").strip()
