"""Builds the module's native part (python/splotch/_core*.so, and the palettes beside it) with the
project's Makefile before setuptools packs python/splotch (pyproject.toml holds the rest)."""
import subprocess
import sys

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution


class BuildWithMake(build_py):
    def run(self):
        subprocess.run(["make", "-j", "python", f"PYTHON={sys.executable}"], check=True)
        super().run()


class NativeDistribution(Distribution):
    def has_ext_modules(self):  # a wheel for this platform and Python, not a pure one
        return True


setup(cmdclass={"build_py": BuildWithMake}, distclass=NativeDistribution)
