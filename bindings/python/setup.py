"""Builds the paywire wheel; the metadata lives in pyproject.toml.

Built from a checkout, the package holds only Python and the wheel is pure (py3-none-any): the
library comes from PAYWIRE_LIBRARY or an install prefix. `make dist` first copies libpaywire
into the package (paywire/libpaywire.so.<ABI>); the wheel then carries it and is tagged for the
platform (py3-none-linux_<arch>, which auditwheel turns into the manylinux tag the library truly
needs). Any Python 3 can use it, since ctypes loads the library: the tag names no interpreter.
"""
from pathlib import Path

from setuptools import Distribution, setup

try:
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # setuptools < 70.1
    from wheel.bdist_wheel import bdist_wheel

CARRIES_LIBRARY = any((Path(__file__).resolve().parent / "paywire").glob("libpaywire.so.*"))


class LibraryDistribution(Distribution):
    """Holds a native library, so it installs to platlib and its wheel is not pure."""

    def has_ext_modules(self):
        return True


class PlatformWheel(bdist_wheel):
    """Tagged for the platform only: any Python 3 interpreter can use it."""

    def get_tag(self):
        _, _, platform = super().get_tag()
        return "py3", "none", platform


if CARRIES_LIBRARY:
    setup(distclass=LibraryDistribution, cmdclass={"bdist_wheel": PlatformWheel})
else:
    setup()
