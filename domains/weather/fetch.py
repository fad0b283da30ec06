"""Ask the NWS API for a point's forecast: ``/points/{lat},{lon}`` then its gridpoint forecast.

Stdlib only (urllib): a proper User-Agent (NWS asks for one that identifies the caller),
a timeout on every request, retries with exponential backoff on network errors, 429 and
5xx, and an on-disk cache (one JSON file per URL, written atomically, reused while
younger than ``max_age`` seconds).
"""

from __future__ import annotations

import hashlib
import json
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from factcov import __version__
from factcov.errors import FactcovError
from factcov.jsonl import write_text_atomic

DEFAULT_BASE_URL = "https://api.weather.gov"
DEFAULT_USER_AGENT = f"factcov/{__version__} (factcov weather fetch; set --user-agent to your contact)"
_RETRY_STATUS = {429, 500, 502, 503, 504}


@dataclass
class NWSClient:
    base_url: str = DEFAULT_BASE_URL
    user_agent: str = DEFAULT_USER_AGENT
    cache_dir: Path | None = None
    timeout: float = 10.0
    retries: int = 3
    backoff: float = 1.0
    max_age: float = 3600.0

    def get_json(self, url: str) -> dict[str, Any]:
        cached = self._cached(url)
        if cached is not None:
            return cached
        body = self._download(url)
        try:
            document = json.loads(body)
        except json.JSONDecodeError as exc:
            raise FactcovError(f"{url}: the NWS API answered with invalid JSON ({exc.msg})") from None
        if not isinstance(document, dict):
            raise FactcovError(f"{url}: expected a JSON object from the NWS API")
        if self.cache_dir is not None:
            write_text_atomic(self._cache_path(url), body)
        return document

    def _download(self, url: str) -> str:
        request = urllib.request.Request(url, headers={"User-Agent": self.user_agent, "Accept": "application/geo+json"})
        last: str = ""
        for attempt in range(self.retries + 1):
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    return response.read().decode("utf-8")
            except urllib.error.HTTPError as exc:
                if exc.code not in _RETRY_STATUS:
                    raise FactcovError(f"{url}: HTTP {exc.code} {exc.reason}; check the coordinates (NWS covers the US only)") from None
                last = f"HTTP {exc.code} {exc.reason}"
            except (urllib.error.URLError, TimeoutError, ConnectionError) as exc:
                last = str(getattr(exc, "reason", exc))
            if attempt < self.retries:
                time.sleep(self.backoff * 2**attempt)
        raise FactcovError(f"{url}: failed after {self.retries + 1} attempts ({last}); check the network or --base-url")

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
            return json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            return None  # a damaged cache entry is fetched again

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
