"""Built-in plugin of the `llm` extractor: registers it when the extractors are asked for.

The extractor's module (``factcov.extractors.llm``) imports the chat client and its
pydantic models; a command that builds no extractor (`factcov --help`) need not pay for them."""

from __future__ import annotations

from typing import Any

from factcov import hookimpl


@hookimpl
def register_extractors(register: Any) -> None:
    from factcov.extractors.llm import LLMExtractor

    register(LLMExtractor)
