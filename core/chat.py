"""One client for OpenAI-compatible chat APIs (vLLM, Ollama, llama.cpp's server, hosted APIs).

Shared by ``factcov generate``/``refine`` and the ``llm`` extractor, so there is one retry
loop and one cache:

- retries with exponential backoff on 429 (honouring ``Retry-After``), 5xx, timeouts,
  transport errors and answers that are not a complete chat completion (truncated JSON,
  no choices, an empty message); 4xx other than 429 fail at once;
- an on-disk cache keyed by the hash of (model, messages, parameters): a rerun sends no
  request it already has an answer for;
- ``complete_many`` runs requests on at most ``concurrency`` threads and hands each
  outcome to the caller as it arrives (the caller is the only writer of its files).

The API key is read from an environment variable only and never appears in an error,
a log line or the cache.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import threading
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from factcov.errors import FactcovError
from factcov.jsonl import write_text_atomic

RETRYABLE_STATUS = frozenset({408, 429, 500, 502, 503, 504})
MAX_BACKOFF_S = 30.0
DEFAULT_KEY_ENV = "FACTCOV_LLM_API_KEY"

K = TypeVar("K")


class ChatError(FactcovError):
    """The server gave no usable answer after every retry (the network or the model failed)."""

    exit_code = 3


@dataclass(frozen=True)
class ChatAnswer:
    content: str
    usage: dict[str, int] = field(default_factory=dict)
    finish_reason: str | None = None
    cached: bool = False


def request_digest(request: dict[str, Any]) -> str:
    """Cache key: the whole request body (model, messages, every parameter), canonical JSON."""
    return hashlib.sha256(json.dumps(request, sort_keys=True).encode()).hexdigest()


class ChatClient:
    """A thread-safe client of ``{base_url}/chat/completions``."""

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key_env: str = DEFAULT_KEY_ENV,
        api_key: str | None = None,
        cache_dir: str | Path | None = None,
        timeout: float = 60.0,
        retries: int = 3,
        concurrency: int = 4,
        backoff: float = 0.5,
    ) -> None:
        if not base_url or not model:
            raise FactcovError("a chat model needs a server and a model name: give --base-url and --model")
        if retries < 1 or concurrency < 1:
            raise FactcovError("retries and concurrency must be at least 1")
        self.base_url = base_url.rstrip("/")
        self.model = model
        # Read once, kept off every message: errors name the variable, never its value.
        self._api_key = api_key or os.environ.get(api_key_env) or None
        self.api_key_env = api_key_env
        self.cache_dir = Path(cache_dir) if cache_dir else None
        self.timeout = timeout
        self.retries = retries
        self.concurrency = concurrency
        self.backoff = backoff
        self._local = threading.local()

    def _http(self):
        try:
            import httpx
        except ImportError:
            raise ChatError("talking to a chat model needs httpx: pip install 'factcov[llm]'") from None

        client = getattr(self._local, "client", None)
        if client is None:
            headers = {"Authorization": f"Bearer {self._api_key}"} if self._api_key else {}
            client = self._local.client = httpx.Client(headers=headers, timeout=self.timeout)
        return client

    def request(self, messages: list[dict[str, str]], **parameters: Any) -> dict[str, Any]:
        return {"model": self.model, "messages": messages, **parameters}

    def complete(self, messages: list[dict[str, str]], **parameters: Any) -> ChatAnswer:
        """The model's answer, from the cache when this exact request was answered before."""
        request = self.request(messages, **parameters)
        cached = self._cache_path(request)
        if cached is not None and cached.exists():
            try:
                stored = json.loads(cached.read_text(encoding="utf-8"))
                return ChatAnswer(stored["content"], stored.get("usage", {}), stored.get("finish_reason"), cached=True)
            except (json.JSONDecodeError, KeyError, TypeError):
                pass  # a damaged entry is asked again and rewritten
        answer = self._post(request)
        if cached is not None:
            write_text_atomic(cached, json.dumps(
                {"content": answer.content, "usage": answer.usage, "finish_reason": answer.finish_reason},
                ensure_ascii=False, sort_keys=True))
        return answer

    def complete_many(
        self, jobs: Iterable[tuple[K, list[dict[str, str]]]], **parameters: Any
    ) -> Iterator[tuple[K, ChatAnswer | ChatError]]:
        """(key, answer or the error) per job, in completion order, at most ``concurrency`` at once."""
        pending: dict[Future, K] = {}
        iterator = iter(jobs)
        with ThreadPoolExecutor(max_workers=self.concurrency, thread_name_prefix="factcov-chat") as pool:
            def fill() -> None:
                while len(pending) < self.concurrency * 2:
                    job = next(iterator, None)
                    if job is None:
                        return
                    pending[pool.submit(self.complete, job[1], **parameters)] = job[0]

            try:
                fill()
                while pending:
                    done, _ = wait(pending, return_when=FIRST_COMPLETED)
                    for future in done:
                        key = pending.pop(future)
                        error = future.exception()
                        if error is not None and not isinstance(error, ChatError):
                            raise error
                        yield key, error if error is not None else future.result()
                    fill()
            finally:  # interrupted (Ctrl-C, the caller failed): do not start what is queued
                for future in pending:
                    future.cancel()

    def _cache_path(self, request: dict[str, Any]) -> Path | None:
        if self.cache_dir is None:
            return None
        digest = request_digest(request)
        return self.cache_dir / f"{digest}.json"

    def _bounded_post(self, client: Any, url: str, request: dict[str, Any]) -> Any:
        """POST under a total deadline of ``timeout`` seconds, body included, and a size cap."""
        import httpx

        deadline = time.monotonic() + self.timeout
        with client.stream("POST", url, json=request) as streamed:
            body = _read_bounded(streamed, deadline, self.timeout)
            headers = {k: v for k, v in streamed.headers.items()
                       if k.lower() not in ("content-encoding", "content-length", "transfer-encoding")}
            return httpx.Response(streamed.status_code, headers=headers, content=body, request=streamed.request)

    def _post(self, request: dict[str, Any]) -> ChatAnswer:
        client = self._http()  # first: a missing httpx is one clear error
        import httpx

        url = f"{self.base_url}/chat/completions"
        reason = "no attempt"
        for attempt in range(self.retries):
            wait_s: float | None = None
            try:
                response = self._bounded_post(client, url, request)
            except httpx.TimeoutException:
                reason = f"timed out after {self.timeout:g} s"
            except httpx.TransportError as exc:
                reason = f"{type(exc).__name__}: {exc}"
            else:
                status = response.status_code
                if status == 200:
                    answer, reason = _parse(response)
                    if answer is not None:
                        return answer
                elif status in RETRYABLE_STATUS:
                    reason = f"HTTP {status}"
                    wait_s = _retry_after(response.headers.get("Retry-After"))
                else:
                    hint = f" (is {self.api_key_env} set?)" if status in (401, 403) else ""
                    raise ChatError(f"{url} answered HTTP {status}{hint}; not retried")
            if attempt + 1 < self.retries:
                if wait_s is None:
                    wait_s = self.backoff * 2**attempt * (1 + random.random() / 4)
                time.sleep(min(wait_s, MAX_BACKOFF_S))
        raise ChatError(f"no usable answer from {url} after {self.retries} attempt(s): {reason}")


def _read_bounded(response: Any, deadline: float, timeout: float) -> bytes:
    """The body in chunks: past MAX_HTTP_BODY_BYTES or the request's total deadline it is refused
    (a server streaming forever, or one byte a second, cannot hold a run)."""
    import httpx

    from factcov.limits import MAX_HTTP_BODY_BYTES

    body = bytearray()
    for chunk in response.iter_bytes():  # decoded: the cap holds for a compressed bomb too
        body += chunk
        if len(body) > MAX_HTTP_BODY_BYTES:
            raise ChatError(f"the answer is larger than {MAX_HTTP_BODY_BYTES >> 20} MiB; refused")
        if time.monotonic() > deadline:
            raise httpx.ReadTimeout(f"no complete answer within {timeout:g} s")
    return bytes(body)


def _retry_after(value: str | None) -> float | None:
    """Seconds from a ``Retry-After`` header (delta seconds; an HTTP date counts as unknown)."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        return None


def _parse(response) -> tuple[ChatAnswer | None, str]:
    try:
        body = response.json()
    except (json.JSONDecodeError, UnicodeDecodeError, ValueError):
        return None, f"answer is not complete JSON ({len(response.content)} bytes)"
    try:
        choice = body["choices"][0]
        content = choice["message"]["content"]
    except (KeyError, IndexError, TypeError):
        return None, "answer has no choices[0].message.content"
    if not isinstance(content, str) or not content.strip():
        return None, "empty answer"
    usage = body.get("usage") if isinstance(body.get("usage"), dict) else {}
    counts = {k: int(v) for k, v in usage.items() if k in ("prompt_tokens", "completion_tokens", "total_tokens")
              and isinstance(v, (int, float))}
    return ChatAnswer(content, counts, choice.get("finish_reason")), ""

