"""Settings of the rag domain: command-line options over factcov.toml over defaults.

The file is the one every command reads (``factcov.commands.validated``): ``factcov.toml``
(table ``[rag]``) or ``pyproject.toml`` (table ``[tool.factcov.rag]``). The scoring
policy and gates of every domain are in its ``[score]`` table; ``fail_under`` here is
kept for files written for factcov 0.1 and adds to ``[score]``'s::

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

from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from factcov.errors import InputError
from factcov.jsonl import validation_error


class RagSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    backend: str = "spacy"
    alpha: float = Field(default=0.5, ge=0.0, le=1.0, allow_inf_nan=False)
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


def load_settings(directory: Path | None = None, **overrides: Any) -> RagSettings:
    """The [rag] table of factcov.toml (or [tool.factcov.rag]), then the given overrides."""
    from factcov.commands import validated  # the command line's modules (typer) only when settings are read

    return validated(RagSettings, "rag", overrides, directory)


def settings_of(table: dict[str, Any]) -> RagSettings:
    """A [rag] table already read (``Domain.configure``); errors name ``rag.<field>``."""
    try:
        return RagSettings.model_validate(table)
    except ValidationError as exc:
        error = validation_error(exc, "settings", 0)
        raise InputError(error.message, field=f"rag.{error.field}") from None
