"""What answers share (a passage, a reference) is read once per run, not once per answer:
its content units (``units_of``) and its claims with one instance's index (``claims_with``)."""

import json
from collections import Counter

from factcov.domains.rag.inputs import Answer


def _museum(repo_root):
    lines = (repo_root / "domains" / "rag" / "museum.jsonl").read_text(encoding="utf-8").splitlines()
    return [Answer.model_validate(json.loads(line)) for line in lines if line.strip()]


def _index_content(index):
    return tuple(sorted(index.entities)), tuple(sorted(index.known_keys)), tuple(sorted(index.surfaces.items()))


def test_shared_passages_and_references_are_read_once(repo_root, monkeypatch):
    import factcov.domains.rag.claims as claims_module
    import factcov.domains.rag.units as units_module
    from factcov.domains.rag.answers import score_answers
    from factcov.plugins import get_extractor

    answers = _museum(repo_root)
    # the museum's six answers share their passages and their reference
    assert len({a.reference for a in answers}) == 1 and len({a.contexts[0].text for a in answers}) == 1

    units_read: Counter = Counter()
    read_units = units_module.read_units

    def counted_units(parsed, span=False):
        units_read[(parsed.text, span)] += 1
        return read_units(parsed, span)

    claims_read: Counter = Counter()
    extract_claims = claims_module.extract_claims

    def counted_claims(parsed, index, extractor):
        claims_read[(parsed.text, _index_content(index))] += 1
        return extract_claims(parsed, index, extractor)

    # every module that calls them by its own name
    for module in ("units", "grounding", "claims", "extractor", "oracle", "scoring"):
        name = f"factcov.domains.rag.{module}"
        imported = __import__(name, fromlist=["_"])
        for function, counted in (("read_units", counted_units), ("extract_claims", counted_claims)):
            if hasattr(imported, function):
                monkeypatch.setattr(f"{name}.{function}", counted)

    extractor = get_extractor("rag-spacy", "en")  # a parser of its own: no parse kept from another test
    results = list(score_answers(answers, extractor))
    assert len(results) == len(answers)
    passages = {c.text for a in answers for c in a.contexts}
    shared = passages | {a.reference for a in answers} | {f for a in answers for f in a.required_facts}
    assert all(units_read[(c.text, False)] == 1 for a in answers for c in a.contexts if c.retrieved)
    assert units_read[(answers[0].reference, True)] == 1
    assert max(units_read.values()) == 1
    # the claims of a shared text with one index (an answer's own are read when it is
    # scored, once per answer: a text that is also an answer is left out)
    shared -= {a.answer for a in answers}
    read = [n for (text, _), n in claims_read.items() if text in shared]
    assert len(read) >= len(shared) and read == [1] * len(read)
