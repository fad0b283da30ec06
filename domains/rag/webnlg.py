"""WebNLG 2020 (English) as rag instances: each entry's triples are its complete fact set.

Entry ``IdN`` becomes instance ``webnlg:N`` (task ``data-to-text``): one ``entity`` fact
per subject and object, one ``relation`` fact per triple (subject, the KG predicate,
object), with names in the canonical form the extractor gives text mentions
(underscores and quotes dropped, dates ISO, numbers plain). Line N of
``submissions/<team>.txt`` is that team's text for entry IdN; the system name is the
file stem, which is the ``submission_id`` of the human judgments.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from factcov.domains.rag.claims import ENTITY, RELATION
from factcov.errors import InputError
from factcov.extractors.normalize import canonical_entity
from factcov.model import Fact, Generation, Instance


@dataclass(frozen=True)
class Entry:
    number: int
    category: str
    triples: tuple[tuple[str, str, str], ...]
    references: tuple[str, ...]


def _surface(term: str) -> str:
    return term.replace("_", " ").strip().strip('"').strip("'").strip()


def iter_entries(path: str | Path) -> Iterator[Entry]:
    """Entries of ``test-en.xml`` in file order (streamed)."""
    path = Path(path)
    if not path.is_file():
        raise InputError("no such file (expected WebNLG 2020 test-en.xml)", path=path)
    for _, element in ET.iterparse(path, events=("end",)):
        if element.tag != "entry":
            continue
        eid = element.get("eid", "")
        if not eid.startswith("Id") or not eid[2:].isdigit():
            raise InputError(f"entry id '{eid}' is not IdN", path=path, field="eid")
        triples = []
        for mtriple in element.iter("mtriple"):
            parts = [p.strip() for p in (mtriple.text or "").split("|")]
            if len(parts) != 3:
                raise InputError(f"entry {eid}: triple '{mtriple.text}' is not 'S | p | O'", path=path,
                                 field="mtriple")
            triples.append(tuple(parts))
        references = tuple((lex.text or "").strip() for lex in element.iter("lex") if (lex.text or "").strip())
        yield Entry(int(eid[2:]), element.get("category", ""), tuple(triples), references)  # type: ignore[arg-type]
        element.clear()


def to_instance(entry: Entry) -> Instance:
    facts: dict[str, Fact] = {}
    surfaces: dict[str, str] = {}
    for subject, predicate, obj in entry.triples:
        names = []
        for term in (subject, obj):
            name = canonical_entity(_surface(term))
            surfaces.setdefault(name, _surface(term))
            fact = Fact(type=ENTITY, key={"name": name}, value=name)
            facts.setdefault(fact.id, fact)
            names.append(name)
        relation = Fact(type=RELATION, key={"subject": names[0], "predicate": predicate, "object": names[1]},
                        value=names[1])
        facts.setdefault(relation.id, relation)
    return Instance(
        id=f"webnlg:{entry.number}",
        domain="rag",
        task="data-to-text",
        language="en",
        prompt="; ".join(" | ".join(t) for t in entry.triples),
        context={"category": entry.category, "triples": [list(t) for t in entry.triples],
                 "references": list(entry.references), "surfaces": surfaces},
        facts=list(facts.values()),
    )


def load_instances(path: str | Path, numbers: Iterable[int] | None = None) -> dict[int, Instance]:
    """Instances by entry number (only ``numbers`` when given)."""
    wanted = set(numbers) if numbers is not None else None
    return {e.number: to_instance(e) for e in iter_entries(path) if wanted is None or e.number in wanted}


def load_references(path: str | Path, numbers: Iterable[int] | None = None) -> dict[int, list[str]]:
    wanted = set(numbers) if numbers is not None else None
    return {e.number: list(e.references) for e in iter_entries(path) if wanted is None or e.number in wanted}


def load_generations(submissions: str | Path, numbers: Iterable[int] | None = None) -> list[Generation]:
    """Every team's output for the wanted entries, sorted by system then entry."""
    folder = Path(submissions)
    files = sorted(folder.glob("*.txt"))
    if not files:
        raise InputError("no submission files (*.txt)", path=folder)
    wanted = set(numbers) if numbers is not None else None
    generations = []
    for path in files:
        lines = path.read_text(encoding="utf-8").split("\n")
        for number, text in enumerate(lines, start=1):
            if (wanted is None and number <= len(lines)) or (wanted is not None and number in wanted):
                if wanted is None and not text and number == len(lines):
                    continue  # trailing newline
                generations.append(Generation(instance_id=f"webnlg:{number}", system=path.stem, text=text.strip()))
    return generations


def sampled_numbers(human_file: str | Path) -> list[int]:
    """Entry numbers the people judged (``sample_id`` of the averaged human file)."""
    import json

    records = json.loads(Path(human_file).read_text(encoding="utf-8"))
    return sorted({int(r["sample_id"]) for r in records})


HUMAN_FILE = Path("human") / "english_humeval_data_all_teams.json"


@dataclass(frozen=True)
class JudgedSet:
    """The WebNLG 2020 entries people judged, with their references and the systems' texts."""

    human_file: Path
    instances: dict[int, Instance]
    references: dict[int, list[str]]
    generations: list[Generation]


def load_judged(data_dir: str | Path) -> JudgedSet:
    """Read the judged part of a WebNLG 2020 folder (``test-en.xml``, ``submissions/``, ``human/``)."""
    data_dir = Path(data_dir)
    human_file = data_dir / HUMAN_FILE
    numbers = sampled_numbers(human_file)
    return JudgedSet(
        human_file=human_file,
        instances=load_instances(data_dir / "test-en.xml", numbers),
        references=load_references(data_dir / "test-en.xml", numbers),
        generations=load_generations(data_dir / "submissions", numbers),
    )


SEGMENT_METRICS = ("gaa", "entity_precision", "entity_recall", "relation_precision", "relation_recall",
                   "precision", "recall", "f1", "claim_precision", "claim_recall", "claim_f1")


def score_generations(instances: dict[int, Instance], generations: list[Generation], extractor,
                      alpha: float = 0.5):
    """One row per (system, instance): the headline precision/recall/f1 of graded content
    units against the entry's triples (as ``score -d rag``: ``scoring.headline``), the
    claim counts' as ``claim_*``, GAA and per-type precision/recall, via the core scorer,
    and the coverage of the entry's triples (``triple_coverage``, ``entity_coverage``,
    ``contradicted``; ``factcov.domains.rag.triple_coverage``) from the same parse.

    All texts go through the extractor's parser in batches (``nlp.pipe``), streamed: each
    parse is dropped once its row is computed.
    """
    import pandas as pd

    from factcov.domains.rag.domain import RagDomain
    from factcov.domains.rag.grounding import unit_scores
    from factcov.domains.rag.scoring import gaa_policy, headline
    from factcov.domains.rag.triple_coverage import cover
    from factcov.scoring import score_generation
    from factcov.verifier import Verifier

    domain, verifier, policy = RagDomain(), Verifier(), gaa_policy(alpha)
    by_id = {instance.id: instance for instance in instances.values()}
    paired = [by_id[g.instance_id] for g in generations]
    # One knowledge per instance, not per text (16 systems answer each WebNLG entry).
    knowledge = {iid: domain.knowledge(by_id[iid]) for iid in dict.fromkeys(g.instance_id for g in generations)}
    rows = []
    for generation, instance, parsed_text in zip(generations, paired, extractor.iter_parse(g.text for g in generations)):
        text_claims = extractor.claims(parsed_text, instance)
        triples = cover(parsed_text, instance.context["triples"])
        score = score_generation(instance.facts, verifier.verify_all(text_claims, knowledge[instance.id]))
        units = unit_scores(parsed_text, None, [], triples.coverage, instance.context["triples"])
        row = {"system": generation.system, "instance_id": instance.id, "gaa": score.weighted_f1(policy),
               **headline(units.metrics, score.total.metrics(policy)),
               "triple_coverage": triples.coverage, "entity_coverage": triples.entity_coverage,
               "contradicted": triples.contradicted}
        for type_ in (ENTITY, RELATION):
            counts = score.by_type.get(type_)
            metrics = counts.metrics(policy) if counts else {"precision": None, "recall": None}
            row[f"{type_}_precision"], row[f"{type_}_recall"] = metrics["precision"], metrics["recall"]
        rows.append(row)
    return pd.DataFrame(rows)
