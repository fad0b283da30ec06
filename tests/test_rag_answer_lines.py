"""Answer lines of several systems to the same questions, read by `rag score` and `score -d rag` alike."""

import json
import re

import pandas as pd
import pytest

from factcov.cli.app import run

EXAMPLE = "docs/examples/rag_answers.jsonl"
SITE = {"id": "site", "text": "The Harbour Light Museum in Velmora opens on 3 May 2025, at 10 am."}
Q1 = {"question_id": "q1", "question": "When does it open?", "reference": "The Harbour Light Museum opens on 3 May 2025.",
      "contexts": [SITE]}


def write(tmp_path, *lines):
    path = tmp_path / "answers.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    return path


def scores(out):
    return pd.read_parquet(out / "scores.parquet").set_index(["instance_id", "system"]).sort_index()


def test_every_jsonl_block_of_the_doc_is_its_file(repo_root):
    text = (repo_root / "docs" / "domains" / "rag.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```jsonl file=(\S+)\n(.*?)\n```", text, re.S)
    assert EXAMPLE in [name for name, _ in blocks]
    for name, block in blocks:
        assert (repo_root / name).read_text(encoding="utf-8").strip() == block.strip(), name


def test_both_commands_score_the_doc_example_alike(repo_root, tmp_path):
    example = str(repo_root / EXAMPLE)
    assert run(["rag", "score", "-i", example, "-o", str(tmp_path / "a"), "-q", "--no-report"]) == 0
    assert run(["score", "-d", "rag", "-i", example, "-o", str(tmp_path / "b"), "-q", "--no-report"]) == 0
    a, b = scores(tmp_path / "a"), scores(tmp_path / "b")
    # one instance per question, one generation per (question, system), as the doc says
    assert list(a.index) == [("q1", "rag-a"), ("q1", "rag-b"), ("q1", "rag-c"), ("q2", "rag-a"), ("q2", "rag-b")]
    summary = json.loads((tmp_path / "b" / "summary.json").read_text())
    assert summary["n_instances"] == 2 and summary["n_generations"] == 5
    assert {s["system"]: s["n"] for s in summary["systems"]} == {"rag-a": 2, "rag-b": 2, "rag-c": 1}
    numbers = a.select_dtypes("number").columns
    pd.testing.assert_frame_equal(a[numbers], b[numbers])
    # the answer's own id is its generation id; the question's later line inherited the passages,
    # and its citation of the first line's passage is checked (and counted) like any other
    assert a.loc[("q1", "rag-b"), "generation_id"] == "q1-b" and pd.isna(a.loc[("q1", "rag-a"), "generation_id"])
    assert a.loc[("q1", "rag-b"), "context_relevance"] == a.loc[("q1", "rag-a"), "context_relevance"]
    assert pd.notna(a.loc[("q1", "rag-b"), "citation_precision"])
    assert pd.isna(a.loc[("q1", "rag-a"), "citation_precision"])  # rag-a cites nothing


def test_the_same_answer_scores_the_same_whichever_line_builds_its_question(tmp_path):
    """A question's instance is built once; each answer is scored against it as if alone."""
    answer = "The Harbour Light Museum opens on 3 May 2025."
    grouped = write(tmp_path, {**Q1, "system": "a", "answer": "It is closed."}, {"question_id": "q1", "system": "b",
                                                                                  "answer": answer})
    alone = tmp_path / "alone.jsonl"
    alone.write_text(json.dumps({**Q1, "system": "b", "answer": answer}) + "\n", encoding="utf-8")
    assert run(["rag", "score", "-i", str(grouped), "-o", str(tmp_path / "g"), "-q", "--no-report"]) == 0
    assert run(["rag", "score", "-i", str(alone), "-o", str(tmp_path / "s"), "-q", "--no-report"]) == 0
    g, s = scores(tmp_path / "g"), scores(tmp_path / "s")
    numbers = s.select_dtypes("number").columns
    pd.testing.assert_series_equal(g.loc[("q1", "b"), numbers], s.loc[("q1", "b"), numbers])


def test_citations_stay_with_their_answer(tmp_path):
    """Two systems cite differently: each answer's citation metrics are its own."""
    answer = "The Harbour Light Museum opens on 3 May 2025."
    path = write(tmp_path, {**Q1, "system": "a", "answer": answer, "citations": [{"sentence": 0, "context_id": "site"}]},
                 {"question_id": "q1", "system": "b", "answer": answer})
    assert run(["rag", "score", "-i", str(path), "-o", str(tmp_path / "o"), "-q", "--no-report"]) == 0
    table = scores(tmp_path / "o")
    assert table.loc[("q1", "a"), "citation_support"] > 0
    assert table.loc[("q1", "b"), "citation_support"] == 0  # nothing cited: no claim is supported by a citation


@pytest.mark.parametrize("command", [["rag", "score", "-i"], ["score", "-d", "rag", "-i"]])
@pytest.mark.parametrize(
    ("second", "field", "words"),
    [
        ({"question_id": "q1", "system": "a", "answer": "again"}, "system", "first on line 1"),
        ({"question_id": "q1", "system": "b", "answer": "x", "reference": "Another reference."}, "reference",
         "line 1"),
        ({"question_id": "q1", "system": "b", "answer": "x", "contexts": []}, "contexts", "line 1"),
        ({"system": "b", "answer": "x"}, "question_id", "missing"),
        ({"question_id": "q1", "system": "b", "answer": "x", "citations": [{"sentence": 0, "context_id": "c9"}]},
         "citations.0.context_id", "site"),
    ],
)
def test_errors_name_file_line_and_field_and_write_nothing(tmp_path, capsys, command, second, field, words):
    path = write(tmp_path, {**Q1, "system": "a", "answer": "It opens in May."}, second)
    out = tmp_path / "out"
    assert run([*command, str(path), "-o", str(out), "-q"]) == 2
    message = capsys.readouterr().err.strip()
    assert message.count("\n") == 0
    assert f"{path}:2: field '{field}'" in message and words in message
    assert not out.exists()


def test_a_citation_past_a_later_answer_names_that_answers_line(tmp_path, capsys):
    path = write(tmp_path, {**Q1, "system": "a", "answer": "It opens in May."},
                 {"question_id": "q2", "system": "a", "answer": "No."},
                 {"question_id": "q1", "system": "b", "answer": "One sentence.",
                  "citations": [{"sentence": 3, "context_id": "site"}]})
    assert run(["score", "-d", "rag", "-i", str(path), "-o", str(tmp_path / "o"), "-q"]) == 2
    assert f"{path}:3: field 'citations.0.sentence'" in capsys.readouterr().err


def test_a_domain_without_answer_lines_asks_for_generations(tmp_path, capsys, repo_root):
    path = write(tmp_path, {**Q1, "system": "a", "answer": "x"})
    assert run(["score", "-d", "weather", "-i", str(path), "-o", str(tmp_path / "o"), "-q"]) == 2
    assert "reads no answer lines" in capsys.readouterr().err


def test_one_system_files_with_unique_ids_read_as_before(repo_root, tmp_path):
    """factcov 0.1's format (a unique id per answer, one system) is one question per line."""
    museum = str(repo_root / "domains" / "rag" / "museum.jsonl")
    assert run(["score", "-d", "rag", "-i", museum, "-o", str(tmp_path / "o"), "-q", "--no-report"]) == 0
    table = pd.read_parquet(tmp_path / "o" / "scores.parquet")
    assert list(table["instance_id"]) == ["complete", "embellished", "fragment", "outdated", "off-topic", "empty"]
    assert set(table["system"]) == {"answer"} and table["generation_id"].isna().all()


def test_real_questions_answered_by_two_systems(shared_data, tmp_path):
    """HaluEval's grounded questions as answer lines: each question once with its passage,
    then a right and a hallucinated answer as two systems (the second line repeats nothing)."""
    source = (shared_data / "halueval-qa" / "qa_one-turn_data.json").read_text(encoding="utf-8").splitlines()[:12]
    lines = []
    for number, raw in enumerate(source):
        item = json.loads(raw)
        lines.append({"question_id": f"halueval:{number}", "system": "right", "question": item["question"],
                      "contexts": [{"id": "knowledge", "text": item["knowledge"]}], "answer": item["right_answer"]})
        lines.append({"question_id": f"halueval:{number}", "system": "hallucinated",
                      "answer": item["hallucinated_answer"]})
    path = write(tmp_path, *lines)
    assert run(["score", "-d", "rag", "-i", str(path), "-o", str(tmp_path / "o"), "-q", "--no-report"]) == 0
    summary = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert summary["n_instances"] == 12 and summary["n_generations"] == 24
    table = scores(tmp_path / "o")
    assert set(table.index.get_level_values("system")) == {"right", "hallucinated"}
    # the hallucinated answers, whose lines give no passage, were checked against their question's:
    # faithfulness is defined (it is undefined only without a passage or without a content
    # unit, and every hallucinated answer here has content words)
    hallucinated = table.xs("hallucinated", level="system")
    assert hallucinated["faithfulness"].notna().all()


def test_answer_lines_in_worker_processes_give_the_same_bytes(repo_root, tmp_path):
    example = str(repo_root / EXAMPLE)
    for name, extra in (("one", []), ("two", ["-j", "2"])):
        assert run(["score", "-d", "rag", "-i", example, "-o", str(tmp_path / name), "-q", "--no-report", *extra]) == 0
    for file in ("scores.parquet", "claims.parquet", "systems.csv"):
        assert (tmp_path / "one" / file).read_bytes() == (tmp_path / "two" / file).read_bytes(), file
