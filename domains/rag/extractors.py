"""Kept for imports written before the domain took the common file names: see ``extractor``."""

from factcov.domains.rag.extractor import (  # noqa: F401
    INDEX_CACHE_SIZE,
    RagExtractor,
    RagSpacyExtractor,
    RagStanzaExtractor,
)
