"""`factcov weather build` and `factcov weather fetch`."""

from __future__ import annotations

from pathlib import Path

import typer

app = typer.Typer(help="NWS forecasts: build instances from forecast files, fetch forecasts from the API.",
                  no_args_is_help=True)


@app.command("build")
def build(
    forecasts: list[Path] = typer.Option(..., "--forecasts", "-f", help="Forecast files or directories; several after one -f, or repeat it: "
                                         "GeoJSON, or JSONL of responses or of periods; gzip allowed."),
    languages: str = typer.Option("en,es,pt", "--languages", "-l", help="Comma-separated languages."),
    out: Path = typer.Option(..., "--out", "-o", help="Instances JSONL to write (atomically)."),
    nws_generations: Path = typer.Option(None, "--nws-generations", help="Also write NWS's own texts as system 'nws'."),
    limit: int = typer.Option(None, "--limit", help="Stop after this many periods (after --sample).", min=1),
    sample: float = typer.Option(None, "--sample", help="Keep this fraction of the periods (0 < F <= 1), "
                                 "chosen by a hash of each period's id: the same periods on every run."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress, no size estimate."),
) -> None:
    """One instance per forecast period and language, ids weather:{source}:{period}:{lang}.

    Says an estimate of the output's size after the first periods; progress goes to
    stderr (a line every 10 s when stderr is not a terminal). The whole NWS corpus
    (977,064 periods) makes ~2.9 million instances, a few GB: --sample 0.01 or --limit.
    """
    from factcov.domains.weather.building import build_instances

    wanted = tuple(code.strip() for code in languages.split(",") if code.strip())
    counts = build_instances(forecasts, wanted, out, nws_generations, progress=not quiet, limit=limit,
                             sample=sample, say=None if quiet else lambda line: typer.echo(line, err=True))
    typer.echo(f"wrote {counts.instances} instances of {counts.periods} periods to {out}"
               + (f" ({counts.duplicates} duplicate periods skipped)" if counts.duplicates else ""))


@app.command("fetch")
def fetch(
    lat: float = typer.Option(..., "--lat", help="Latitude (US)."),
    lon: float = typer.Option(..., "--lon", help="Longitude (US)."),
    cache: Path = typer.Option(None, "--cache", help="Cache directory for API answers."),
    base_url: str = typer.Option("https://api.weather.gov", "--base-url", help="API root."),
    user_agent: str = typer.Option(None, "--user-agent", help="User-Agent naming you (NWS asks for a contact)."),
    timeout: float = typer.Option(10.0, "--timeout", help="Seconds per request."),
    retries: int = typer.Option(3, "--retries", help="Retries on network errors, 429 and 5xx."),
    out: Path = typer.Option(None, "--out", "-o", help="Write the forecast GeoJSON here (atomically); "
                             "feed it to `factcov weather build`."),
) -> None:
    """Fetch the gridpoint forecast of a point: /points/{lat},{lon} -> its forecast URL."""
    import json

    from factcov.domains.weather.fetch import DEFAULT_USER_AGENT, NWSClient
    from factcov.jsonl import write_text_atomic

    client = NWSClient(base_url=base_url, user_agent=user_agent or DEFAULT_USER_AGENT, cache_dir=cache,
                       timeout=timeout, retries=retries)
    document = client.forecast(lat, lon)
    periods = (document.get("properties") or {}).get("periods") or []
    if out is not None:
        write_text_atomic(out, json.dumps(document, ensure_ascii=False, indent=1))
        typer.echo(f"wrote {len(periods)} periods to {out}")
        return
    for period in periods:
        typer.echo(f"{period.get('name')}: {period.get('detailedForecast')}")
