"""The extractor interface: text -> claims, aware of the instance it explains."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from factcov.errors import ExtractionFailed
from factcov.model import Claim, Instance


class Extractor:
    """Base class for extraction backends (regex grammars, spaCy, stanza, LLM).

    Registered classes carry ``name`` and ``description``; ``domains`` names the domains
    whose claim types they produce (``("*",)`` for any) and ``languages`` the languages
    they read. The registry builds one instance per language: ``cls(language=..., **options)``.
    Heavy libraries are imported in ``__init__`` or later, never at module import.
    """

    name: ClassVar[str]
    description: ClassVar[str] = ""
    domains: ClassVar[tuple[str, ...]] = ("*",)
    languages: ClassVar[tuple[str, ...]] = ("en",)

    def __init__(self, language: str = "en", **options: object) -> None:
        self.language = language
        self.options = options

    def extract(self, text: str, instance: Instance) -> list[Claim]:  # pragma: no cover
        raise NotImplementedError

    def extract_batch(
        self, texts: Sequence[str], instances: Sequence[Instance]
    ) -> list[list[Claim]]:
        """Many texts at once; NLP backends override this to batch (``nlp.pipe``).

        A text whose extraction raises ExtractionFailed gets a ``FailedExtraction`` (no
        claims, the reason kept) so the run counts it instead of scoring it as silence."""
        results: list[list[Claim]] = []
        for text, instance in zip(texts, instances):
            try:
                results.append(self.extract(text, instance))
            except ExtractionFailed as error:
                results.append(FailedExtraction(str(error)))
        return results


    def signature(self) -> str:
        """What identifies this extractor's behaviour in a score signature."""
        return self.name


class FailedExtraction(list):
    """The empty claim list of a text the extractor could not read, with why."""

    def __init__(self, reason: str) -> None:
        super().__init__()
        self.reason = reason
