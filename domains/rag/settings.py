"""Settings of `factcov rag score`: command-line options over a config file over defaults.

The file is ``factcov.toml`` (table ``[rag]``) or, failing that, ``pyproject.toml``
(table ``[tool.factcov.rag]``), looked up in the current directory::

    [rag]
    backend = "spacy"          # or "stanza"
    alpha = 0.5
    grounded = false
    model = "en_core_web_sm"   # spaCy model name or path
    n_process = 1
    batch_size = 256
    stanza_dir = "/models/stanza"
    aliases = { "Big Apple" = "New York" }
    fail_under = { gaa = 0.6, faithfulness = 0.9 }
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from factcov.errors import InputError
from factcov.jsonl import validation_error


class RagSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    backend: str = "spacy"
    alpha: float = Field(default=0.5, ge=0.0, le=1.0)
    grounded: bool = False
    model: str | None = None
    n_process: int = Field(default=1, ge=1, le=64)
    batch_size: int = Field(default=256, ge=1)
    stanza_dir: str | None = None
    stanza_paths: dict[str, str] = Field(default_factory=dict)
    aliases: dict[str, str] = Field(default_factory=dict)
    fail_under: dict[str, Annotated[float, Field(allow_inf_nan=False)]] = Field(default_factory=dict)

    def extractor_name(self) -> str:
        if self.backend not in ("spacy", "stanza"):
            raise InputError(f"unknown backend '{self.backend}'; use spacy or stanza", field="backend")
        return f"rag-{self.backend}"

    def extractor_options(self) -> dict[str, Any]:
        if self.backend == "stanza":
            return {"model_dir": self.stanza_dir, "model_paths": self.stanza_paths or None, "aliases": self.aliases}
        return {"model": self.model, "n_process": self.n_process, "batch_size": self.batch_size,
                "aliases": self.aliases}


# Top-level tables factcov.toml may hold.
KNOWN_TABLES = {"rag"}


def config_table(directory: Path) -> tuple[dict[str, Any], Path | None]:
    """The [rag] table of factcov.toml, else [tool.factcov.rag] of pyproject.toml, else {}."""
    for name, keys in (("factcov.toml", ("rag",)), ("pyproject.toml", ("tool", "factcov", "rag"))):
        path = directory / name
        if not path.is_file():
            continue
        try:
            data: Any = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise InputError(f"not valid TOML: {exc}", path=path) from None
        except UnicodeDecodeError as exc:
            raise InputError(f"not UTF-8 (byte {exc.start}); TOML files are UTF-8", path=path) from None
        except (OSError, RecursionError) as exc:
            raise InputError(f"cannot read: {exc}", path=path) from None
        if name == "factcov.toml":
            unknown = sorted(set(data) - KNOWN_TABLES)
            if unknown:  # a misspelled [ragg] would otherwise be ignored in silence
                raise InputError(f"unknown table(s) {', '.join(unknown)}; known: {', '.join(sorted(KNOWN_TABLES))}",
                                 path=path)
        for depth, key in enumerate(keys):
            data = data.get(key, {}) if isinstance(data, dict) else {}
            if not isinstance(data, dict):
                raise InputError(f"'{'.'.join(keys[: depth + 1])}' must be a table, got {type(data).__name__}",
                                 path=path)
        if data:
            return data, path
    return {}, None


def load_settings(directory: Path | None = None, **overrides: Any) -> RagSettings:
    """Config file values, then the given overrides (None means "not given")."""
    table, path = config_table(directory or Path.cwd())
    merged = {**table, **{k: v for k, v in overrides.items() if v is not None}}
    try:
        return RagSettings.model_validate(merged)
    except ValidationError as exc:
        error = validation_error(exc, path or "settings", 0)
        raise InputError(error.message, path=path, field=f"rag.{error.field}") from None
