"""Built-in plugin of the rag domain: the domain, its two extractors and `factcov rag`."""

from factcov import hookimpl


@hookimpl
def register_domains(register):
    from factcov.domains.rag.domain import RagDomain

    register(RagDomain)


@hookimpl
def register_extractors(register):
    from factcov.domains.rag.extractor import RagSpacyExtractor, RagStanzaExtractor

    register(RagSpacyExtractor)
    register(RagStanzaExtractor)


@hookimpl
def register_commands(app):
    from factcov.domains.rag.commands import rag_app

    app.add_typer(rag_app, name="rag")
