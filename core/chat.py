"""One client for OpenAI-compatible chat APIs (vLLM, Ollama, llama.cpp's server, hosted APIs).

Shared by ``factcov generate``/``refine`` and the ``llm`` extractor, so there is one retry
loop and one cache:

- retries with exponential backoff on 429 (honouring ``Retry-After``), 5xx, timeouts,
  transport errors and answers that are not a complete chat completion (truncated JSON,
  no choices, an empty message); 4xx other than 429 fail at once;
- an on-disk cache keyed by the hash of (model, messages, parameters): a rerun sends no
  request it already has an answer for;
- ``complete_many`` runs requests on at most ``concurrency`` threads and hands each
  outcome to the caller as it arrives (the caller is the only writer of its files);
- ``timeout`` is a deadline per request: connecting, the status line, the headers and the
  body together (a server dripping a byte a second cannot hold a run past it);
- before its first request the client probes the server (``GET /models``): nothing
  listening is one clear error at once ("is the server running at …?"), a 404 at a URL
  without ``/v1`` says so; after ``MAX_CONSECUTIVE_UNREACHABLE`` requests in a row that
  could not connect the run stops instead of failing every remaining request slowly;
- an interrupted ``complete_many`` (SIGTERM, Ctrl-C, the caller failed) stops its threads
  within ``POLL_S``: no retry sleeps and no read waits on after the caller has gone.

The API key is read from an environment variable only and never appears in an error,
a log line or the cache.
"""

from __future__ import annotations

import hashlib
import json
import math
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
# Requests in a row that could not even connect before the run stops (a server that died mid-run).
MAX_CONSECUTIVE_UNREACHABLE = 3
# How often a waiting thread looks whether its run was interrupted (seconds).
POLL_S = 0.2
# Seconds the reachability probe may take (a server computing an answer still accepts connections).
PROBE_TIMEOUT_S = 10.0
# Token counts above this are not counts (a server's garbage: 1e400, 400-digit integers).
MAX_TOKEN_COUNT = 10**12
USAGE_FIELDS = ("prompt_tokens", "completion_tokens", "total_tokens")

K = TypeVar("K")


class ChatError(FactcovError):
    """The server gave no usable answer after every retry (the network or the model failed)."""

    exit_code = 3
    # timed out while other requests were in flight: maybe only queued at a server that computes
    # one request at a time (complete_many asks it again with one in flight)
    queued = False


class ServerUnreachable(ChatError):
    """No request can succeed (nothing listens, a wrong URL, a refused key): the whole run stops,
    it is not one text's failure."""


class Interrupted(Exception):
    """The run that asked this request has stopped (a signal, the caller's error): give up at once."""


@dataclass(frozen=True)
class ChatAnswer:
    content: str
    usage: dict[str, int] = field(default_factory=dict)
    finish_reason: str | None = None
    cached: bool = False
    # A reasoning model's thinking when the server returns it apart (``reasoning_content``).
    reasoning: str | None = None


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
        self._stop = threading.Event()
        self._probe_lock = threading.Lock()
        self._probed = False
        self._unreachable_lock = threading.Lock()
        self._unreachable_in_a_row = 0
        self._in_flight = _Limiter(concurrency, self._stop)

    def _http(self):
        try:
            import httpx
        except ImportError:
            raise ChatError("talking to a chat model needs httpx: pip install 'factcov[llm]'") from None

        client = getattr(self._local, "client", None)
        if client is None:
            headers = {"Authorization": f"Bearer {self._api_key}"} if self._api_key else {}
            client = self._local.client = httpx.Client(headers=headers, timeout=self.timeout)
            _bound_network(client, self._local, self._stop)
        return client

    def request(self, messages: list[dict[str, str]], **parameters: Any) -> dict[str, Any]:
        return {"model": self.model, "messages": messages, **parameters}

    def complete(self, messages: list[dict[str, str]], **parameters: Any) -> ChatAnswer:
        """The model's answer, from the cache when this exact request was answered before."""
        request = self.request(messages, **parameters)
        cached = self._cache_path(request)
        if cached is not None:
            answer = _read_cached(cached)
            if answer is not None:
                return answer
        with self._in_flight:  # the deadline starts once the request is sent, not while it waits here
            answer = self._post(request)
        if cached is not None:
            write_text_atomic(cached, json.dumps(
                {"content": answer.content, "usage": answer.usage, "finish_reason": answer.finish_reason,
                 "reasoning": answer.reasoning},
                ensure_ascii=False, sort_keys=True))
        return answer

    def complete_many(
        self, jobs: Iterable[tuple[K, list[dict[str, str]]]], **parameters: Any
    ) -> Iterator[tuple[K, ChatAnswer | ChatError]]:
        """(key, answer or the error) per job, in completion order, at most ``concurrency`` at once."""
        pending: dict[Future, tuple[K, list[dict[str, str]]]] = {}
        iterator = iter(jobs)
        asked_again: set[int] = set()
        self._stop.clear()
        with ThreadPoolExecutor(max_workers=self.concurrency, thread_name_prefix="factcov-chat") as pool:
            def fill() -> None:
                while len(pending) < self.concurrency * 2:
                    job = next(iterator, None)
                    if job is None:
                        return
                    pending[pool.submit(self._complete_in_batch, job[1], **parameters)] = job

            try:
                fill()
                while pending:
                    done, _ = wait(pending, return_when=FIRST_COMPLETED)
                    for future in done:
                        key, messages = pending.pop(future)
                        error = future.exception()
                        if error is not None and (not isinstance(error, ChatError)
                                                  or isinstance(error, ServerUnreachable)):
                            raise error
                        if isinstance(error, ChatError) and error.queued and id(messages) not in asked_again:
                            # Timed out while others were in flight: a server that computes one request
                            # at a time (llama.cpp, Ollama by default) kept it queued. Go on one at a time
                            # and ask it again, so queueing is not counted against --timeout.
                            self._one_at_a_time()
                            asked_again.add(id(messages))
                            pending[pool.submit(self._complete_in_batch, messages, **parameters)] = (key, messages)
                            continue
                        yield key, error if error is not None else future.result()
                    fill()
            finally:  # interrupted (a signal, the caller failed): start nothing queued, stop what runs
                for future in pending:
                    future.cancel()
                if pending:
                    self._stop.set()

    def _complete_in_batch(self, messages: list[dict[str, str]], **parameters: Any) -> ChatAnswer:
        self._local.in_batch = True  # a timeout among others in flight comes back at once (see _post)
        return self.complete(messages, **parameters)

    def _one_at_a_time(self) -> None:
        if self._in_flight.limit > 1:
            import warnings

            warnings.warn(f"requests to {self.base_url} timed out while {self._in_flight.limit} were in flight: the "
                          "server seems to compute one at a time; going on with one request in flight "
                          "(--concurrency 1 avoids this)", stacklevel=2)
            self._in_flight.set_limit(1)

    def _cache_path(self, request: dict[str, Any]) -> Path | None:
        if self.cache_dir is None:
            return None
        digest = request_digest(request)
        return self.cache_dir / f"{digest}.json"

    def _bounded_post(self, client: Any, url: str, request: dict[str, Any]) -> tuple[int, str | None, bytes]:
        """POST under a deadline of ``timeout`` seconds for the whole exchange (connect, status line,
        headers, body) and a size cap: (status, its Retry-After header, the body)."""
        deadline = time.monotonic() + self.timeout
        self._local.deadline = deadline
        try:
            with client.stream("POST", url, json=request) as streamed:
                body = _read_bounded(streamed, deadline, self.timeout)
                # Raw bytes: a header value that is not ASCII (X-Note: café) must not fail a good answer.
                retry_after = next((value.decode("latin-1") for name, value in streamed.headers.raw
                                    if name.lower() == b"retry-after"), None)
                return streamed.status_code, retry_after, body
        finally:
            self._local.deadline = None

    def probe(self) -> None:
        """Is anything answering at ``base_url``? One ``GET /models`` before the first request;
        raises ServerUnreachable with what to check, else returns (any HTTP answer will do)."""
        with self._probe_lock:
            if self._probed:
                return
            client = self._http()
            import httpx

            url = f"{self.base_url}/models"
            deadline = time.monotonic() + min(self.timeout, PROBE_TIMEOUT_S)
            self._local.deadline = deadline
            try:
                with client.stream("GET", url, timeout=min(self.timeout, PROBE_TIMEOUT_S)) as streamed:
                    status = streamed.status_code
            except (httpx.ConnectError, httpx.ConnectTimeout) as error:
                raise ServerUnreachable(f"cannot connect to {self.base_url} ({_reason(error)}); "
                                        f"is the server running at {self.base_url}?") from None
            except httpx.HTTPError:
                status = None  # it accepted the connection: a server is there, busy or odd
            finally:
                self._local.deadline = None
            if status == 404 and not _ends_with_version(self.base_url):
                raise ServerUnreachable(f"{url} answered HTTP 404: {_V1_HINT.format(url=self.base_url)}")
            self._probed = True

    def _post(self, request: dict[str, Any]) -> ChatAnswer:
        client = self._http()  # first: a missing httpx is one clear error
        import httpx

        self.probe()
        url = f"{self.base_url}/chat/completions"
        reason = "no attempt"
        queued = False
        for attempt in range(self.retries):
            wait_s: float | None = None
            connected = True
            try:
                status, retry_after, body = self._bounded_post(client, url, request)
            except httpx.ConnectTimeout:
                reason = f"timed out connecting ({self.timeout:g} s)"
                connected = False
            except httpx.TimeoutException:
                reason = f"timed out: no complete answer within {self.timeout:g} s (the whole request)"
                if getattr(self._local, "in_batch", False) and self._in_flight.active > 1:
                    queued = True  # maybe queued behind the others: complete_many asks again, one in flight
                    break
            except httpx.ConnectError as exc:
                reason = f"cannot connect: {_reason(exc)}"
                connected = False
            except httpx.TransportError as exc:
                reason = f"{type(exc).__name__}: {_reason(exc)}"
            else:
                if status == 200:
                    answer, reason = _parse(body)
                    if answer is not None:
                        self._reached()
                        return answer
                elif status in RETRYABLE_STATUS:
                    reason = f"HTTP {status}"
                    wait_s = _retry_after(retry_after)
                else:
                    if status in (401, 403):
                        raise ServerUnreachable(f"{url} answered HTTP {status} (is {self.api_key_env} set?); "
                                                "not retried")
                    if status == 404:
                        hint = (_V1_HINT.format(url=self.base_url) if not _ends_with_version(self.base_url)
                                else "is --base-url the server's OpenAI-compatible URL?")
                        raise ServerUnreachable(f"{url} answered HTTP 404: {hint}")
                    raise ChatError(f"{url} answered HTTP {status}; not retried")
            if connected:
                self._reached()
            if attempt + 1 < self.retries:
                if wait_s is None:
                    wait_s = self.backoff * 2**attempt * (1 + random.random() / 4)
                if self._stop.wait(min(wait_s, MAX_BACKOFF_S)):
                    raise Interrupted("the run was interrupted")
        if not connected:
            self._unreachable(url, reason)
        error = ChatError(f"no usable answer from {url} after {self.retries} attempt(s): {reason}")
        error.queued = queued
        raise error

    def _reached(self) -> None:
        with self._unreachable_lock:
            self._unreachable_in_a_row = 0

    def _unreachable(self, url: str, reason: str) -> None:
        """One more request that never connected; past the limit the whole run stops."""
        with self._unreachable_lock:
            self._unreachable_in_a_row += 1
            count = self._unreachable_in_a_row
        if count >= MAX_CONSECUTIVE_UNREACHABLE:
            raise ServerUnreachable(f"{count} requests in a row could not connect to {url} ({reason}); "
                                    f"is the server running at {self.base_url}?")


class _Limiter:
    """At most ``limit`` requests in flight; the limit can drop while requests wait (never below 1)."""

    def __init__(self, limit: int, stop: threading.Event) -> None:
        self.limit = limit
        self.active = 0
        self._changed = threading.Condition()
        self._stop = stop

    def set_limit(self, limit: int) -> None:
        with self._changed:
            self.limit = max(1, limit)
            self._changed.notify_all()

    def __enter__(self) -> None:
        with self._changed:
            while self.active >= self.limit:
                if self._stop.is_set():
                    raise Interrupted("the run was interrupted")
                self._changed.wait(POLL_S)
            self.active += 1

    def __exit__(self, *exc: object) -> None:
        with self._changed:
            self.active -= 1
            self._changed.notify_all()


_V1_HINT = ("OpenAI-compatible servers serve their API under /v1 (vLLM, llama.cpp, Ollama, OpenAI); "
            "try --base-url {url}/v1")


def _ends_with_version(url: str) -> bool:
    from urllib.parse import urlsplit

    last = urlsplit(url).path.rstrip("/").rsplit("/", 1)[-1]
    return len(last) >= 2 and last[0] == "v" and last[1].isdigit()


def _reason(error: BaseException) -> str:
    return str(error) or type(error).__name__


def _read_cached(path: Path) -> ChatAnswer | None:
    """A cached answer, or None when there is none or it is damaged (asked again and rewritten):
    a poisoned entry (not JSON, nested past the parser, fields of the wrong kind) is never fatal."""
    from factcov.limits import MAX_HTTP_BODY_BYTES

    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_HTTP_BODY_BYTES + 1)
        if len(raw) > MAX_HTTP_BODY_BYTES:
            return None
        stored = json.loads(raw.decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(stored, dict):
        return None
    content, finish, reasoning = stored.get("content"), stored.get("finish_reason"), stored.get("reasoning")
    if not isinstance(content, str) or not content.strip() or not (finish is None or isinstance(finish, str)):
        return None
    return ChatAnswer(content, _usage(stored.get("usage")), finish, cached=True,
                      reasoning=reasoning if isinstance(reasoning, str) else None)


def _bound_network(client: Any, local: threading.local, stop: threading.Event) -> None:
    """Every socket of ``client`` obeys the calling thread's deadline (``local.deadline``) and ``stop``.

    httpx's own timeouts are per socket operation, so a server sending its status line a byte
    a second never times out; here each read and write waits at most what is left of the
    request's deadline, in slices of POLL_S so an interrupted run is noticed at once."""
    transports = [getattr(client, "_transport", None), *getattr(client, "_mounts", {}).values()]
    for transport in transports:
        pool = getattr(transport, "_pool", None)
        backend = getattr(pool, "_network_backend", None)
        if backend is not None and not isinstance(backend, _DeadlineBackend):
            pool._network_backend = _DeadlineBackend(backend, local, stop)


class _DeadlineClock:
    def __init__(self, local: threading.local, stop: threading.Event) -> None:
        self.local = local
        self.stop = stop

    def slices(self, timeout: float | None, expired: type[Exception]) -> Iterator[float]:
        """Timeouts to wait with, one per slice, until the operation's own timeout or the deadline."""
        limit = time.monotonic() + timeout if timeout is not None else None
        deadline = getattr(self.local, "deadline", None)
        if deadline is not None:
            limit = deadline if limit is None else min(limit, deadline)
        while True:
            if self.stop.is_set():
                raise Interrupted("the run was interrupted")
            left = None if limit is None else limit - time.monotonic()
            if left is not None and left <= 0:
                raise expired("the request's deadline passed")
            yield POLL_S if left is None else min(POLL_S, left)


class _DeadlineStream:
    def __init__(self, inner: Any, clock: _DeadlineClock) -> None:
        self._inner = inner
        self._clock = clock

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        import httpcore

        for wait_s in self._clock.slices(timeout, httpcore.ReadTimeout):
            try:
                return self._inner.read(max_bytes, wait_s)
            except httpcore.ReadTimeout:
                continue
        raise AssertionError("unreachable")  # pragma: no cover

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        import httpcore

        self._inner.write(buffer, _left(self._clock, timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self._inner.close()

    def start_tls(self, ssl_context: Any, server_hostname: str | None = None, timeout: float | None = None) -> Any:
        return _DeadlineStream(self._inner.start_tls(ssl_context, server_hostname, _left(self._clock, timeout)),
                               self._clock)

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


def _left(clock: _DeadlineClock, timeout: float | None, expired: type[Exception] | None = None) -> float | None:
    """Seconds an operation that cannot be sliced may take: its timeout, cut to the deadline."""
    import httpcore

    deadline = getattr(clock.local, "deadline", None)
    if deadline is None:
        return timeout
    left = deadline - time.monotonic()
    if left <= 0:
        raise (expired or httpcore.ConnectTimeout)("the request's deadline passed")
    return left if timeout is None else min(timeout, left)


class _DeadlineBackend:
    def __init__(self, inner: Any, local: threading.local, stop: threading.Event) -> None:
        self._inner = inner
        self._clock = _DeadlineClock(local, stop)

    def connect_tcp(self, host: str, port: int, timeout: float | None = None, **kwargs: Any) -> Any:
        if self._clock.stop.is_set():
            raise Interrupted("the run was interrupted")
        return _DeadlineStream(self._inner.connect_tcp(host, port, _left(self._clock, timeout), **kwargs),
                               self._clock)

    def connect_unix_socket(self, path: str, timeout: float | None = None, **kwargs: Any) -> Any:
        return _DeadlineStream(self._inner.connect_unix_socket(path, _left(self._clock, timeout), **kwargs),
                               self._clock)

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(seconds)


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
    """Seconds from a ``Retry-After`` header (delta seconds); anything else (an HTTP date,
    garbage, NaN, a negative or endless wait) is unknown: the default back-off applies."""
    if not value:
        return None
    try:
        seconds = float(value.strip())
    except ValueError:
        return None
    return seconds if math.isfinite(seconds) and 0 <= seconds <= MAX_BACKOFF_S else None


def _usage(raw: Any) -> dict[str, int]:
    """The server's token counts that are counts: whole, finite, not negative, not absurd (NaN,
    1e400 and 400-digit integers are left out, never written where ``score`` reads)."""
    if not isinstance(raw, dict):
        return {}
    counts = {}
    for name in USAGE_FIELDS:
        value = raw.get(name)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            continue
        if isinstance(value, float) and not (math.isfinite(value) and value.is_integer()):
            continue
        if 0 <= value <= MAX_TOKEN_COUNT:
            counts[name] = int(value)
    return counts


def _parse(body: bytes) -> tuple[ChatAnswer | None, str]:
    try:
        answer = json.loads(body.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None, f"answer is not complete JSON ({len(body)} bytes)"
    except RecursionError:  # the server's fault (exit 3 after retries), not the user's input
        return None, "answer is JSON nested too deeply to read"
    try:
        choice = answer["choices"][0]
        content = choice["message"]["content"]
    except (KeyError, IndexError, TypeError):
        return None, "answer has no choices[0].message.content"
    if not isinstance(content, str) or not content.strip():
        return None, "empty answer"
    finish = choice.get("finish_reason") if isinstance(choice, dict) else None
    message = choice["message"]
    reasoning = message.get("reasoning_content") or message.get("reasoning") if isinstance(message, dict) else None
    return ChatAnswer(content, _usage(answer.get("usage")), finish if isinstance(finish, str) else None,
                      reasoning=reasoning if isinstance(reasoning, str) else None), ""
