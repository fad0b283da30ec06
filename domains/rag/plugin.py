"""Built-in plugin of the rag domain: the domain, its two extractors and `factcov rag`."""

from factcov import hookimpl
from factcov.plugins import lazy


@hookimpl
def register_domains(register):
    register(lazy("rag", "factcov.domains.rag.domain:RagDomain"))  # imported when asked for


@hookimpl
def register_extractors(register):
    register(lazy("rag-spacy", "factcov.domains.rag.extractor:RagSpacyExtractor"))
    register(lazy("rag-stanza", "factcov.domains.rag.extractor:RagStanzaExtractor"))


@hookimpl
def register_commands(app):
    from factcov.domains.rag.commands import rag_app

    app.add_typer(rag_app, name="rag")
