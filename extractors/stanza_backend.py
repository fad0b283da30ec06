"""stanza as a parsing backend. It never downloads: models are local files or a folder.

Settings: ``model_dir`` (a stanza resources folder, as ``stanza.download`` lays it out)
and/or ``model_paths`` ({processor: file}, e.g. ``{"tokenize": ".../tok.pt", "ner":
".../ner.pt"}``). ``tokenize`` is required; ``ner`` gives entities; ``pos``, ``lemma``
and ``depparse`` together give the dependency parse that relations need. Without a
parse the text has ``has_parse=False`` and relation claims come from the documented
fallback in ``factcov.domains.rag.claims`` (co-occurring entities the instance relates).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from factcov.errors import ModelNotFoundError
from factcov.extractors.parsed import Mention, ParsedText, Token

INSTALL_HINT = (
    "factcov never downloads stanza models: run `python -c \"import stanza; stanza.download('en', "
    "model_dir='DIR')\"` once and pass `--stanza-dir DIR` (or `stanza_dir` under [rag] in factcov.toml), "
    "or give model files with `stanza_paths = {tokenize = ..., ner = ...}`"
)
PARSE_PROCESSORS = ("pos", "lemma", "depparse")


def _check_paths(model_dir: str | None, model_paths: dict[str, str]) -> None:
    if model_dir is None and not model_paths:
        raise ModelNotFoundError(f"no stanza model configured; {INSTALL_HINT}")
    if model_dir is not None and not Path(model_dir).is_dir():
        raise ModelNotFoundError(f"stanza model folder '{model_dir}' does not exist; {INSTALL_HINT}")
    for processor, path in model_paths.items():
        if not Path(path).is_file():
            raise ModelNotFoundError(f"stanza {processor} model '{path}' does not exist; {INSTALL_HINT}")
    if model_paths and model_dir is None and "tokenize" not in model_paths:
        raise ModelNotFoundError(f"stanza needs a tokenize model (model_paths has {sorted(model_paths)}); {INSTALL_HINT}")


@lru_cache(maxsize=1)
def _empty_resources() -> Path:
    import tempfile

    path = Path(tempfile.mkdtemp(prefix="factcov-stanza-")) / "resources.json"
    path.write_text("{}", encoding="utf-8")
    return path


@lru_cache(maxsize=4)
def load_pipeline(model_dir: str | None, model_paths: tuple[tuple[str, str], ...]) -> Any:
    """A stanza Pipeline built from local files only (cached)."""
    import stanza

    paths = dict(model_paths)
    _check_paths(model_dir, paths)
    if model_dir is not None and not paths:
        processors = "tokenize,pos,lemma,depparse,ner"
    else:
        processors = ",".join(p for p in ("tokenize", *PARSE_PROCESSORS, "ner") if p in paths)
    options: dict[str, Any] = {f"{p}_model_path": path for p, path in paths.items()}
    if model_dir is None:
        # Files given one by one: no resources.json to consult, so stanza gets an empty one
        # and loads exactly the processors named (allow_unknown_language skips the lookup).
        options["resources_filepath"] = str(_empty_resources())
        options["allow_unknown_language"] = True
    try:
        return stanza.Pipeline(lang="en", dir=model_dir or str(_empty_resources().parent),
                               processors=processors, download_method=None, logging_level="WARN",
                               use_gpu=False, **options)
    except (FileNotFoundError, ValueError, KeyError, OSError) as exc:
        raise ModelNotFoundError(f"stanza could not load its models: {exc}; {INSTALL_HINT}") from None
    except Exception as exc:  # stanza raises its own ResourcesFileNotFound etc.
        if type(exc).__name__.endswith(("NotFound", "NotFoundError", "FileNotFound")):
            raise ModelNotFoundError(f"stanza could not load its models: {exc}; {INSTALL_HINT}") from None
        raise


def to_parsed(doc: Any, has_parse: bool) -> ParsedText:
    """A stanza ``Document`` as the parser-neutral ``ParsedText`` (UD labels)."""
    tokens: list[Token] = []
    sentences: list[tuple[int, int]] = []
    char_to_token: dict[int, int] = {}
    for sentence in doc.sentences:
        first = len(tokens)
        for word in sentence.words:
            parent = word.parent
            start, end = parent.start_char, parent.end_char
            index = len(tokens)
            head = first + word.head - 1 if has_parse and word.head else index
            tokens.append(Token(index, word.text, word.lemma or word.text, word.upos or "", word.xpos or "",
                                (word.deprel or "") if has_parse else "", head, start, end))
            char_to_token.setdefault(start, index)
        sentences.append((first, len(tokens)))
    mentions = []
    for entity in getattr(doc, "ents", ()):
        start = char_to_token.get(entity.start_char)
        if start is None:
            continue
        end = start
        while end < len(tokens) and tokens[end].start < entity.end_char:
            end += 1
        mentions.append(Mention(start, end, entity.start_char, entity.end_char, entity.text, entity.type))
    return ParsedText(doc.text, tokens, sentences, mentions, scheme="ud", has_parse=has_parse)


class StanzaParser:
    """Parses texts with one cached local stanza pipeline, many documents per call."""

    def __init__(self, model_dir: str | None = None, model_paths: dict[str, str] | None = None) -> None:
        paths = {k: str(v) for k, v in (model_paths or {}).items()}
        _check_paths(model_dir, paths)
        self.model_dir = model_dir
        self.model_paths = paths
        self.has_parse = (model_dir is not None and not paths) or all(p in paths for p in PARSE_PROCESSORS)
        self.nlp = load_pipeline(model_dir, tuple(sorted(paths.items())))

    def parse(self, texts: Sequence[str]) -> list[ParsedText]:
        import stanza

        documents = self.nlp.bulk_process([stanza.Document([], text=text) for text in texts])
        return [to_parsed(doc, self.has_parse) for doc in documents]

    def signature(self) -> str:
        names = ",".join(f"{p}={Path(v).name}" for p, v in sorted(self.model_paths.items()))
        return f"stanza:{names or self.model_dir}"
