"""An extractor backed by a chat model behind an OpenAI-compatible HTTP API (extra ``llm``).

The model is told the domain's claim types (name, key slots, value kind, description)
and asked for JSON: ``{"claims": [{"type", "key", "value", "quote"}]}``. Answers are
validated against the claim types (unknown types and key slots are dropped, never
guessed) and each claim's span is where its quote occurs in the text. Responses are
cached on disk by a hash of the request, so a rerun is deterministic and offline.

Settings (options or environment): ``base_url`` (``FACTCOV_LLM_BASE_URL``, e.g.
``http://127.0.0.1:8000/v1``), ``model`` (``FACTCOV_LLM_MODEL``), ``api_key``
(``FACTCOV_LLM_API_KEY``), ``cache_dir`` (``FACTCOV_LLM_CACHE``), ``timeout``
(``-X timeout=S`` on the command line or ``FACTCOV_LLM_TIMEOUT``, seconds for a whole request, body included; default 60),
``retries``. An answer that is not the JSON asked for, larger than 32 MiB or later than
the timeout raises ExtractionFailed: the run counts the text as a failure (summary.json
``extraction_failures``) instead of scoring it as a text without claims.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import time
from pathlib import Path
from typing import Any

from factcov import hookimpl
from factcov.errors import EnvironmentFailure, ExtractionFailed, FactcovError, InputError
from factcov.extractor import Extractor
from factcov.jsonl import write_text_atomic
from factcov.limits import MAX_HTTP_BODY_BYTES
from factcov.model import Claim, ClaimType, Instance

SYSTEM_PROMPT = (
    "You extract factual claims from a text. Return only JSON of the form "
    '{"claims": [{"type": ..., "key": {...}, "value": ..., "quote": ...}]}. '
    "Use only the claim types listed; leave out key slots the text does not say; "
    "`quote` is the exact words of the text that make the claim."
)


class LLMExtractor(Extractor):
    name = "llm"
    description = "claims read by a chat model (OpenAI-compatible API), validated against the claim types"
    domains = ("*",)
    languages = ("en", "es", "pt", "fr", "de", "it")

    # settable with -X; api_key is not: options are written into the score signature
    option_types = {"base_url": str, "model": str, "cache_dir": str, "timeout": float, "retries": int}

    def __init__(self, language: str = "en", **options: Any) -> None:
        super().__init__(language, **options)
        self.base_url = str(options.get("base_url") or os.environ.get("FACTCOV_LLM_BASE_URL", "")).rstrip("/")
        self.model = str(options.get("model") or os.environ.get("FACTCOV_LLM_MODEL", ""))
        self.api_key = options.get("api_key") or os.environ.get("FACTCOV_LLM_API_KEY")
        cache = options.get("cache_dir") or os.environ.get("FACTCOV_LLM_CACHE")
        self.cache_dir = Path(cache) if cache else None
        raw_timeout = options.get("timeout")
        if raw_timeout is None:
            raw_timeout = os.environ.get("FACTCOV_LLM_TIMEOUT") or 60
        try:
            self.timeout = float(raw_timeout)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            self.timeout = math.nan
        if not (math.isfinite(self.timeout) and self.timeout > 0):
            raise InputError(f"the llm timeout (-X timeout=S or FACTCOV_LLM_TIMEOUT) must be seconds above 0, "
                             f"got {raw_timeout!r}")
        self.retries = int(options.get("retries", 3))
        if not self.base_url or not self.model:
            raise FactcovError(
                "the llm extractor needs a server and a model: set FACTCOV_LLM_BASE_URL "
                "(an OpenAI-compatible /v1 URL) and FACTCOV_LLM_MODEL"
            )

    def signature(self) -> str:
        return f"llm:{self.model}"

    def extract(self, text: str, instance: Instance) -> list[Claim]:
        if not text.strip():
            return []
        from factcov.plugins import get_domain

        claim_types = {ct.name: ct for ct in get_domain(instance.domain).claim_types}
        answer = self._complete(self._messages(text, instance, claim_types.values()))
        return self._claims(answer, text, claim_types)

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
        request = {"model": self.model, "messages": messages, "temperature": 0, "response_format": {"type": "json_object"}}
        digest = hashlib.sha256(json.dumps(request, sort_keys=True).encode()).hexdigest()
        cached = self.cache_dir / f"{digest}.json" if self.cache_dir else None
        if cached is not None and cached.exists():
            return json.loads(cached.read_text())["content"]
        content = self._post(request)
        if cached is not None:
            write_text_atomic(cached, json.dumps({"content": content}))
        return content

    def _post(self, request: dict[str, Any]) -> str:
        import httpx

        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        last: Exception | None = None
        for attempt in range(self.retries):
            try:
                return self._post_once(httpx, request, headers)
            except httpx.TimeoutException:  # the time budget of this text is spent: count it, do not retry
                raise ExtractionFailed(f"the llm server did not answer within {self.timeout:g} s") from None
            except (httpx.TransportError, httpx.HTTPStatusError) as exc:
                last = exc
                if isinstance(exc, httpx.HTTPStatusError) and exc.response.status_code < 429:
                    break
                time.sleep(min(2**attempt * 0.5, 8))
        raise EnvironmentFailure(f"the llm extractor could not reach {self.base_url}: {last}")

    def _post_once(self, httpx: Any, request: dict[str, Any], headers: dict[str, str]) -> str:
        """One request under a total deadline (a trickling server cannot hold it) and a body cap."""
        deadline = time.monotonic() + self.timeout
        url = f"{self.base_url}/chat/completions"
        with httpx.stream("POST", url, json=request, headers=headers, timeout=self.timeout) as response:
            if response.status_code in (429, 500, 502, 503, 504):
                raise httpx.HTTPStatusError("retryable", request=response.request, response=response)
            response.raise_for_status()
            body = bytearray()
            for chunk in response.iter_raw():
                body += chunk
                if len(body) > MAX_HTTP_BODY_BYTES:
                    raise ExtractionFailed(f"the llm server's answer is larger than {MAX_HTTP_BODY_BYTES >> 20} MiB")
                if time.monotonic() > deadline:
                    raise ExtractionFailed(f"the llm server did not answer within {self.timeout:g} s")
        try:
            content = json.loads(bytes(body))["choices"][0]["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError, RecursionError):
            raise ExtractionFailed("the llm server's answer is not an OpenAI chat completion") from None
        if not isinstance(content, str):
            raise ExtractionFailed("the llm server's message content is not text")
        return content

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
            if not isinstance(item, dict) or item.get("type") not in claim_types:
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


@hookimpl
def register_extractors(register):
    register(LLMExtractor)
