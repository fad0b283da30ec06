"""The extractor interface: text -> claims, aware of the instance it explains."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from factcov.errors import ExtractionFailed, FactcovError
from factcov.model import Claim, Instance

TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off"}


class Extractor:
    """Base class for extraction backends (regex grammars, spaCy, stanza, LLM).

    Registered classes carry ``name`` and ``description``; ``domains`` names the domains
    whose claim types they produce (``("*",)`` for any) and ``languages`` the languages
    they read. The registry builds one instance per language: ``cls(language=..., **options)``.
    Heavy libraries are imported in ``__init__`` or later, never at module import.

    ``option_types`` declares the options a user may set from the command line
    (``-X key=value``) and their types (``str``, ``int``, ``float``, ``bool``); any other
    key is refused by ``parse_options``. Options change results, so the ones given enter
    the score signature: declare no secrets here (read them from the environment).
    ``unsigned_options`` names the declared ones that stay out of it: options that only
    change speed (a batch size, a process count) or that ``signature()`` already names
    (a model, by its resolved name and version).
    ``prebuild`` says building one is cheap and needs no model (see below); ``prepare``
    lets such an extractor build its per-instance setup in the same place.
    """

    name: ClassVar[str]
    description: ClassVar[str] = ""
    domains: ClassVar[tuple[str, ...]] = ("*",)
    languages: ClassVar[tuple[str, ...]] = ("en",)
    option_types: ClassVar[dict[str, type]] = {}
    # True when building one is cheap and loads no model (a regex grammar): a run with
    # --jobs then builds one per language the input uses before forking its workers, which
    # share it instead of each building its own. Left False, nothing is built that the run
    # may not need (a spaCy or stanza model per language).
    prebuild: ClassVar[bool] = False
    # True when a text's claims depend only on the text, its instance and the options (no
    # sampling, no state carried between texts): a run reads each distinct (instance, text)
    # once and scores the repeats (systems agreeing on a short text) with the same claims.
    deterministic: ClassVar[bool] = False
    unsigned_options: ClassVar[frozenset[str]] = frozenset()

    @classmethod
    def parse_options(cls, raw: Mapping[str, str]) -> dict[str, Any]:
        """Command-line ``key=value`` strings -> typed options, refusing undeclared keys."""
        from factcov.errors import InputError, UnknownNameError

        parsed: dict[str, Any] = {}
        for key, text in raw.items():
            kind = cls.option_types.get(key)
            if kind is None and not cls.option_types:
                raise InputError(f"-X {key}: extractor '{cls.name}' takes no options")
            if kind is None:
                raise UnknownNameError(f"option of extractor '{cls.name}' (-X)", key, list(cls.option_types))
            if kind is bool:
                if text.lower() not in TRUE_WORDS | FALSE_WORDS:
                    raise InputError(f"-X {key} expects true or false, got '{text}'")
                parsed[key] = text.lower() in TRUE_WORDS
                continue
            try:
                parsed[key] = kind(text)
            except ValueError:
                raise InputError(f"-X {key} expects {kind.__name__}, got '{text}'") from None
        return parsed

    def __init__(self, language: str = "en", **options: object) -> None:
        self.language = language
        self.options = options

    def prepare(self, instances: Sequence[Instance]) -> None:
        """Build ahead what reading texts of ``instances`` will need (an instance-aware
        grammar's setup per race, say), so that it is built once: a run with ``--jobs``
        calls it in the parent, on an extractor of a class declaring ``prebuild``, with the
        instances of its language it holds, before forking the workers, which then share
        what it built (copy-on-write) instead of each building it again. Called at most
        once per run, never in a run of one process; claims must not depend on whether
        it was called. An instance it cannot prepare is left to ``extract`` (which says
        what is wrong with it, with its id). Does nothing by default."""

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
            except Exception as error:
                # A bug in an extractor (a plugin's, usually): say which one and on what.
                if not isinstance(error, FactcovError):
                    error.add_note(f"extractor '{self.name}' reading instance '{instance.id}'")
                raise
        return results


    def signature(self) -> str:
        """What identifies this extractor's behaviour in a score signature."""
        return self.name


class FailedExtraction(list):
    """The empty claim list of a text the extractor could not read, with why."""

    def __init__(self, reason: str) -> None:
        super().__init__()
        self.reason = reason
