"""``factcov refine``: verifier-guided revision, round by round.

Each round verifies every text still in play and tells the model, in the instance's
language, what was wrong: the contradicted claims with what the data holds (the true
fact realized by the domain's realizer), the claims the data does not support, and the
oracle facts the text left out (realized the same way). A text leaves the loop when its
F1 is 1, when there is nothing left to say, or when the model returns it unchanged; the
loop ends after N rounds or when no text is left in it.

DIR holds ``round-K/generations.jsonl`` (every instance, a text carried over when it
left the loop earlier), ``round-K/scores.csv`` (P/R/F1 and status per instance),
``round-K/feedback.jsonl`` (what the model was told, K >= 1), ``rounds.csv`` (the mean
P/R/F1 per system and round) and ``report/``: a scoring run where each round is a
system named ``SYSTEM@rK``, so the HTML report shows the rounds side by side.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from factcov.chat import ChatClient, ChatError, ServerUnreachable
from factcov.domain import Domain
from factcov.evaluate import Evaluator, Result
from factcov.inputs import iter_generations, load_instances
from factcov.jsonl import atomic_path, write_jsonl_atomic, write_text_atomic
from factcov.model import Fact, Generation, Instance
from factcov.plugins import get_domain
from factcov.progress import progress
from factcov.prompts import NEUTRAL, PromptTemplate, phrases, prompt_messages, variant_name
from factcov.reasoning import split_reasoning
from factcov.scoring import ScoringPolicy

# truncated: the round's texts that are answers cut off at max_tokens (finish_reason "length")
ROUND_COLUMNS = ("system", "round", "n", "revised", "in_play", "failed", "truncated", "precision", "recall", "f1")


def say(domain: Domain, fact: Fact, instance: Instance) -> str:
    """One fact in words of the instance's language, by the domain's realizer."""
    for attempt in (lambda: domain.realize([fact], instance.language, instance),
                    lambda: domain.realize_fact(fact, instance.language)):
        try:
            text = attempt().strip()
        except Exception:  # noqa: BLE001 - a realizer that cannot say one fact alone; fall through
            continue
        if text:
            return text
    slots = ", ".join(f"{k}={v}" for k, v in fact.key.items())
    return f"{fact.type}({slots}) = {json.dumps(fact.value, ensure_ascii=False)}"


def feedback(domain: Domain, result: Result) -> str | None:
    """What was wrong with ``result``'s text, in its language; None when nothing was."""
    instance = result.instance
    words = phrases(result.language)
    lines = []
    told: set[str] = set()  # a fact given as the correction of a wrong claim is not also listed as missing
    for verdict in result.verdicts:
        quote = verdict.claim.text or verdict.claim.type
        if verdict.label == "contradicted":
            truth = say(domain, verdict.fact, instance) if verdict.fact is not None else json.dumps(verdict.expected)
            lines.append(words["wrong"].format(quote=quote, truth=truth))
            if verdict.fact is not None:
                told.add(verdict.fact.id)
        elif verdict.label == "unverifiable":
            lines.append(words["unverifiable"].format(quote=quote))
    missed = set(result.score.missed_ids)
    for fact in instance.facts:
        if fact.id in missed and fact.id not in told:
            lines.append(words["missing"].format(fact=say(domain, fact, instance)))
    if not lines:
        return None
    return "\n".join([words["intro"], *(f"- {line}" for line in lines), words["outro"]])


@dataclass
class Track:
    """One (instance, system) through the rounds."""

    instance: Instance
    system: str
    text: str
    result: Result | None = None
    status: str = "in play"
    # how the current text was made (generate's meta: prompt, finish_reason, truncated), if known
    made: dict[str, Any] | None = None

    @property
    def truncated(self) -> bool:
        return bool(self.made and self.made.get("truncated") is True)

    @property
    def key(self) -> tuple[str, str]:
        return self.instance.id, self.system


@dataclass
class RefineOutcome:
    outdir: Path
    rounds: list[dict[str, Any]]
    failed: int = 0
    # Why the loop stopped before its last round (the server answered no request of a round), else None.
    unanswered: str | None = None


def _made(meta: Any) -> dict[str, Any] | None:
    """generate's part of a generation's meta (the rest is the user's own and stays out of the rounds)."""
    if not isinstance(meta, dict):
        return None
    made = {k: meta[k] for k in ("prompt", "finish_reason", "truncated") if k in meta}
    return made or None


def _metrics(result: Result, policy: ScoringPolicy) -> dict[str, Any]:
    return result.score.total.as_dict(policy)


def _mean(values: list[float | None]) -> float | None:
    defined = [v for v in values if v is not None]
    return sum(defined) / len(defined) if defined else None


def refine_files(
    domain_name: str,
    instances_path: str | Path,
    generations_path: str | Path,
    outdir: str | Path,
    client: ChatClient,
    *,
    rounds: int,
    extractor: str | None = None,
    parameters: dict[str, Any] | None = None,
    report: bool = True,
    quiet: bool = True,
    prompt: str | PromptTemplate = NEUTRAL,
) -> RefineOutcome:
    domain = get_domain(domain_name)
    evaluator = Evaluator(domain, extractor=extractor)
    policy = evaluator.policy
    instances = load_instances(instances_path, domain)
    tracks = [Track(instance, g.system, g.text, made=_made(g.meta))
              for instance, g in iter_generations(generations_path, instances, domain)]
    outdir = Path(outdir)
    table: list[dict[str, Any]] = []
    failed_total = 0
    unanswered: str | None = None

    def score(chosen: list[Track]) -> None:
        results = evaluator.evaluate([(t.instance, Generation(instance_id=t.instance.id, system=t.system,
                                                              text=t.text)) for t in chosen])
        for track, result in zip(chosen, results):
            track.result = result
            if result.score.total.metrics(policy)["f1"] == 1.0:
                track.status = "f1=1"

    score(tracks)
    for number in range(rounds + 1):
        revised: set[tuple[str, str]] = set()
        failures: dict[tuple[str, str], str] = {}
        notes: list[dict[str, Any]] = []
        if number > 0 and not any(t.status == "in play" for t in tracks):
            break  # every text has left the loop: later rounds would repeat this one
        if number > 0:
            asked = {"max_tokens": domain.answer_tokens, **(parameters or {})}
            revised, failures, notes = _revise(domain, tracks, client, number, asked, quiet, prompt)
            score([t for t in tracks if t.key in revised])
            failed_total += len(failures)
        table += _write_round(outdir / f"round-{number}", number, tracks, revised, failures, notes, policy)
        if failures and len(failures) == len(notes):
            # Not one answer in a whole round: the server is down or refuses every request, so the
            # next round would only ask the same again (--rounds 1000 against a dead server never ended).
            first = sorted(failures.items())[0]
            unanswered = (f"round {number}: none of {len(failures)} request(s) got an answer "
                          f"(first: {first[0][0]}: {first[1]})")
            break
    _write_table(outdir / "rounds.csv", table)
    if report:
        _score_rounds(domain_name, instances_path, outdir, extractor, policy, table)
    return RefineOutcome(outdir=outdir, rounds=table, failed=failed_total, unanswered=unanswered)


def _revise(domain: Domain, tracks: list[Track], client: ChatClient, number: int, parameters: dict[str, Any],
            quiet: bool, prompt: str | PromptTemplate = NEUTRAL) -> tuple[set[tuple[str, str]], dict[tuple[str, str], str], list[dict[str, Any]]]:
    """One round of asking: feedback to every text in play; returns (revised, failed, feedback sent)."""
    asked: dict[tuple[str, str], str] = {}
    notes: list[dict[str, Any]] = []
    for track in tracks:
        if track.status != "in play":
            continue
        told = feedback(domain, track.result)
        if told is None:
            track.status = "nothing to correct"
            continue
        asked[track.key] = told
        notes.append({"instance_id": track.instance.id, "system": track.system, "round": number, "feedback": told})
    by_key = {t.key: t for t in tracks}
    # The model sees the original request, its own last text and what was wrong with it.
    jobs = ((key, prompt_messages(by_key[key].instance, prompt)
             + [{"role": "assistant", "content": by_key[key].text}, {"role": "user", "content": told}])
            for key, told in asked.items())
    revised: set[tuple[str, str]] = set()
    failures: dict[tuple[str, str], str] = {}
    with progress(f"refine round {number}", "texts", enabled=not quiet and bool(asked)) as advance:
        advance(total=len(asked))
        for key, answer in _answers(client.complete_many(jobs, **parameters), asked):
            track = by_key[key]
            if isinstance(answer, ChatError):
                failures[key] = str(answer)  # stays in play: the next round asks again
                advance(description=f"({len(failures)} failed)")  # not progress
                continue
            advance(1)
            text, _ = split_reasoning(answer.content, answer.reasoning)  # thinking is never scored
            if not text:
                failures[key] = "the answer holds only the model's reasoning, no text"
                continue
            if text == track.text.strip():
                track.status = "unchanged"
                continue
            track.text = text
            track.made = {"prompt": variant_name(prompt), "finish_reason": answer.finish_reason,
                          "truncated": answer.finish_reason == "length"}
            revised.add(key)
    return revised, failures, notes


def _answers(stream: Iterator[tuple[Any, Any]], asked: dict) -> Iterator[tuple[Any, Any]]:
    """The stream's answers; when the server turns out unreachable, that error for every request
    not answered yet (the round is written and the loop ends, instead of the run failing)."""
    seen = set()
    try:
        for key, answer in stream:
            seen.add(key)
            yield key, answer
    except ServerUnreachable as error:
        for key in asked:
            if key not in seen:
                yield key, error


def _write_round(directory: Path, number: int, tracks: list[Track], revised: set, failures: dict,
                 notes: list[dict[str, Any]], policy: ScoringPolicy) -> list[dict[str, Any]]:
    directory.mkdir(parents=True, exist_ok=True)
    generations, scores = [], []
    for track in tracks:
        metrics = _metrics(track.result, policy)
        generations.append({"instance_id": track.instance.id, "system": track.system, "language": track.result.language,
                            "text": track.text, "round": number, "revised": track.key in revised,
                            **({"meta": track.made} if track.made else {})})
        status = f"failed: {failures[track.key]}" if track.key in failures else track.status
        scores.append({"instance_id": track.instance.id, "system": track.system, "status": status, **metrics})
    write_jsonl_atomic(directory / "generations.jsonl", generations)
    if number > 0:
        write_jsonl_atomic(directory / "feedback.jsonl", notes)
    columns = ["instance_id", "system", "status", "n_claims", "supported", "contradicted", "unverifiable",
               "n_facts", "covered", "precision", "recall", "f1"]
    _write_csv(directory / "scores.csv", columns, scores)
    rows = []
    for system in sorted({t.system for t in tracks}):
        mine = [t for t in tracks if t.system == system]
        own = [s for s in scores if s["system"] == system]
        rows.append({
            "system": system, "round": number, "n": len(mine),
            "revised": sum(t.key in revised for t in mine),
            "in_play": sum(t.status == "in play" for t in mine),
            "failed": sum(t.key in failures for t in mine),
            "truncated": sum(t.truncated for t in mine),
            **{m: _mean([s[m] for s in own]) for m in ("precision", "recall", "f1")},
        })
    return rows


def _write_csv(path: Path, columns: list[str] | tuple[str, ...], rows: list[dict[str, Any]]) -> None:
    with atomic_path(path) as tmp, tmp.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(columns), extrasaction="ignore", lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: "" if row.get(k) is None else (f"{row[k]:.6f}" if isinstance(row[k], float) else row[k])
                             for k in columns})


def _write_table(path: Path, rows: list[dict[str, Any]]) -> None:
    _write_csv(path, ROUND_COLUMNS, rows)


def _score_rounds(domain_name: str, instances_path: str | Path, outdir: Path, extractor: str | None,
                  policy: ScoringPolicy, table: list[dict[str, Any]]) -> None:
    """Every round as a system ``SYSTEM@rK`` in one scoring run: the report's round-by-round view."""
    from factcov.report import write_report
    from factcov.runner import score_files

    combined = outdir / "all_rounds.jsonl"
    rows = []
    for directory in sorted(outdir.glob("round-*"), key=lambda p: int(p.name.split("-")[1])):
        number = int(directory.name.split("-")[1])
        with (directory / "generations.jsonl").open(encoding="utf-8") as handle:
            for line in handle:
                row = json.loads(line)
                rows.append({"instance_id": row["instance_id"], "system": f"{row['system']}@r{number}",
                             "text": row["text"], "language": row["language"],
                             **({"meta": row["meta"]} if "meta" in row else {})})  # prompt, truncated: the report's
    write_jsonl_atomic(combined, rows)
    report = outdir / "report"
    score_files(domain_name, instances_path, combined, report, extractor=extractor, policy=policy, report=False)
    # The per-round table beside the scores: the report shows it as its rounds section.
    write_text_atomic(report / "rounds.json", json.dumps(table, ensure_ascii=False, indent=1))
    write_report([report], report / "report.html")
