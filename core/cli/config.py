"""factcov.toml: one configuration file for every command and domain.

Looked up in the current directory: ``factcov.toml`` (tables at the top level) or,
failing that, ``pyproject.toml`` (the same tables under ``[tool.factcov]``)::

    [score]                    # `factcov score` (every domain) and `factcov rag score`
    unverifiable = "count"     # or "ignore"
    average = "macro"          # or "micro"
    weights = { entity = 0.5, relation = 0.5 }
    seed = 0
    bootstrap = 1000
    fail_under = { f1 = 0.5, faithfulness = 0.9 }

    [rag]                      # a domain's own table: settings only that domain reads
    backend = "spacy"

Command-line options win over the file; the file wins over the defaults.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from factcov.errors import InputError
from factcov.jsonl import validation_error
from factcov.limits import MAX_BOOTSTRAP

FILES = (("factcov.toml", ()), ("pyproject.toml", ("tool", "factcov")))


def config_table(name: str, directory: Path | None = None) -> tuple[dict[str, Any], Path | None]:
    """Table ``name`` of factcov.toml, else of [tool.factcov] in pyproject.toml, else {}."""
    directory = directory or Path.cwd()
    for filename, prefix in FILES:
        path = directory / filename
        if not path.exists() and not path.is_symlink():  # a dangling link or a link loop is not "no file"
            continue
        if not path.is_file():  # a folder or a pipe named factcov.toml is not ignored in silence, nor read forever
            raise InputError("is not a regular file; factcov reads its settings from it", path=path)
        data: Any = _read(path)
        tables = data
        for key in prefix:
            tables = tables.get(key, {}) if isinstance(tables, dict) else {}
        if isinstance(tables, dict):
            _check_tables(tables, path, prefix)
        keys = (*prefix, name)
        for depth, key in enumerate(keys):
            data = data.get(key, {}) if isinstance(data, dict) else {}
            if not isinstance(data, dict):
                raise InputError(f"'{'.'.join(keys[: depth + 1])}' must be a table, got {type(data).__name__}",
                                 path=path)
        if data:
            return data, path
    return {}, None


def _read(path: Path) -> Any:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8-sig"))  # editors on Windows write a BOM
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"not valid TOML: {exc}", path=path) from None
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 (byte {exc.start}); TOML files are UTF-8", path=path) from None
    except (OSError, RecursionError) as exc:
        raise InputError(f"cannot read: {exc}", path=path) from None


def _check_tables(data: dict[str, Any], path: Path, prefix: tuple[str, ...] = ()) -> None:
    """A misspelled table ([ragg], [tool.factcov.ragg]) would otherwise be ignored in silence."""
    if not data:
        return
    from factcov.plugins import domains, load_plugins

    load_plugins()
    known = {"score", *domains.names()}
    unknown = sorted(set(data) - known)
    if unknown:
        names = ", ".join(".".join((*prefix, name)) for name in unknown)
        raise InputError(f"unknown table(s) {names}; known: {', '.join(sorted(known))}", path=path)


def validated(model: type[BaseModel], name: str, overrides: dict[str, Any], directory: Path | None = None) -> Any:
    """``model`` from table ``name`` with ``overrides`` on top (None means "not given")."""
    table, path = config_table(name, directory)
    merged = {**table, **{k: v for k, v in overrides.items() if v is not None}}
    try:
        # strict: TOML has types, so `bootstrap = true` or `seed = "5"` is a mistake to name, not 1 or 5
        return model.model_validate(merged, strict=True)
    except ValidationError as exc:
        error = validation_error(exc, path or "settings", 0)
        raise InputError(error.message, path=path, field=f"{name}.{error.field}") from None


class ScoreSettings(BaseModel):
    """The [score] table."""

    model_config = ConfigDict(extra="forbid")

    unverifiable: str = "count"
    average: str = "macro"
    # the policy's own bounds, here too, so that a value out of range names the file and the field
    weights: dict[str, Annotated[float, Field(ge=0, allow_inf_nan=False)]] = Field(default_factory=dict)
    seed: int = Field(default=0, ge=0)
    bootstrap: int = Field(default=1000, ge=0, le=MAX_BOOTSTRAP)
    fail_under: dict[str, Annotated[float, Field(allow_inf_nan=False)]] = Field(default_factory=dict)


def score_settings(directory: Path | None = None, **overrides: Any) -> ScoreSettings:
    return validated(ScoreSettings, "score", overrides, directory)
