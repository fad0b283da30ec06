"""Built-in plugin of the rag domain: the domain, its two extractors and `factcov rag`."""

from factcov import hookimpl
from factcov.plugins import lazy

# What `factcov domains` shows of the domain without importing it (checked against
# RagDomain when it is imported, and by tests/test_domain_listings.py)
LISTING = {
    "description": "RAG answers: entity and relation claims against a reference and the retrieved passages.",
    "version": "0.1.0",
    "languages": ("en",),
    "tasks": ("qa", "data-to-text"),
    "claim_types": ("entity", "relation"),
    "default_extractor": "rag-spacy",
}


@hookimpl
def register_domains(register):
    register(lazy("rag", "factcov.domains.rag.domain:RagDomain", LISTING))  # imported when asked for


@hookimpl
def register_extractors(register):
    register(lazy("rag-spacy", "factcov.domains.rag.extractor:RagSpacyExtractor", {"domains": ("rag",)}))
    register(lazy("rag-stanza", "factcov.domains.rag.extractor:RagStanzaExtractor", {"domains": ("rag",)}))


@hookimpl
def register_commands(app):
    from factcov.domains.rag.commands import rag_app

    app.add_typer(rag_app, name="rag")
