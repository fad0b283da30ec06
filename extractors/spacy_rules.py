"""spaCy's attribute ruler, its rules found by look-up: the same annotations, less CPU.

An ``AttributeRuler`` (in the English models: 179 rules setting a token's part of speech
and morphology from its tag, and word exceptions setting lemmas) finds its rules with a
``Matcher``, which tries every rule at every token: ~23 µs a token, about a tenth of
``en_core_web_sm``'s whole pipe. When every rule is a sequence of exact values (each
token an attribute-equals-value table: no operators, no ``IN``/``REGEX`` predicates, no
extensions, no sentence starts), its matches are found by looking the first token's
values up in a table and checking the further tokens', with spaCy's own values
(``Doc.to_array`` reads a token's attribute as the ``Matcher`` does): the same set of
(rule, start, end) as the ``Matcher``'s, in the ruler's own order, applied by the
ruler's own ``set_annotations``. A ruler holding any other rule keeps its ``Matcher``;
one changed since (a rule added) goes back to it.
"""

from __future__ import annotations

import re
from typing import Any

# Pattern keys the Matcher reads apart from a value test (operators, extensions, sentence
# starts read as booleans, IOB names): a rule using one keeps the Matcher.
_APART = frozenset(("OP", "_", "SENT_START", "IS_SENT_START", "ENT_IOB", "MORPH"))
# Memo of the rules whose first token a row of values matches: emptied past this size.
_MEMO_LIMIT = 1 << 16

Pairs = tuple[tuple[int, int], ...]  # (attribute id, value): equal values
Tests = tuple[tuple[int, str, Any], ...]  # (attribute id, "IN" / "NOT_IN" / "REGEX", the ids or pattern)
Spec = tuple[Pairs, Tests]  # one token of a rule
Rule = tuple[int, int, tuple[Spec, ...]]  # (rule number, match id, its tokens)


def _test(attr: int, predicate: Any, value: Any) -> tuple[int, str, Any] | None:
    """A ``{"IN": [...]}``-style test as the Matcher's ``_SetPredicate`` / ``_RegexPredicate``
    builds it; None for any other kind (sets of morphology features, fuzzy, comparisons)."""
    from spacy.strings import get_string_id

    kind = predicate.upper() if isinstance(predicate, str) else None
    if kind in ("IN", "NOT_IN") and isinstance(value, (list, tuple, set)) and all(isinstance(v, (str, int)) for v in value):
        return attr, kind, frozenset(get_string_id(v) for v in value)
    if kind == "REGEX" and isinstance(value, str):
        return attr, kind, re.compile(value)
    return None


def _spec(spec: Any, strings: Any, ids: dict[str, int]) -> Spec | None:
    """One token of a rule as the Matcher compiles it (``_get_attr_values``,
    ``_get_extra_predicates``); None unless every key is a plain attribute with a value,
    a set (``IN``, ``NOT_IN``) or a regular expression."""
    if not isinstance(spec, dict) or not spec:
        return None
    pairs, tests = [], []
    for name, value in spec.items():
        if not isinstance(name, str):
            return None
        name = "ORTH" if name.upper() == "TEXT" else name.upper()
        if name in _APART or name not in ids:
            return None
        if isinstance(value, dict):
            found = [_test(ids[name], predicate, v) for predicate, v in value.items()]
            if not found or None in found:
                return None
            tests.extend(found)  # type: ignore[arg-type]
            continue
        if isinstance(value, str):
            value = strings.add(value)
        elif isinstance(value, bool):
            value = int(value)
        elif not isinstance(value, int):
            return None
        pairs.append((ids[name], value))
    return tuple(sorted(pairs)), tuple(tests)


def exact_rules(ruler: Any) -> list[Rule] | None:
    """The ruler's rules, token by token; None if any rule is not made of values, sets
    and regular expressions."""
    from spacy.attrs import IDS

    strings = ruler.vocab.strings
    rules: list[Rule] = []
    for number in range(len(ruler.attrs)):
        key = str(number)  # the ruler's own key for its rule ``number`` (``AttributeRuler.add``)
        for pattern in ruler.matcher.get(key)[1]:
            tokens = [_spec(spec, strings, IDS) for spec in pattern]
            if not tokens or None in tokens:
                return None
            rules.append((number, strings.add(key), tuple(tokens)))  # type: ignore[arg-type]
    return rules


def _passes(row: tuple[int, ...], pairs: Pairs, tests: Tests, strings: Any) -> bool:
    """Whether a token (its row of values, by column) meets a rule's token."""
    for column, value in pairs:
        if row[column] != value:
            return False
    for column, kind, payload in tests:
        value = row[column]
        if kind == "IN":
            ok = value in payload
        elif kind == "NOT_IN":
            ok = value not in payload
        else:  # REGEX, on the attribute's string as the Matcher reads it
            ok = payload.search(strings[value]) is not None
        if not ok:
            return False
    return True


class IndexedMatches:
    """``AttributeRuler.match`` by look-up: the same matches, found from a table of the
    rules' first tokens' values."""

    def __init__(self, ruler: Any, rules: list[Rule]) -> None:
        self.ruler = ruler
        self.strings = ruler.vocab.strings
        self.size = len(ruler.attrs)
        self.columns = sorted({attr for _, _, tokens in rules for pairs, tests in tokens
                               for attr in [a for a, _ in pairs] + [a for a, _, _ in tests]})
        column = {attr: i for i, attr in enumerate(self.columns)}

        def by_column(spec: Spec) -> Spec:
            pairs, tests = spec
            return (tuple((column[a], v) for a, v in pairs), tuple((column[a], k, p) for a, k, p in tests))

        # The first token's equal-value columns -> their values -> (number, match id, tokens).
        shapes: dict[tuple[int, ...], dict[tuple[int, ...], list[tuple[int, int, Any]]]] = {}
        for number, match_id, tokens in rules:
            first = tokens[0][0]
            shape = tuple(column[attr] for attr, _ in first)
            values = tuple(value for _, value in first)
            shapes.setdefault(shape, {}).setdefault(values, []).append(
                (number, match_id, tuple(by_column(spec) for spec in tokens)))
        self.shapes = list(shapes.items())
        self.memo: dict[tuple[int, ...], tuple[tuple[int, int, Any], ...]] = {}

    def _starting(self, row: tuple[int, ...]) -> tuple[tuple[int, int, Any], ...]:
        """The rules whose first token a token with these values meets."""
        found = self.memo.get(row)
        if found is None:
            hits = []
            for shape, table in self.shapes:
                for rule in table.get(tuple(row[c] for c in shape), ()):
                    if _passes(row, *rule[2][0], self.strings):
                        hits.append(rule)
            found = tuple(hits)
            if len(self.memo) >= _MEMO_LIMIT:
                self.memo.clear()
            self.memo[row] = found
        return found

    def __call__(self, doc: Any) -> list[tuple[int, int, int, int]]:
        """(rule number, match id, start, end) of every match, sorted as the ruler sorts them."""
        if len(self.ruler.attrs) != self.size:
            return type(self.ruler).match(self.ruler, doc)  # changed since: the Matcher's way
        if not len(doc):
            return []
        rows = list(map(tuple, doc.to_array(self.columns).reshape(len(doc), len(self.columns)).tolist()))
        found = set()  # the Matcher reports a (rule, start, end) once, however many patterns match it
        for start, row in enumerate(rows):
            for number, match_id, tokens in self._starting(row):
                end = start + len(tokens)
                if end <= len(rows) and all(_passes(rows[start + k], *tokens[k], self.strings)
                                            for k in range(1, len(tokens))):
                    found.add((number, match_id, start, end))
        return sorted(found)


class IndexWords(list):  # type: ignore[type-arg]
    """A lemmatizer's word index (a list in spaCy's lookups tables: 57,528 nouns in
    ``en_core_web_sm``), the same list whose ``in`` is a set's. ``rule_lemmatize`` asks
    ``form in index`` for every rule's candidate form of every word it has not met: a scan
    of the list each, ~0.3 ms a word, most of the lemmatizer's time in a run. Read, never
    changed (the set is the list's as built)."""

    __slots__ = ("words",)

    def __init__(self, words: list[Any]) -> None:
        super().__init__(words)
        self.words = frozenset(words)

    def __contains__(self, word: object) -> bool:
        return word in self.words


def index_lemmas(lemmatizer: Any) -> None:
    """A rule lemmatizer's word index as ``IndexWords`` (in place): the same lemmas."""
    if getattr(lemmatizer, "mode", None) != "rule" or not lemmatizer.lookups.has_table("lemma_index"):
        return
    table = lemmatizer.lookups.get_table("lemma_index")
    for key, words in list(table.items()):
        if type(words) is list and all(isinstance(word, str) for word in words):
            table[key] = IndexWords(words)


def indexed(nlp: Any) -> Any:
    """``nlp`` with its attribute rulers matching by look-up and its rule lemmatizers'
    word indexes as sets (in place): the same annotations."""
    from spacy.pipeline import AttributeRuler, Lemmatizer

    for _, component in nlp.pipeline:
        if isinstance(component, AttributeRuler) and not isinstance(component.match, IndexedMatches):
            rules = exact_rules(component)
            if rules:
                component.match = IndexedMatches(component, rules)
        elif isinstance(component, Lemmatizer):
            index_lemmas(component)
    return nlp
