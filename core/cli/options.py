"""Options several commands share, and the policy they build."""

from __future__ import annotations

import math
from pathlib import Path

import typer
from pydantic import ValidationError

from factcov.errors import InputError
from factcov.limits import MAX_BOOTSTRAP
from factcov.scoring import ScoringPolicy

DOMAIN = typer.Option(..., "--domain", "-d", help="Domain name (see `factcov domains`).")
INSTANCES = typer.Option(..., "--instances", "-i", help="Instances JSONL (gzip allowed).", dir_okay=False)
GENERATIONS = typer.Option(..., "--generations", "-g", help="Generations JSONL (gzip allowed).", dir_okay=False)
EXTRACTOR = typer.Option(None, "--extractor", "-x", help="Extractor backend; default: the domain's.")
EXTRACTOR_OPTIONS = typer.Option(
    None, "--extractor-option", "-X",
    help="Extractor option KEY=VALUE (repeatable); checked by the extractor, written into the signature.",
)
UNVERIFIABLE = typer.Option(
    "count", "--unverifiable", help="'count': unverifiable claims lower precision; 'ignore': left out."
)
AVERAGE = typer.Option("macro", "--average", help="Headline system average: 'macro' or 'micro'.")
WEIGHTS = typer.Option(
    None, "--weight", "-w", help="Per-claim-type weight of weighted_f1, TYPE=W (repeatable)."
)
SEED = typer.Option(0, "--seed", min=0, help="Seed of the bootstrap (0 or more).")
BOOTSTRAP = typer.Option(
    1000, "--bootstrap", min=0, max=MAX_BOOTSTRAP, help=f"Bootstrap resamples for confidence intervals (0-{MAX_BOOTSTRAP:,})."
)


def parse_weights(pairs: list[str] | None) -> dict[str, float] | None:
    if not pairs:
        return None
    weights: dict[str, float] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        try:
            weight = float(value)
        except ValueError:
            raise InputError(f"--weight expects TYPE=NUMBER, got '{pair}'") from None
        if not sep or not name.strip():
            raise InputError(f"--weight expects TYPE=NUMBER, got '{pair}'")
        if not math.isfinite(weight) or weight < 0:
            raise InputError(f"--weight expects a finite weight of 0 or more, got '{pair}'")
        weights[name.strip()] = weight
    return weights


def parse_extractor_options(pairs: list[str] | None, extractor: str | None, domain: str) -> dict[str, object]:
    """``-X key=value`` pairs, typed and checked by the extractor that will read them."""
    if not pairs:
        return {}
    from factcov.plugins import extractors, get_domain, load_plugins

    load_plugins()
    name = extractor or get_domain(domain).default_extractor
    raw: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise InputError(f"-X expects KEY=VALUE, got '{pair}'")
        raw[key.strip()] = value.strip()
    return extractors.get(name).parse_options(raw)


def build_policy(
    unverifiable: str, average: str, weights: list[str] | None, seed: int, bootstrap: int
) -> ScoringPolicy:
    if unverifiable not in ("count", "ignore"):
        raise InputError(f"--unverifiable must be 'count' or 'ignore', got '{unverifiable}'")
    if average not in ("macro", "micro"):
        raise InputError(f"--average must be 'macro' or 'micro', got '{average}'")
    try:
        return ScoringPolicy(
            unverifiable=unverifiable,  # type: ignore[arg-type]
            average=average,  # type: ignore[arg-type]
            type_weights=parse_weights(weights),
            seed=seed,
            bootstrap_samples=bootstrap,
        )
    except ValidationError as exc:
        error = exc.errors()[0]
        raise InputError(f"{error['msg']} (policy field {'.'.join(map(str, error['loc']))})") from None


def check_weights(policy: ScoringPolicy, claim_types: list[str]) -> None:
    for name in policy.type_weights or {}:
        if name not in claim_types:
            from factcov.errors import UnknownNameError

            raise UnknownNameError("claim type in --weight", name, claim_types)


def output_dir(path: Path) -> Path:
    from factcov.outdir import check_output_dir

    return check_output_dir(path)
