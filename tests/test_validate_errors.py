"""`validate errors`: matching flagged claims to gold error spans, the gold readers, and
the whole command on gold made by corrupting every built-in domain's realized texts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from factcov.cli.app import run
from factcov.errors import InputError
from factcov.model import Claim, Generation, Verdict
from factcov.validation.errors import (
    ErrorValidation,
    add_text,
    match_lenient,
    match_strict,
    merge_spans,
    sentence_around,
)
from factcov.validation.gold import GoldError, read_gold, read_jsonl_gold, read_shared_task_csv, token_spans


def verdict(span, label="contradicted", statement=None, out_of_scope=None) -> Verdict:
    claim = Claim(type="t", value=1, span=span, statement_span=statement, out_of_scope=out_of_scope)
    return Verdict(claim=claim, label=label)


def gold(start, end, type_="NUMBER") -> GoldError:
    return GoldError("i", "s", type_, start, end, "")


# --- matching rules -------------------------------------------------------------------------


def test_one_claim_over_two_errors_recalls_both_leniently_but_one_strictly():
    errors = [(0, 5), (10, 15)]
    claims = [(0, 15)]
    lenient, strict = match_lenient(errors, claims), match_strict(errors, claims)
    assert lenient.recalled == [True, True] and lenient.correct_predictions == 1
    assert strict.recalled == [True, False] and strict.predictions == 1 and strict.correct_predictions == 1


def test_overlapping_claims_are_merged_into_one_prediction_when_strict():
    errors = [(0, 8)]
    claims = [(0, 5), (3, 8)]
    lenient, strict = match_lenient(errors, claims), match_strict(errors, claims)
    assert (lenient.predictions, lenient.correct_predictions) == (2, 2)
    assert (strict.predictions, strict.correct_predictions) == (1, 1)
    assert merge_spans(claims) == [(0, 8)]


def test_touching_spans_do_not_overlap_nor_merge():
    assert match_lenient([(0, 5)], [(5, 9)]).recalled == [False]
    assert merge_spans([(0, 5), (5, 9)]) == [(0, 5), (5, 9)]


def test_strict_gives_each_error_the_first_unused_overlapping_claim_in_text_order():
    # two errors inside one merged claim region and one claim of their own each
    errors = [(20, 25), (0, 4)]
    claims = [(0, 4), (2, 6), (19, 30)]
    strict = match_strict(errors, claims)
    assert strict.recalled == [True, True] and strict.predictions == 2 and strict.correct_predictions == 2


def test_a_claim_over_no_error_lowers_precision_in_both_matchings():
    errors = [(0, 4)]
    claims = [(0, 4), (10, 12)]
    assert match_lenient(errors, claims).correct_predictions == 1
    assert match_strict(errors, claims).correct_predictions == 1
    assert match_strict(errors, claims).predictions == 2


def test_an_error_of_several_tokens_is_recalled_by_a_claim_on_any_of_them():
    text = "The Hawks beat the New York Knicks 102 - 98 on Friday ."
    spans = token_spans(text)
    start, end = spans[4][0], spans[6][1]  # tokens 5..7: "New York Knicks"
    assert text[start:end] == "New York Knicks"
    knicks = text.index("Knicks")
    assert match_strict([(start, end)], [(knicks, knicks + 6)]).recalled == [True]
    assert match_strict([(start, end)], [(text.index("102"), text.index("102") + 3)]).recalled == [False]


def test_sentence_around_is_the_fallback_statement_span():
    text = "HAM pitted on lap 13. He won the race! Then rain."
    assert text[slice(*sentence_around(text, (text.index("won"), text.index("won") + 3)))] == "He won the race!"
    assert text[slice(*sentence_around(text, (0, 3)))] == "HAM pitted on lap 13."
    assert text[slice(*sentence_around(text, (text.index("rain"), text.index("rain") + 4)))] == "Then rain."


def test_statement_span_recalls_an_error_outside_the_value():
    text = "LeBron James scored 30 points."
    name = (0, 12)  # the annotated error is the name, the claim's value is the number
    claim = verdict((20, 22), statement=(0, 29))
    by_value, by_statement = ErrorValidation("value", ("contradicted",)), ErrorValidation("statement", ("contradicted",))
    add_text(by_value, text, [claim], [gold(*name, "NAME")])
    add_text(by_statement, text, [claim], [gold(*name, "NAME")])
    assert by_value.as_dict()["strict"]["recall"] == 0.0
    assert by_statement.as_dict()["strict"]["recall"] == 1.0


@pytest.mark.parametrize(
    ("claims", "cause"),
    [
        ([], "no claim read"),
        ([verdict((0, 4), "supported")], "claim supported"),
        ([verdict((0, 4), "unverifiable")], "unverifiable"),
        ([verdict((0, 4), "contradicted", out_of_scope="next game")], "out of scope"),
        ([verdict((0, 4), "supported"), verdict((2, 4), "unverifiable")], "unverifiable"),
    ],
)
def test_each_missed_error_gets_its_cause(claims, cause):
    outcome = ErrorValidation("value", ("contradicted",))
    add_text(outcome, "abcd efgh", claims, [gold(0, 4)])
    result = outcome.as_dict()
    assert result["strict"]["by_type"]["NUMBER"]["missed"][cause] == 1
    assert sum(result["strict"]["missed"].values()) == 1


def test_an_error_whose_claim_recalled_an_earlier_error_is_taken_by_another_error():
    outcome = ErrorValidation("value", ("contradicted",))
    add_text(outcome, "x" * 20, [verdict((0, 15))], [gold(0, 5), gold(10, 15)])
    strict, lenient = outcome.as_dict()["strict"], outcome.as_dict()["lenient"]
    assert strict["missed"]["taken by another error"] == 1 and lenient["recalled"] == 2


def test_out_of_scope_claims_are_never_predictions_but_are_counted():
    outcome = ErrorValidation("value", ("contradicted",))
    add_text(outcome, "x" * 10, [verdict((0, 4), out_of_scope="season average")], [])
    result = outcome.as_dict()
    assert result["strict"]["predictions"] == 0 and result["out_of_scope_claims"] == 1


def test_unverifiable_claims_flag_errors_only_when_asked():
    claims = [verdict((0, 4), "unverifiable")]
    default, wider = ErrorValidation("value", ("contradicted",)), ErrorValidation("value", ("contradicted", "unverifiable"))
    add_text(default, "abcd", claims, [gold(0, 4)])
    add_text(wider, "abcd", claims, [gold(0, 4)])
    assert default.as_dict()["lenient"]["recall"] == 0.0 and wider.as_dict()["lenient"]["recall"] == 1.0


# --- gold readers ---------------------------------------------------------------------------

TEXT = "The Hawks beat the Magic 102 - 98 . Dwight Howard scored 15 points ."
GENERATIONS = {("S005", "sys"): Generation(instance_id="S005", system="sys", text=TEXT)}


def test_jsonl_gold_reads_character_and_token_spans(tmp_path):
    path = tmp_path / "gold.jsonl"
    path.write_text(
        json.dumps({"instance_id": "S005", "type": "NAME", "start": 4, "end": 9, "text": "Hawks"}) + "\n"
        + json.dumps({"instance_id": "S005", "type": "NAME", "token_start": 10, "token_end": 11, "correction": "X"}) + "\n",
        encoding="utf-8",
    )
    errors = read_jsonl_gold(path, GENERATIONS)
    assert [(e.text, e.system) for e in errors] == [("Hawks", "sys"), ("Dwight Howard", "sys")]
    assert errors[1].correction == "X"


def test_words_tokenization_splits_punctuation_from_words():
    text = "Hawks' 102-98."
    assert [text[s:e] for s, e in token_spans(text, "words")] == ["Hawks", "'", "102", "-", "98", "."]


@pytest.mark.parametrize(
    ("row", "field"),
    [
        ({"instance_id": "S005", "type": "NAME", "start": 4, "end": 9, "text": "Hawk"}, "text"),
        ({"instance_id": "S005", "type": "NAME", "start": 4, "end": 900}, "start"),
        ({"instance_id": "nope", "type": "NAME", "start": 4, "end": 9}, "instance_id"),
        ({"instance_id": "S005", "type": "NAME", "token_start": 3, "token_end": 99}, "token_start"),
        ({"instance_id": "S005", "type": "NAME"}, None),
    ],
)
def test_bad_jsonl_gold_names_the_line_and_field(tmp_path, row, field):
    path = tmp_path / "gold.jsonl"
    path.write_text("\n" + json.dumps(row) + "\n", encoding="utf-8")
    with pytest.raises(InputError) as raised:
        read_jsonl_gold(path, GENERATIONS)
    assert raised.value.line == 2
    if field is not None:
        assert raised.value.field == field


SHARED_TASK_HEADER = ("TEXT_ID,SENTENCE_ID,ANNOTATION_ID,TOKENS,SENT_TOKEN_START,SENT_TOKEN_END,DOC_TOKEN_START,"
                      "DOC_TOKEN_END,TYPE,CORRECTION,COMMENT\n")


def test_shared_task_csv_reads_document_and_sentence_token_numbers(tmp_path):
    path = tmp_path / "gsml.csv"
    path.write_text(
        SHARED_TASK_HEADER
        + '"S005.txt","1","1","Magic","5","5","5","5","NAME","Hawks",""\n'
        + '"S005.txt","2","2","Dwight Howard","1","2","","","NAME","","started on the bench"\n'
        + '"S005.txt","2","3","15","4","4","13","13","NUMBER","13",""\n',
        encoding="utf-8",
    )
    errors = read_shared_task_csv(path, GENERATIONS)
    assert [(e.type, e.text, e.correction) for e in errors] == [
        ("NAME", "Magic", "Hawks"), ("NAME", "Dwight Howard", None), ("NUMBER", "15", "13")]
    assert read_gold(path, GENERATIONS) == errors  # chosen by extension


def test_shared_task_csv_tokens_outside_the_text_name_the_row(tmp_path):
    path = tmp_path / "gsml.csv"
    path.write_text(SHARED_TASK_HEADER + '"S005.txt","1","1","x","","","40","41","NAME","",""\n', encoding="utf-8")
    with pytest.raises(InputError, match="outside the text's 15 tokens") as raised:
        read_shared_task_csv(path, GENERATIONS)
    assert (raised.value.line, raised.value.field) == (2, "DOC_TOKEN_START")


def test_csv_without_the_shared_task_columns_is_refused(tmp_path):
    path = tmp_path / "gsml.csv"
    path.write_text("id,start\nS005,1\n", encoding="utf-8")
    with pytest.raises(InputError, match="TEXT_ID, TYPE"):
        read_shared_task_csv(path, GENERATIONS)


def test_a_column_read_twice_in_the_header_is_refused(tmp_path):
    """csv.DictReader keeps the last of two same-named columns: the first's values vanished."""
    path = tmp_path / "gsml.csv"
    path.write_text(SHARED_TASK_HEADER.replace("COMMENT", "TYPE")
                    + '"S005.txt","1","1","Magic","5","5","5","5","NAME","Hawks","NUMBER"\n', encoding="utf-8")
    with pytest.raises(InputError, match="'TYPE' appears 2 times") as raised:
        read_shared_task_csv(path, GENERATIONS)
    assert (raised.value.line, raised.value.field) == (1, "TYPE")
    path.write_text(SHARED_TASK_HEADER.replace("COMMENT", "ANNOTATION_ID")  # a column not read: no harm
                    + '"S005.txt","1","1","Magic","5","5","5","5","NAME","Hawks","9"\n', encoding="utf-8")
    assert [e.text for e in read_shared_task_csv(path, GENERATIONS)] == ["Magic"]


# --- the command on gold made by corrupting realized texts ------------------------------------


def _json_lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="module")
def f1_gold(tmp_path_factory) -> Path:
    directory = tmp_path_factory.mktemp("f1-gold")
    code = run(["validate", "perturb", "-d", "f1", "--write-gold", str(directory), "--json"])
    assert code == 0
    return directory


def test_perturbation_gold_marks_exactly_the_changed_words(f1_gold):
    generations = {(g["instance_id"], g["system"]): g["text"] for g in _json_lines(f1_gold / "generations.jsonl")}
    errors = _json_lines(f1_gold / "errors.jsonl")
    assert errors and all(e["system"] == "corrupted" for e in errors)
    by_instance: dict[str, list[dict]] = {}
    for error in errors:
        corrupted = generations[(error["instance_id"], "corrupted")]
        assert corrupted[error["start"]:error["end"]] == error["text"] != error["correction"]
        by_instance.setdefault(error["instance_id"], []).append(error)
    for instance_id, mine in by_instance.items():
        text = generations[(instance_id, "corrupted")]
        for error in sorted(mine, key=lambda e: -e["start"]):  # putting every correction back gives the complete text
            text = text[:error["start"]] + error["correction"] + text[error["end"]:]
        # (an inserted word, "não", has the empty correction: only a space is left over)
        assert " ".join(text.split()) == " ".join(generations[(instance_id, "realized")].split())
    types = {e["type"] for e in errors}
    assert "unattributed" not in types and {"pit_lap", "stop_count"} & types


def test_validate_errors_on_f1_perturbation_gold(f1_gold, capsys):
    args = ["validate", "errors", "-d", "f1", "-i", str(f1_gold / "instances.jsonl"),
            "-g", str(f1_gold / "generations.jsonl"), "--gold", str(f1_gold / "errors.jsonl"), "--json"]
    capsys.readouterr()
    assert run(args) == 0
    by_value = json.loads(capsys.readouterr().out)
    assert run([*args, "--span", "statement"]) == 0
    by_statement = json.loads(capsys.readouterr().out)
    n_errors = len(_json_lines(f1_gold / "errors.jsonl"))
    for result in (by_value, by_statement):
        assert result["strict"]["errors"] == result["lenient"]["errors"] == n_errors
        assert result["lenient"]["recall"] >= result["strict"]["recall"] > 0.5
        assert sum(result["strict"]["missed"].values()) == n_errors - result["strict"]["recalled"]
        assert result["signature"].startswith("factcov:")
    # the f1 extractor's value span of a bool claim is its trigger word ("undercut"), not the
    # "did not work" that was corrupted: the statement span finds what the value span misses
    assert by_statement["lenient"]["recall"] > by_value["lenient"]["recall"]
    assert by_statement["strict"]["precision"] >= by_value["strict"]["precision"]


@pytest.mark.parametrize("domain", ["weather", "rag"])
def test_validate_errors_on_perturbation_gold_of_other_domains(domain, tmp_path, capsys):
    run(["validate", "perturb", "-d", domain, "--write-gold", str(tmp_path), "--max-instances", "6", "--json"])
    capsys.readouterr()
    code = run(["validate", "errors", "-d", domain, "-i", str(tmp_path / "instances.jsonl"),
                "-g", str(tmp_path / "generations.jsonl"), "--gold", str(tmp_path / "errors.jsonl"), "--json"])
    assert code == 0
    result = json.loads(capsys.readouterr().out)
    assert result["strict"]["errors"] > 0 and result["strict"]["recalled"] > 0
    # the realized texts are correct: every flagged claim there would be a false alarm
    assert result["strict"]["precision"] == 1.0


def test_validate_errors_bad_span_choice_exits_2(f1_gold, capsys):
    code = run(["validate", "errors", "-d", "f1", "-i", str(f1_gold / "instances.jsonl"),
                "-g", str(f1_gold / "generations.jsonl"), "--gold", str(f1_gold / "errors.jsonl"), "--span", "phrase"])
    assert code == 2
    assert "--span must be 'value' or 'statement'" in capsys.readouterr().err


# --- the worked example of docs/validation.md -------------------------------------------------

WORKED_TEXT = ("Hamilton won at Imola after three stops, boxing on lap 13 and again on lap 29, "
               "going from mediums to hards.")


@pytest.mark.parametrize(
    ("span", "lenient", "strict", "strict_predictions"),
    [("value", 2, 2, 2), ("statement", 3, 1, 1)],
)
def test_the_worked_example_of_the_docs(repo_root, tmp_path, capsys, span, lenient, strict, strict_predictions):
    from factcov.plugins import get_domain

    assert WORKED_TEXT in (repo_root / "docs" / "validation.md").read_text(encoding="utf-8")
    instance = next(i for i in get_domain("f1").example_instances() if i.id == "f1:2021:1:tyre_strategy:HAM:en")
    (tmp_path / "i.jsonl").write_text(instance.model_dump_json() + "\n", encoding="utf-8")
    (tmp_path / "g.jsonl").write_text(json.dumps({"instance_id": instance.id, "system": "mine", "text": WORKED_TEXT}) + "\n")
    rows = [
        {"instance_id": instance.id, "system": "mine", "type": "NAME", "start": 16, "end": 21, "text": "Imola"},
        {"instance_id": instance.id, "type": "NUMBER", "token_start": 6, "token_end": 6, "correction": "two"},
        {"instance_id": instance.id, "type": "NUMBER", "start": 75, "end": 77, "text": "29"},
    ]
    (tmp_path / "e.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert run(["validate", "errors", "-d", "f1", "-i", str(tmp_path / "i.jsonl"), "-g", str(tmp_path / "g.jsonl"),
                "--gold", str(tmp_path / "e.jsonl"), "--span", span, "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["lenient"]["recalled"] == lenient and result["lenient"]["precision"] == 1.0
    assert result["strict"]["recalled"] == strict and result["strict"]["predictions"] == strict_predictions
    assert result["strict"]["precision"] == 1.0
    causes = {m["text"]: m["cause"] for m in result["misses"]}
    if span == "value":
        assert causes == {"Imola": "no claim read"}
    else:
        assert set(causes.values()) == {"taken by another error"}


def test_a_spreadsheets_byte_order_mark_is_read(tmp_path):
    path = tmp_path / "gsml.csv"
    path.write_text("\ufeff" + SHARED_TASK_HEADER + '"S005.txt","1","1","Magic","5","5","5","5","NAME","",""\n',
                    encoding="utf-8")
    assert [e.text for e in read_shared_task_csv(path, GENERATIONS)] == ["Magic"]


def test_a_csv_that_is_not_utf8_names_the_file(tmp_path):
    path = tmp_path / "gsml.csv"
    path.write_bytes(SHARED_TASK_HEADER.encode() + b'"S005.txt","1","1","Magic\xff","5","5","5","5","NAME","",""\n')
    with pytest.raises(InputError, match="not UTF-8"):
        read_shared_task_csv(path, GENERATIONS)


@pytest.mark.parametrize("layout", ["jsonl", "csv"])
def test_an_error_annotated_twice_is_refused_naming_both_lines(tmp_path, layout):
    if layout == "csv":
        path = tmp_path / "gsml.csv"
        row = '"S005.txt","1","1","Magic","5","5","5","5","NAME","",""\n'
        path.write_text(SHARED_TASK_HEADER + row + row, encoding="utf-8")
    else:
        path = tmp_path / "gold.jsonl"
        row = json.dumps({"instance_id": "S005", "type": "NAME", "start": 4, "end": 9}) + "\n"
        path.write_text(row + row, encoding="utf-8")
    with pytest.raises(InputError, match="the same error as on line") as raised:
        read_gold(path, GENERATIONS)
    assert raised.value.line == 3 if layout == "csv" else raised.value.line == 2


def test_gold_errors_through_the_command_exit_2_with_one_line(tmp_path, mini_plugin, capsys):
    (tmp_path / "i.jsonl").write_text(json.dumps({"id": "i1", "domain": "mini", "task": "count", "language": "en",
                                                  "facts": [{"type": "count", "key": {"item": "apples"}, "value": 3}]}) + "\n")
    (tmp_path / "g.jsonl").write_text(json.dumps({"instance_id": "i1", "system": "s", "text": "apples: 4."}) + "\n")
    (tmp_path / "e.jsonl").write_text(json.dumps({"instance_id": "i1", "type": "", "start": 8, "end": 9}) + "\n")
    assert run(["validate", "errors", "-d", "mini", "-i", str(tmp_path / "i.jsonl"), "-g", str(tmp_path / "g.jsonl"),
                "--gold", str(tmp_path / "e.jsonl")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "e.jsonl:1" in err and "type" in err


def test_system_checks_one_system_of_a_gold_file_annotating_several(f1_gold, capsys):
    args = ["validate", "errors", "-d", "f1", "-i", str(f1_gold / "instances.jsonl"),
            "-g", str(f1_gold / "generations.jsonl"), "--gold", str(f1_gold / "errors.jsonl"), "--json"]
    capsys.readouterr()
    assert run([*args, "--system", "realized"]) == 0
    clean = json.loads(capsys.readouterr().out)
    assert clean["strict"]["errors"] == 0 and clean["strict"]["predictions"] == 0  # the complete texts
    assert run([*args, "--system", "corrupted"]) == 0
    corrupted = json.loads(capsys.readouterr().out)
    assert corrupted["strict"]["errors"] == len(_json_lines(f1_gold / "errors.jsonl"))
    assert run([*args, "--system", "nobody"]) == 2


def test_a_shared_task_csv_with_several_systems_needs_system(tmp_path):
    generations = {**GENERATIONS, ("S005", "other"): Generation(instance_id="S005", system="other", text=TEXT)}
    path = tmp_path / "gsml.csv"
    path.write_text(SHARED_TASK_HEADER + '"S005.txt","1","1","Magic","5","5","5","5","NAME","",""\n', encoding="utf-8")
    with pytest.raises(InputError, match="give 'system'"):
        read_shared_task_csv(path, generations)


def test_precision_per_claim_type_and_flagged_claims_without_a_span():
    outcome = ErrorValidation("value", ("contradicted",))
    claims = [Verdict(claim=Claim(type="pit_lap", value=1, span=(0, 4)), label="contradicted"),
              Verdict(claim=Claim(type="winner", value="X", span=(10, 12)), label="contradicted"),
              Verdict(claim=Claim(type="winner", value="Y"), label="contradicted")]
    add_text(outcome, "x" * 20, claims, [gold(0, 4)])
    result = outcome.as_dict()
    assert result["precision_by_claim_type"] == {
        "pit_lap": {"flagged": 1, "correct": 1, "precision": 1.0},
        "winner": {"flagged": 1, "correct": 0, "precision": 0.0},
    }
    assert result["flagged_without_span"] == 1 and result["lenient"]["predictions"] == 2


def test_an_empty_gold_file_means_no_errors(tmp_path):
    path = tmp_path / "gold.jsonl"
    path.write_text("", encoding="utf-8")
    assert read_gold(path, GENERATIONS) == []
    csv_path = tmp_path / "gsml.csv"
    csv_path.write_text(SHARED_TASK_HEADER, encoding="utf-8")
    assert read_gold(csv_path, GENERATIONS) == []
