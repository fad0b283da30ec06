"""Built-in plugin of the weather domain (being built)."""

from factcov import hookimpl


@hookimpl
def register_domains(register):
    return None
