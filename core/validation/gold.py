"""Gold error annotations: which character spans of a text a human (or a perturbation)
marked as factually wrong, and of which type.

Two layouts are read, both resolved to character spans ``[start, end)`` of the
generation's text:

- **JSONL** (factcov's own): one error per line,
  ``{"instance_id", "system"?, "type", "start", "end"}`` (characters) or
  ``{"instance_id", "system"?, "type", "token_start", "token_end"}`` (tokens, 1-based
  and inclusive, under the tokenization rule given to the reader), with optional
  ``"correction"`` and ``"text"``; when ``"text"`` is given it must equal the span's text.
  ``system`` may be left out when the instance has one generation.
- **CSV of the INLG 2021 accuracy shared task** (``gsml.csv``): ``TEXT_ID, SENTENCE_ID,
  ANNOTATION_ID, TOKENS, SENT_TOKEN_START, SENT_TOKEN_END, DOC_TOKEN_START, DOC_TOKEN_END,
  TYPE, CORRECTION, COMMENT``. ``TEXT_ID`` (``.txt`` dropped) is the generation's
  ``instance_id``. Token numbers are 1-based and inclusive over whitespace-separated
  tokens (the shared task's texts are pre-tokenized); document numbers are used when
  given, else sentence numbers, sentences ending at a token ``.``, ``!`` or ``?``.

Tokenization rules: ``whitespace`` (runs of non-space characters, the shared task's),
``words`` (runs of letters/digits, and every other non-space character alone).
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, model_validator

from factcov.errors import InputError
from factcov.jsonl import iter_models
from factcov.model import Generation, NonBlankStr
from factcov.validation.csv_header import check_repeated_columns

Tokenization = Literal["whitespace", "words"]
TOKEN_PATTERNS: dict[str, re.Pattern[str]] = {
    "whitespace": re.compile(r"\S+"),
    "words": re.compile(r"\w+|[^\w\s]"),
}
SHARED_TASK_COLUMNS = ("TEXT_ID", "TYPE")
# the other columns read when present
OPTIONAL_COLUMNS = ("DOC_TOKEN_START", "DOC_TOKEN_END", "SENTENCE_ID", "SENT_TOKEN_START", "SENT_TOKEN_END", "CORRECTION")
SENTENCE_END = {".", "!", "?"}


class GoldRow(BaseModel):
    """One line of a JSONL gold file, before its span is resolved against the text."""

    instance_id: NonBlankStr
    system: str | None = None
    type: NonBlankStr
    start: int | None = None
    end: int | None = None
    token_start: int | None = None
    token_end: int | None = None
    correction: str | None = None
    text: str | None = None

    @model_validator(mode="after")
    def _one_kind_of_span(self) -> GoldRow:
        chars = self.start is not None and self.end is not None
        tokens = self.token_start is not None and self.token_end is not None
        if chars == tokens:
            raise ValueError("give either start and end (characters) or token_start and token_end (tokens)")
        return self


@dataclass(frozen=True)
class GoldError:
    """An annotated error resolved to a character span of one generation."""

    instance_id: str
    system: str
    type: str
    start: int
    end: int
    text: str
    correction: str | None = None


def token_spans(text: str, tokenization: Tokenization = "whitespace") -> list[tuple[int, int]]:
    """Character spans of the text's tokens under a tokenization rule."""
    return [m.span() for m in TOKEN_PATTERNS[tokenization].finditer(text)]


class _Texts:
    """Generations by (instance_id, system), for resolving gold rows."""

    def __init__(self, generations: Mapping[tuple[str, str], Generation]) -> None:
        self.by_pair = dict(generations)
        self.systems: dict[str, list[str]] = {}
        for instance_id, system in sorted(self.by_pair):
            self.systems.setdefault(instance_id, []).append(system)

    def find(self, instance_id: str, system: str | None, path: Path, line: int, field: str) -> Generation:
        systems = self.systems.get(instance_id)
        if not systems:
            raise InputError(f"no generation has instance_id '{instance_id}'", path=path, line=line, field=field)
        if system is None:
            if len(systems) > 1:
                raise InputError(
                    f"instance '{instance_id}' has generations of {len(systems)} systems "
                    f"({', '.join(systems)}); give 'system' on the row or --system", path=path, line=line, field="system",
                )
            system = systems[0]
        generation = self.by_pair.get((instance_id, system))
        if generation is None:
            raise InputError(f"no generation of system '{system}' for instance '{instance_id}'",
                             path=path, line=line, field="system")
        return generation


def _token_range(
    spans: list[tuple[int, int]], first: int, last: int, path: Path, line: int, field: str
) -> tuple[int, int]:
    if not 1 <= first <= last <= len(spans):
        raise InputError(f"tokens {first}..{last} are outside the text's {len(spans)} tokens (1-based, inclusive)",
                         path=path, line=line, field=field)
    return spans[first - 1][0], spans[last - 1][1]


class _Seen:
    """Refuses an error annotated twice (same text, span and type): a copy-paste slip."""

    def __init__(self) -> None:
        self.lines: dict[tuple[str, str, int, int, str], int] = {}

    def check(self, error: GoldError, path: Path, line: int) -> GoldError:
        identity = (error.instance_id, error.system, error.start, error.end, error.type)
        if identity in self.lines:
            raise InputError(f"the same error as on line {self.lines[identity]}", path=path, line=line)
        self.lines[identity] = line
        return error


def read_jsonl_gold(
    path: str | Path,
    generations: Mapping[tuple[str, str], Generation],
    tokenization: Tokenization = "whitespace",
    only_system: str | None = None,
) -> list[GoldError]:
    """``only_system``: rows naming another system are skipped (a run checking one system
    of a gold file that annotates several)."""
    path = Path(path)
    if path.is_file() and path.stat().st_size == 0:
        return []  # texts annotated as having no error at all: a gold file like any other
    texts = _Texts(generations)
    errors: list[GoldError] = []
    seen = _Seen()
    for line, row in iter_models(path, GoldRow):
        if only_system is not None and row.system is not None and row.system != only_system:
            continue
        generation = texts.find(row.instance_id, row.system, path, line, "instance_id")
        if row.start is not None and row.end is not None:
            if not 0 <= row.start < row.end <= len(generation.text):
                raise InputError(f"span [{row.start}, {row.end}) is outside the text's {len(generation.text)} "
                                 "characters or empty", path=path, line=line, field="start")
            start, end = row.start, row.end
        else:
            assert row.token_start is not None and row.token_end is not None
            start, end = _token_range(token_spans(generation.text, tokenization), row.token_start, row.token_end,
                                      path, line, "token_start")
        found = generation.text[start:end]
        if row.text is not None and row.text != found:
            raise InputError(f"'text' is {row.text!r} but the span holds {found!r}", path=path, line=line,
                             field="text")
        errors.append(seen.check(GoldError(generation.instance_id, generation.system, row.type, start, end, found,
                                           row.correction), path, line))
    return errors


def _sentences(spans: list[tuple[int, int]], text: str) -> list[list[tuple[int, int]]]:
    sentences: list[list[tuple[int, int]]] = [[]]
    for span in spans:
        sentences[-1].append(span)
        if text[span[0]:span[1]] in SENTENCE_END:
            sentences.append([])
    return [s for s in sentences if s]


def _int(value: str | None, path: Path, line: int, field: str) -> int | None:
    value = (value or "").strip()
    if not value:
        return None
    try:
        return int(value)
    except ValueError:
        raise InputError(f"expected a whole number, got {value!r}", path=path, line=line, field=field) from None


def read_shared_task_csv(path: str | Path, generations: Mapping[tuple[str, str], Generation]) -> list[GoldError]:
    """Rows of the shared task's layout; see the module docstring for the rules."""
    path = Path(path)
    texts = _Texts(generations)
    errors: list[GoldError] = []
    seen = _Seen()
    try:
        handle = path.open(newline="", encoding="utf-8-sig")  # spreadsheets often write a BOM
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", path=path) from None
    with handle:
        reader = csv.DictReader(handle)
        try:
            fieldnames = reader.fieldnames or []
        except UnicodeDecodeError:
            raise InputError("not UTF-8 text", path=path, line=1) from None
        missing = [c for c in SHARED_TASK_COLUMNS if c not in fieldnames]
        if missing:
            raise InputError(f"missing column(s) {', '.join(missing)} of the shared task's layout", path=path, line=1)
        check_repeated_columns(fieldnames, [*SHARED_TASK_COLUMNS, *OPTIONAL_COLUMNS], path)
        for line, row in enumerate(_rows(reader, path), start=2):
            text_id = (row.get("TEXT_ID") or "").strip().removesuffix(".txt")
            generation = texts.find(text_id, None, path, line, "TEXT_ID")
            spans = token_spans(generation.text, "whitespace")
            doc = (_int(row.get("DOC_TOKEN_START"), path, line, "DOC_TOKEN_START"),
                   _int(row.get("DOC_TOKEN_END"), path, line, "DOC_TOKEN_END"))
            if doc[0] is not None and doc[1] is not None:
                start, end = _token_range(spans, doc[0], doc[1], path, line, "DOC_TOKEN_START")
            else:
                sentence = _int(row.get("SENTENCE_ID"), path, line, "SENTENCE_ID")
                first = _int(row.get("SENT_TOKEN_START"), path, line, "SENT_TOKEN_START")
                last = _int(row.get("SENT_TOKEN_END"), path, line, "SENT_TOKEN_END")
                if sentence is None or first is None or last is None:
                    raise InputError("give DOC_TOKEN_START/END or SENTENCE_ID with SENT_TOKEN_START/END",
                                     path=path, line=line, field="DOC_TOKEN_START")
                sentences = _sentences(spans, generation.text)
                if not 1 <= sentence <= len(sentences):
                    raise InputError(f"sentence {sentence} is outside the text's {len(sentences)} sentences",
                                     path=path, line=line, field="SENTENCE_ID")
                start, end = _token_range(sentences[sentence - 1], first, last, path, line, "SENT_TOKEN_START")
            type_ = (row.get("TYPE") or "").strip()
            if not type_:
                raise InputError("empty error type", path=path, line=line, field="TYPE")
            correction = (row.get("CORRECTION") or "").strip() or None
            errors.append(seen.check(GoldError(generation.instance_id, generation.system, type_, start, end,
                                               generation.text[start:end], correction), path, line))
    return errors


def _rows(reader: csv.DictReader, path: Path) -> Iterator[dict[str, str]]:
    try:
        yield from reader
    except csv.Error as exc:
        raise InputError(f"malformed CSV: {exc}", path=path, line=reader.line_num) from None
    except UnicodeDecodeError:
        raise InputError("not UTF-8 text", path=path, line=reader.line_num + 1) from None


def read_gold(
    path: str | Path,
    generations: Mapping[tuple[str, str], Generation],
    *,
    format: str = "auto",
    tokenization: Tokenization = "whitespace",
    only_system: str | None = None,
) -> list[GoldError]:
    """Gold errors of either layout (``auto``: by the file's extension)."""
    chosen = format if format != "auto" else ("csv" if str(path).lower().endswith(".csv") else "jsonl")
    if chosen == "csv":
        return read_shared_task_csv(path, generations)
    if chosen == "jsonl":
        return read_jsonl_gold(path, generations, tokenization, only_system)
    raise InputError(f"--gold-format must be auto, jsonl or csv, got '{format}'")
