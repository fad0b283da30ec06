"""`factcov generate`: one text per instance from any OpenAI-compatible chat API."""

from __future__ import annotations

import math
import os
from pathlib import Path

import typer

from factcov.cli import options
from factcov.limits import MAX_CONCURRENCY, MAX_RETRIES


def register(app: typer.Typer) -> None:
    app.command("generate")(generate)


def default_cache() -> Path:
    configured = os.environ.get("FACTCOV_LLM_CACHE")
    if configured:
        return Path(configured)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "factcov" / "chat"


def chat_client(model: str, base_url: str | None, api_key_env: str, cache: Path | None, no_cache: bool,
                concurrency: int, retries: int, timeout: float):
    from factcov.chat import ChatClient
    from factcov.errors import InputError

    url = base_url or os.environ.get("FACTCOV_LLM_BASE_URL", "")
    if not url:
        raise InputError("give --base-url (an OpenAI-compatible /v1 URL) or set FACTCOV_LLM_BASE_URL")
    check_url(url, "--base-url" if base_url else "FACTCOV_LLM_BASE_URL")
    if not math.isfinite(timeout):
        raise InputError(f"--timeout must be a finite number of seconds, got {timeout}")
    return ChatClient(url, model, api_key_env=api_key_env, cache_dir=None if no_cache else (cache or default_cache()),
                      timeout=timeout, retries=retries, concurrency=concurrency)


MODEL = typer.Option(..., "--model", "-m", help="Model name the server knows (e.g. llama3.1:8b).")
BASE_URL = typer.Option(None, "--base-url", help="OpenAI-compatible /v1 URL; default $FACTCOV_LLM_BASE_URL.")
API_KEY_ENV = typer.Option("FACTCOV_LLM_API_KEY", "--api-key-env",
                           help="Environment variable holding the API key (the key is never taken as an option).")
CACHE = typer.Option(None, "--cache", help="Response cache directory; default $FACTCOV_LLM_CACHE or ~/.cache/factcov/chat.",
                     file_okay=False)
NO_CACHE = typer.Option(False, "--no-cache", help="Ask the server even for requests answered before.")
CONCURRENCY = typer.Option(4, "--concurrency", "-c", min=1, max=MAX_CONCURRENCY, help="Requests in flight at once.")
RETRIES = typer.Option(4, "--retries", min=1, max=MAX_RETRIES, help="Attempts per request (429/5xx/timeouts/bad answers).")
TIMEOUT = typer.Option(120.0, "--timeout", min=0.1, help="Seconds per request.")
TEMPERATURE = typer.Option(0.0, "--temperature", help="Sampling temperature.")
MAX_TOKENS = typer.Option(None, "--max-tokens", min=1,
                          help="Longest answer in tokens; default the domain's (f1 400, weather 200, others 512).")
PROMPT = typer.Option("neutral", "--prompt",
                      help="neutral (the paper's default), cover-all (state every supported fact) or a template file.")
ON_TRUNCATED = typer.Option("keep", "--on-truncated",
                            help="An answer cut off at --max-tokens: keep (flagged in meta), drop, or fail the run.")
KEEP_REASONING = typer.Option(False, "--keep-reasoning",
                              help="Keep a reasoning model's <think> part in each line's meta (never scored).")


def queued_hint(reasons: list[str], concurrency: int) -> str:
    """Timeouts with several requests in flight: a server computing one at a time (llama.cpp, Ollama
    by default) kept the others queued until their deadline passed."""
    if concurrency > 1 and any("timed out" in reason for reason in reasons):
        return (f"; {sum('timed out' in r for r in reasons)} timed out with --concurrency {concurrency}: a server that "
                "computes one request at a time (llama.cpp, Ollama by default) keeps the others queued until their "
                "--timeout passes; rerun with --concurrency 1 or a longer --timeout")
    return ""


def token_summary(counts: list[int], truncated: int) -> str:
    if not counts:
        prompt = "prompt tokens: not counted by the server"
    else:
        prompt = f"prompt tokens: mean {sum(counts) / len(counts):.0f}, max {max(counts)}"
    return f"{prompt}; {truncated} truncated (finish_reason 'length')"


def check_url(url: str, where: str) -> None:
    """An http(s) URL with a host, or exit 2 (``file:///…`` or a typo would fail every request, slowly)."""
    from urllib.parse import urlsplit

    from factcov.errors import InputError

    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 -- raises on a port that is not a number
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
        raise InputError(f"{where} must be an http:// or https:// URL with a host, got {url!r}")


def parameters(temperature: float, max_tokens: int | None) -> dict:
    if not math.isfinite(temperature) or temperature < 0:
        from factcov.errors import InputError

        raise InputError(f"--temperature must be a finite number of 0 or more, got {temperature}")
    chosen: dict = {"temperature": temperature}
    if max_tokens is not None:
        chosen["max_tokens"] = max_tokens
    return chosen


def generate(
    domain: str = options.DOMAIN,
    instances: Path = options.INSTANCES,
    model: str = MODEL,
    out: Path = typer.Option(..., "--out", "-o", help="Generations JSONL (resumed when it exists).", dir_okay=False),
    base_url: str | None = BASE_URL,
    system: str | None = typer.Option(None, "--system", help="System name written on each line; default the model's."),
    split: str | None = typer.Option(None, "--split", help="Only instances of this split (train, test, …)."),
    limit: int | None = typer.Option(None, "--limit", min=1, help="At most this many instances."),
    temperature: float = TEMPERATURE,
    max_tokens: int | None = MAX_TOKENS,
    concurrency: int = CONCURRENCY,
    retries: int = RETRIES,
    timeout: float = TIMEOUT,
    cache: Path | None = CACHE,
    no_cache: bool = NO_CACHE,
    api_key_env: str = API_KEY_ENV,
    prompt: str = PROMPT,
    on_truncated: str = ON_TRUNCATED,
    keep_reasoning: bool = KEEP_REASONING,
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar or summary."),
) -> None:
    """Ask the model for one text per instance; rerunning resumes and asks only what is missing."""
    from factcov.chat import ChatError
    from factcov.generate import generate_file
    from factcov.prompts import resolve_variant

    variant = resolve_variant(prompt)
    client = chat_client(model, base_url, api_key_env, cache, no_cache, concurrency, retries, timeout)
    try:
        outcome = generate_file(domain, instances, out, client, system=system, split=split, limit=limit,
                                parameters=parameters(temperature, max_tokens), quiet=quiet, prompt=variant,
                                on_truncated=on_truncated, keep_reasoning=keep_reasoning)
    except KeyboardInterrupt:  # what is written stays; rerunning resumes
        raise typer.Abort() from None
    if not quiet:
        typer.echo(
            f"{out}: {outcome.written} new, {outcome.resumed} already there, {len(outcome.failed)} failed "
            f"of {outcome.total}; tokens: {outcome.prompt_tokens} prompt, {outcome.completion_tokens} completion",
            err=True,
        )
        dropped = f" ({len(outcome.dropped)} dropped by --on-truncated drop)" if outcome.dropped else ""
        typer.echo(f"{out}: {token_summary(outcome.prompt_counts, outcome.truncated)}{dropped}", err=True)
    if outcome.failed:
        first_id, reason = next(iter(sorted(outcome.failed.items())))
        raise ChatError(
            f"{len(outcome.failed)} of {outcome.total} instances got no answer (first: {first_id}: {reason}); "
            f"listed in {outcome.errors_path}; rerun the same command to ask only those again"
            + queued_hint(list(outcome.failed.values()), concurrency)
        )
