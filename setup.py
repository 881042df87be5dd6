"""Packaging glue that pyproject.toml alone cannot say: the grammars/ folder at the top of
the repository ships inside the wheel as the package ``bridgefiles.grammars``."""

from setuptools import find_packages, setup

setup(
    packages=[*find_packages(include=["bridgefiles", "bridgefiles.*"]), "bridgefiles.grammars"],
    package_dir={"bridgefiles.grammars": "grammars"},
)
