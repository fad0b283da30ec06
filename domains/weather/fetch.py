"""Ask the NWS API for a point's forecast: ``/points/{lat},{lon}`` then its gridpoint forecast.

Stdlib only (urllib): a proper User-Agent (NWS asks for one that identifies the caller),
a total deadline on every request (body included, so a server trickling bytes cannot
hold it), a cap on the answer's size, redirects followed on the API's own host only,
retries with exponential backoff on network errors, 429 and 5xx, and an on-disk cache
(one JSON file per URL, written atomically, reused while younger than ``max_age``
seconds; a damaged entry is fetched again). Network failures exit 3, bad options 2.
"""

from __future__ import annotations

import hashlib
import http.client
import math
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from factcov import __version__
from factcov.errors import EnvironmentFailure, FactcovError, InputError
from factcov.jsonl import parse_json_line, write_text_atomic
from factcov.limits import MAX_HTTP_BODY_BYTES, MAX_RETRIES

DEFAULT_BASE_URL = "https://api.weather.gov"
DEFAULT_USER_AGENT = f"factcov/{__version__} (factcov weather fetch; set --user-agent to your contact)"
_RETRY_STATUS = {429, 500, 502, 503, 504}


class _SameHostRedirects(urllib.request.HTTPRedirectHandler):
    """Follow a redirect only on the API's own scheme, host and port (the User-Agent and
    the caller's trust must not travel to another server)."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):  # type: ignore[no-untyped-def]
        old, new = urllib.parse.urlsplit(req.full_url), urllib.parse.urlsplit(newurl)
        if (new.scheme, new.netloc) != (old.scheme, old.netloc):
            raise EnvironmentFailure(f"{req.full_url}: the server redirected to another host ({new.netloc or newurl}); "
                                     "refused (only the --base-url host is asked)")
        return super().redirect_request(req, fp, code, msg, headers, newurl)


_OPENER = urllib.request.build_opener(_SameHostRedirects)


def check_base_url(base_url: str) -> str:
    """An http(s) URL with a host; anything else (file://, 'not a url') is a usage error."""
    parts = urllib.parse.urlsplit(base_url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise InputError(f"--base-url must be an http:// or https:// URL with a host, got {base_url!r}")
    return base_url.rstrip("/")


@dataclass
class NWSClient:
    base_url: str = DEFAULT_BASE_URL
    user_agent: str = DEFAULT_USER_AGENT
    cache_dir: Path | None = None
    timeout: float = 10.0  # seconds for a whole request, body included (a total deadline, not per read)
    retries: int = 3
    backoff: float = 1.0
    max_age: float = 3600.0
    max_bytes: int = MAX_HTTP_BODY_BYTES

    def __post_init__(self) -> None:
        self.base_url = check_base_url(self.base_url)
        if not (math.isfinite(self.timeout) and self.timeout > 0):
            raise InputError(f"--timeout must be a number of seconds above 0, got {self.timeout}")
        if not 0 <= self.retries <= MAX_RETRIES:
            # --retries 10**9 against a dead server backed off until the delay overflowed a float
            raise InputError(f"--retries must be 0 to {MAX_RETRIES}, got {self.retries}")
        if any(char in self.user_agent for char in "\r\n\0"):
            raise InputError("--user-agent must be one line (no line breaks or NUL): it is sent as an HTTP header")

    def get_json(self, url: str) -> dict[str, Any]:
        cached = self._cached(url)
        if cached is not None:
            return cached
        body = self._download(url)
        try:
            document = parse_json_line(body, url)
        except InputError as exc:
            raise EnvironmentFailure(f"{url}: the NWS API answered with invalid JSON ({exc.message})") from None
        if not isinstance(document, dict):
            raise EnvironmentFailure(f"{url}: expected a JSON object from the NWS API")
        if self.cache_dir is not None:
            write_text_atomic(self._cache_path(url), body)
        return document

    def _download(self, url: str) -> str:
        request = urllib.request.Request(url, headers={"User-Agent": self.user_agent, "Accept": "application/geo+json"})
        last: str = ""
        for attempt in range(self.retries + 1):
            try:
                return self._read_once(request)
            except urllib.error.HTTPError as exc:
                if exc.code not in _RETRY_STATUS:
                    raise FactcovError(f"{url}: HTTP {exc.code} {exc.reason}; check the coordinates (NWS covers the US only)") from None
                last = f"HTTP {exc.code} {exc.reason}"
            except (urllib.error.URLError, TimeoutError, ConnectionError, http.client.HTTPException, OSError) as exc:
                last = str(getattr(exc, "reason", None) or exc) or type(exc).__name__
            if attempt < self.retries:
                time.sleep(min(self.backoff * 2**attempt, self.timeout))
        raise EnvironmentFailure(f"{url}: failed after {self.retries + 1} attempts ({last}); check the network or --base-url")

    def _read_once(self, request: urllib.request.Request) -> str:
        """One request, its body read in chunks under a total deadline and a size cap."""
        deadline = time.monotonic() + self.timeout
        chunks: list[bytes] = []
        size = 0
        with _OPENER.open(request, timeout=self.timeout) as response:
            while True:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"no complete answer within {self.timeout:g} s")
                chunk = response.read1(1 << 16)
                if not chunk:
                    if getattr(response, "length", None):  # the server closed before its Content-Length
                        raise http.client.IncompleteRead(b"".join(chunks), response.length)
                    break
                size += len(chunk)
                if size > self.max_bytes:
                    raise EnvironmentFailure(
                        f"{request.full_url}: answer larger than {self.max_bytes // (1024 * 1024)} MiB; refused"
                    )
                chunks.append(chunk)
        try:
            return b"".join(chunks).decode("utf-8")
        except UnicodeDecodeError:
            raise EnvironmentFailure(f"{request.full_url}: the answer is not UTF-8") from None

    def _cache_path(self, url: str) -> Path:
        assert self.cache_dir is not None
        return self.cache_dir / f"{hashlib.sha256(url.encode()).hexdigest()[:32]}.json"

    def _cached(self, url: str) -> dict[str, Any] | None:
        if self.cache_dir is None:
            return None
        path = self._cache_path(url)
        if not path.exists() or time.time() - path.stat().st_mtime > self.max_age:
            return None
        try:
            document = parse_json_line(path.read_text(encoding="utf-8"), path)
        except (OSError, ValueError, InputError):  # ValueError: not UTF-8
            return None  # a damaged cache entry is fetched again
        return document if isinstance(document, dict) else None

    def forecast(self, lat: float, lon: float) -> dict[str, Any]:
        """The gridpoint forecast (GeoJSON) of a latitude/longitude."""
        if not (-90 <= lat <= 90 and -180 <= lon <= 180):
            raise FactcovError(f"latitude {lat} / longitude {lon} out of range")
        points = self.get_json(f"{self.base_url.rstrip('/')}/points/{lat:.4f},{lon:.4f}")
        forecast_url = (points.get("properties") or {}).get("forecast")
        if not isinstance(forecast_url, str):
            raise FactcovError(f"the NWS points answer for {lat},{lon} has no properties.forecast URL")
        # The API answers with absolute URLs on its own host; keep the path, ask our base URL.
        path = urllib.parse.urlsplit(forecast_url).path
        document = self.get_json(f"{self.base_url.rstrip('/')}{path}")
        document.setdefault("id", forecast_url)  # keeps office and grid point for instance ids
        return document
