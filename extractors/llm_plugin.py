"""Built-in plugin of the `llm` extractor: registers it by name (imported when it is asked for).

The extractor's module (``factcov.extractors.llm``) imports the chat client and its
pydantic models; a command that builds no extractor (`factcov --help`) need not pay for them."""

from __future__ import annotations

from typing import Any

from factcov import hookimpl
from factcov.plugins import lazy


@hookimpl
def register_extractors(register: Any) -> None:
    # by name, with what `factcov domains` lists of it (checked when it is imported)
    register(lazy("llm", "factcov.extractors.llm:LLMExtractor", {"domains": ("*",)}))
