"""The plugin module named by the entry point: hooks that register the domain's classes."""

from factcov import hookimpl

from factcov_quali.domain import QualiDomain
from factcov_quali.extractor import QualiRegexExtractor


@hookimpl
def register_domains(register):
    register(QualiDomain)


@hookimpl
def register_extractors(register):
    register(QualiRegexExtractor)
