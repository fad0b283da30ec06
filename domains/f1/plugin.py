"""Built-in plugin of the f1 domain (being built)."""

from factcov import hookimpl


@hookimpl
def register_domains(register):
    return None
