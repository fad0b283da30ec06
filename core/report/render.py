"""Fill the page template with the inline CSS, JS and the escaped JSON payload."""

from __future__ import annotations

import base64
import hashlib
import html
import json
from importlib import resources
from typing import Any


def _asset(name: str) -> str:
    return resources.files("factcov.report").joinpath(name).read_text(encoding="utf-8")


def embed_json(payload: Any) -> str:
    """JSON safe inside <script>: no '<', '>' or '&' survives, so nothing can end the element."""
    text = json.dumps(payload, ensure_ascii=False, sort_keys=True, allow_nan=False)
    return (
        text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
        .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    )


def content_security_policy(script: str) -> str:
    """Nothing loads from anywhere; only the page's own script (by its hash) may run.

    A second wall behind textContent: even text that became markup could not execute.
    """
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    return f"default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'sha256-{digest}'"


def render_html(payload: dict[str, Any]) -> str:
    names = ", ".join(f"{run['name']} ({run['domain']})" for run in payload["runs"])
    page = _asset("template.html")
    # The script element's content is exactly "\n" + report.js + "\n": that is what is hashed.
    script = "\n" + _asset("report.js") + "\n"
    # Replace the data last: the payload may contain any of the other markers' text.
    for marker, value in (
        ("FACTCOV_CSP", content_security_policy(script)),
        ("/*FACTCOV_CSS*/", _asset("report.css")),
        ("\n/*FACTCOV_JS*/\n", script),
        ("FACTCOV_TITLE", html.escape(f"factcov report: {names}")),
    ):
        page = page.replace(marker, value)
    return page.replace("FACTCOV_DATA", embed_json(payload))
