"""Options several commands share, and the policy they build."""

from __future__ import annotations

import math
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from factcov.errors import InputError
from factcov.limits import MAX_BOOTSTRAP

if TYPE_CHECKING:  # imported where a policy is built: a command's --help needs neither pydantic nor the scorer
    from factcov.scoring import ScoringPolicy

DOMAIN = typer.Option(..., "--domain", "-d", help="Domain name (see `factcov domains`).")
INSTANCES = typer.Option(..., "--instances", "-i", help="Instances JSONL (gzip allowed).", dir_okay=False)
GENERATIONS = typer.Option(..., "--generations", "-g", help="Generations JSONL (gzip allowed).", dir_okay=False)
EXTRACTOR = typer.Option(None, "--extractor", "-x", help="Extractor backend; default: the domain's.")
EXTRACTOR_OPTIONS = typer.Option(
    None, "--extractor-option", "-X",
    help="Extractor option KEY=VALUE (repeatable); checked by the extractor, written into the signature.",
)


class Unverifiable(StrEnum):
    count = "count"
    ignore = "ignore"


class Average(StrEnum):
    macro = "macro"
    micro = "micro"


# Defaults of the policy options are None so factcov.toml's [score] table can fill them.
UNVERIFIABLE = typer.Option(
    None, "--unverifiable",
    help="'count' (default): unverifiable claims lower precision; 'ignore': left out.",
)
AVERAGE = typer.Option(None, "--average", help="Headline system average: 'macro' (default) or 'micro'.")
WEIGHTS = typer.Option(
    None, "--weight", "-w", help="Per-claim-type weight of weighted_f1, TYPE=W (repeatable)."
)
SEED = typer.Option(None, "--seed", min=0, help="Seed of the bootstrap (0 or more; default 0).")
BOOTSTRAP = typer.Option(
    None, "--bootstrap", min=0, max=MAX_BOOTSTRAP,
    help=f"Bootstrap resamples for confidence intervals (0-{MAX_BOOTSTRAP:,}; default 1000).",
)
FAIL_UNDER = typer.Option(
    None, "--fail-under",
    help="Gate METRIC=VALUE (precision, recall, f1, weighted_f1 or a domain metric): exit 1 if a system is below.",
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
    unverifiable: Unverifiable | str | None,
    average: Average | str | None,
    weights: list[str] | None,
    seed: int | None,
    bootstrap: int | None,
    default_weights: dict[str, float] | None = None,
) -> ScoringPolicy:
    """The policy from the options given, then factcov.toml's [score] table, then the
    defaults (``default_weights``: a domain command's own, e.g. rag's alpha)."""
    from pydantic import ValidationError

    from factcov.cli.config import score_settings
    from factcov.scoring import ScoringPolicy

    settings = score_settings(unverifiable=getattr(unverifiable, "value", unverifiable),
                              average=getattr(average, "value", average), seed=seed, bootstrap=bootstrap)
    if settings.unverifiable not in ("count", "ignore"):
        raise InputError(f"--unverifiable must be 'count' or 'ignore', got '{settings.unverifiable}'")
    if settings.average not in ("macro", "micro"):
        raise InputError(f"--average must be 'macro' or 'micro', got '{settings.average}'")
    try:
        return ScoringPolicy(
            unverifiable=settings.unverifiable,  # type: ignore[arg-type]
            average=settings.average,  # type: ignore[arg-type]
            type_weights=parse_weights(weights) or settings.weights or default_weights,
            seed=settings.seed,
            bootstrap_samples=settings.bootstrap,
        )
    except ValidationError as exc:  # a factcov.toml value out of range (seed -1, weights nan)
        error = exc.errors()[0]
        raise InputError(f"{error['msg']} (policy field {'.'.join(map(str, error['loc']))})") from None


def gates(
    pairs: list[str] | None, metrics: tuple[str, ...], configured: dict[str, float] | None = None
) -> dict[str, float]:
    """--fail-under over ``configured`` (a domain table's) over factcov.toml's [score] fail_under;
    every name checked."""
    from factcov.cli.config import score_settings
    from factcov.cli.gate import parse_gates

    merged = {**score_settings().fail_under, **(configured or {})}
    return {**parse_gates([f"{k}={v}" for k, v in merged.items()], metrics), **parse_gates(pairs, metrics)}


def check_weights(policy: ScoringPolicy, claim_types: list[str]) -> None:
    for name in policy.type_weights or {}:
        if name not in claim_types:
            from factcov.errors import UnknownNameError

            raise UnknownNameError("claim type in --weight", name, claim_types)


def output_dir(path: Path) -> Path:
    from factcov.outdir import check_output_dir

    return check_output_dir(path)


def spread_multiple_values(command: object, args: list[str]) -> list[str]:
    """'--laps a.csv b.csv --ergast DIR' -> '--laps a.csv --laps b.csv --ergast DIR'.

    click gives a repeatable option one value per occurrence; a shell glob
    (`--laps laps/*.csv.gz`) gives several. Spread them for commands that take no
    positional argument, where a value after a repeatable option can mean nothing else.
    """
    # duck-typed: typer >= 0.20 vendors its own click, whose classes are not click's
    current: Any = command
    index = 0
    while isinstance(getattr(current, "commands", None), dict) and index < len(args):
        if args[index].startswith("-"):
            index += 1  # a group's own option ("--version")
            continue
        sub = current.commands.get(args[index])
        if sub is None:
            return args
        current, index = sub, index + 1
    if isinstance(getattr(current, "commands", None), dict):
        return args
    params = getattr(current, "params", [])
    if any(getattr(p, "param_type_name", "") == "argument" for p in params):
        return args
    repeatable = {name for p in params if getattr(p, "param_type_name", "") == "option"
                  and p.multiple and not p.is_flag for name in p.opts}
    spread = list(args[:index])
    active: str | None = None  # the repeatable option whose values are being read
    for token in args[index:]:
        if token.startswith("-") and token != "-":
            active = token if token in repeatable else None
        elif active is not None and spread[-1] != active:
            spread.append(active)  # a further value of the repeatable option just named
        spread.append(token)
    return spread


# Below this many columns rich's help panels cut long option names ("--extractor-opt…"):
# click's plain help is used instead, which wraps descriptions and keeps every name whole.
RICH_HELP_MIN_COLUMNS = 100


def plain_help_when_narrow(command: Any, columns: int | None = None) -> None:
    import shutil

    if (columns or shutil.get_terminal_size((80, 24)).columns) >= RICH_HELP_MIN_COLUMNS:
        return
    if hasattr(command, "rich_markup_mode"):
        command.rich_markup_mode = None
    for sub in (getattr(command, "commands", None) or {}).values():
        plain_help_when_narrow(sub, columns)


def hide_flag_types(command: Any) -> None:
    """No '<bool>' after a flag in help ('--quiet -q <bool>'): a flag takes no value."""
    for param in getattr(command, "params", []):
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""
    make_help_option = getattr(command, "get_help_option", None)
    if make_help_option is not None:  # click builds --help per context, outside params

        def help_option(ctx: Any, make: Any = make_help_option) -> Any:
            option = make(ctx)
            if option is not None:
                option.metavar = ""
            return option

        command.get_help_option = help_option
    for sub in (getattr(command, "commands", None) or {}).values():
        hide_flag_types(sub)
