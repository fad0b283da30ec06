"""The plugin module named by the entry point: hooks that register the domain's classes.

The classes are imported inside the hooks: factcov imports every plugin module to list
its commands (`factcov --help`), and calls these hooks only when a command needs a domain
or an extractor, so a short command does not pay for the domain's code (and pydantic)."""

from factcov import hookimpl


@hookimpl
def register_domains(register):
    from factcov_quali.domain import QualiDomain

    register(QualiDomain)


@hookimpl
def register_extractors(register):
    from factcov_quali.extractor import QualiRegexExtractor

    register(QualiRegexExtractor)
