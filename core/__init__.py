"""factcov: coverage-aware evaluation of grounded text generation."""

from factcov.hookspecs import hookimpl

__version__ = "0.2.0"
__all__ = ["__version__", "hookimpl"]
