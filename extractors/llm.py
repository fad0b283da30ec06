"""An extractor backed by a chat model behind an OpenAI-compatible HTTP API (extra ``llm``).

The model is told the domain's claim types (name, key slots, value kind, description)
and asked for JSON: ``{"claims": [{"type", "key", "value", "quote"}]}``. Answers are
validated against the claim types (unknown types and key slots are dropped, never
guessed) and each claim's span is where its quote occurs in the text. Requests go through
:class:`factcov.chat.ChatClient` (retries, backoff, the on-disk response cache keyed by
the request), so a rerun is deterministic and offline.

Settings (options or environment): ``base_url`` (``FACTCOV_LLM_BASE_URL``, e.g.
``http://127.0.0.1:8000/v1``), ``model`` (``FACTCOV_LLM_MODEL``), ``api_key``
(``FACTCOV_LLM_API_KEY``), ``cache_dir`` (``FACTCOV_LLM_CACHE``), ``timeout`` (``-X
timeout=S`` or ``FACTCOV_LLM_TIMEOUT``; seconds for a whole request, body included),
``retries``, ``concurrency`` (requests in flight when a batch of texts is extracted).
A model answer that is not the JSON object asked for (or whose ``claims`` is not a list)
is an ExtractionFailed for that text: the run counts it (summary.json
``extraction_failures``) instead of scoring it as a text without claims.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from factcov import hookimpl
from factcov.chat import ChatClient, ChatError, ServerUnreachable
from factcov.errors import ExtractionFailed, FactcovError, InputError
from factcov.extractor import Extractor, FailedExtraction
from factcov.limits import MAX_CONCURRENCY, MAX_RETRIES
from factcov.model import Claim, ClaimType, Instance

# The same bounds as the command line's twins (--timeout, --retries, --concurrency of generate):
# -X retries=1000000000 against a dead server would otherwise never end.
MIN_TIMEOUT_S = 0.1

SYSTEM_PROMPT = (
    "You extract factual claims from a text. Return only JSON of the form "
    '{"claims": [{"type": ..., "key": {...}, "value": ..., "quote": ...}]}. '
    "Use only the claim types listed; leave out key slots the text does not say; "
    "`quote` is the exact words of the text that make the claim."
)


REQUEST_PARAMETERS = {"temperature": 0, "response_format": {"type": "json_object"}}


class LLMExtractor(Extractor):
    name = "llm"
    description = "claims read by a chat model (OpenAI-compatible API), validated against the claim types"
    domains = ("*",)
    languages = ("en", "es", "pt", "fr", "de", "it")

    # settable with -X; api_key is not: options are written into the score signature
    option_types = {"base_url": str, "model": str, "cache_dir": str, "timeout": float, "retries": int,
                    "concurrency": int}
    # like a batch size, concurrency changes speed, not claims
    unsigned_options = frozenset({"concurrency"})

    def __init__(self, language: str = "en", **options: Any) -> None:
        super().__init__(language, **options)
        self.base_url = str(options.get("base_url") or os.environ.get("FACTCOV_LLM_BASE_URL", "")).rstrip("/")
        self.model = str(options.get("model") or os.environ.get("FACTCOV_LLM_MODEL", ""))
        cache = options.get("cache_dir") or os.environ.get("FACTCOV_LLM_CACHE")
        self.cache_dir = Path(cache) if cache else None
        raw_timeout = options.get("timeout")
        if raw_timeout is None:
            raw_timeout = os.environ.get("FACTCOV_LLM_TIMEOUT") or 60
        try:
            self.timeout = float(raw_timeout)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            self.timeout = math.nan
        if not (math.isfinite(self.timeout) and self.timeout >= MIN_TIMEOUT_S):
            raise InputError(f"the llm timeout (-X timeout=S or FACTCOV_LLM_TIMEOUT) must be seconds, at least "
                             f"{MIN_TIMEOUT_S:g}, got {raw_timeout!r}")
        self.retries = _bounded(options, "retries", 3, MAX_RETRIES)
        concurrency = _bounded(options, "concurrency", 4, MAX_CONCURRENCY)
        if not self.base_url or not self.model:
            raise FactcovError(
                "the llm extractor needs a server and a model: set FACTCOV_LLM_BASE_URL "
                "(an OpenAI-compatible /v1 URL) and FACTCOV_LLM_MODEL"
            )
        # The shared client owns retries (429/5xx/timeouts) and the response cache.
        self.client = ChatClient(
            self.base_url, self.model, api_key=options.get("api_key"), cache_dir=self.cache_dir,
            timeout=self.timeout, retries=self.retries, concurrency=concurrency,
        )

    def signature(self) -> str:
        return f"llm:{self.model}"

    def extract(self, text: str, instance: Instance) -> list[Claim]:
        if not text.strip():
            return []
        from factcov.plugins import get_domain

        claim_types = {ct.name: ct for ct in get_domain(instance.domain).claim_types}
        try:
            answer = self._complete(self._messages(text, instance, claim_types.values()))
        except ServerUnreachable:
            raise  # no text can be read: the run stops
        except ChatError as error:  # this text's request failed: counted, gated by the failure threshold
            raise ExtractionFailed(str(error)) from None
        return self._claims(answer, text, claim_types)

    def extract_batch(self, texts: Sequence[str], instances: Sequence[Instance]) -> list[list[Claim]]:
        """The texts' requests in flight ``concurrency`` at a time; claims in input order."""
        from factcov.plugins import get_domain

        types_of = {i.domain: {ct.name: ct for ct in get_domain(i.domain).claim_types} for i in instances}
        jobs = [(n, self._messages(text, instance, types_of[instance.domain].values()))
                for n, (text, instance) in enumerate(zip(texts, instances)) if text.strip()]
        answers: dict[int, str | ChatError] = {}
        for n, answer in self.client.complete_many(jobs, **REQUEST_PARAMETERS):
            # One text's failed request (a silent server, 5xx after every retry) is that text's
            # failure, counted and gated by FACTCOV_MAX_EXTRACTION_FAILURES; a server nobody can
            # reach stops the run (complete_many raises ServerUnreachable).
            answers[n] = answer if isinstance(answer, ChatError) else answer.content
        return [self._claims_or_failure(answers[n], text, types_of[instance.domain]) if n in answers else []
                for n, (text, instance) in enumerate(zip(texts, instances))]

    def _claims_or_failure(self, answer: str | ChatError, text: str, claim_types: dict[str, ClaimType]) -> list[Claim]:
        if isinstance(answer, ChatError):
            return FailedExtraction(str(answer))
        try:
            return self._claims(answer, text, claim_types)
        except ExtractionFailed as error:
            return FailedExtraction(str(error))

    def _messages(self, text: str, instance: Instance, claim_types) -> list[dict[str, str]]:
        described = "\n".join(
            f"- {ct.name}: {ct.description}; key slots {list(ct.key_slots)}; value {ct.value_kind}"
            + (f" one of {list(ct.choices)}" if ct.choices else "")
            for ct in claim_types
        )
        user = (
            f"Claim types:\n{described}\n\nLanguage: {self.language}. Data the text was written from "
            f"(for names and units only):\n{json.dumps(instance.context, ensure_ascii=False)[:4000]}\n\n"
            f"Text:\n{text}"
        )
        return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": user}]

    def _complete(self, messages: list[dict[str, str]]) -> str:
        return self.client.complete(messages, **REQUEST_PARAMETERS).content

    def _claims(self, answer: str, text: str, claim_types: dict[str, ClaimType]) -> list[Claim]:
        try:
            items = json.loads(answer).get("claims", [])
        except (ValueError, AttributeError, RecursionError):
            raise ExtractionFailed(f"the model did not answer with a JSON object: {answer[:80]!r}") from None
        if not isinstance(items, list):
            raise ExtractionFailed(f"the model's 'claims' is a {type(items).__name__}, not a list")
        claims = []
        cursor = 0
        for item in items:
            # a type that is not a name (a list, an object) is a bad claim like an unknown type: dropped
            if not isinstance(item, dict) or not isinstance(item.get("type"), str) or item["type"] not in claim_types:
                continue
            claim_type = claim_types[item["type"]]
            key = item.get("key") if isinstance(item.get("key"), dict) else {}
            key = {k: v for k, v in key.items() if k in claim_type.key_slots and not isinstance(v, (dict, list))}
            quote = str(item.get("quote") or "")
            start = text.find(quote, cursor) if quote else -1
            if start < 0 and quote:
                start = text.find(quote)
            span = (start, start + len(quote)) if start >= 0 else None
            if span:
                cursor = span[1]
            try:
                claims.append(Claim(type=claim_type.name, key=key, value=item.get("value"), span=span,
                                    text=quote, extractor=self.name))
            except ValueError:
                continue
        return claims


def _bounded(options: dict[str, Any], name: str, default: int, most: int) -> int:
    raw = options.get(name, default)
    try:
        value = int(raw)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        value = 0
    if isinstance(raw, bool) or not 1 <= value <= most:
        raise InputError(f"-X {name} must be a whole number from 1 to {most}, got {raw!r}")
    return value


@hookimpl
def register_extractors(register):
    register(LLMExtractor)
