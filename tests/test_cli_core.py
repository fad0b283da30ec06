"""The core commands end to end on the tiny test domain: outputs, determinism, gates, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from factcov.cli.app import run
from factcov.runner import score_files

INSTANCES = [
    {"id": "i1", "domain": "mini", "task": "count", "language": "en",
     "facts": [{"type": "count", "key": {"item": "apples"}, "value": 3},
               {"type": "colour", "key": {"item": "apples"}, "value": "red"},
               {"type": "window", "value": [2, 5]}]},
    {"id": "i2", "domain": "mini", "task": "count", "language": "en",
     "facts": [{"type": "count", "key": {"item": "pears"}, "value": 5}]},
]
GENERATIONS = [
    {"instance_id": "i1", "system": "complete", "text": "apples: 3. apples are red. window 2-5."},
    {"instance_id": "i2", "system": "complete", "text": "pears: 5. pears are green. <b>ok</b>"},
    {"instance_id": "i1", "system": "terse", "text": "apples: 3."},
    {"instance_id": "i2", "system": "terse", "text": ""},
    {"instance_id": "i1", "system": "wrong", "text": "apples: 4. apples are red. window 1-5. plums: 2."},
    {"instance_id": "i2", "system": "wrong", "text": "pears: 5."},
]


def write_jsonl(path: Path, rows: list) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture
def files(tmp_path, mini_plugin):
    return write_jsonl(tmp_path / "instances.jsonl", INSTANCES), write_jsonl(tmp_path / "generations.jsonl", GENERATIONS)


def score_cli(instances, generations, outdir, *extra) -> int:
    return run(["score", "-d", "mini", "-i", str(instances), "-g", str(generations), "-o", str(outdir), "-q", *extra])


def test_score_writes_the_four_outputs_with_hand_checked_numbers(files, tmp_path):
    assert score_cli(*files, tmp_path / "out", "--no-report") == 0
    out = tmp_path / "out"
    assert sorted(p.name for p in out.iterdir()) == ["claims.parquet", "manifest.json", "scores.parquet", "summary.json", "systems.csv"]
    systems = pd.read_csv(out / "systems.csv").set_index("system")
    # complete: i1 P=1 R=1; i2 "pears are green" is unverifiable -> P=1/2, R=1
    assert systems.loc["complete", "macro_precision"] == pytest.approx(0.75)
    assert systems.loc["complete", "micro_precision"] == pytest.approx(4 / 5)
    # terse: i1 P=1 R=1/3; i2 empty: P undefined (excluded from the mean), R=0
    assert systems.loc["terse", "macro_precision"] == pytest.approx(1.0)
    assert systems.loc["terse", "n_precision_defined"] == 1
    assert systems.loc["terse", "macro_recall"] == pytest.approx((1 / 3 + 0) / 2)
    assert systems.loc["terse", "rank_precision"] == 1 and systems.loc["terse", "rank_f1"] == 3
    claims = pd.read_parquet(out / "claims.parquet")
    wrong = claims[(claims.system == "wrong") & (claims.instance_id == "i1")]
    assert wrong.verdict.tolist() == ["contradicted", "supported", "contradicted", "unverifiable"]
    assert json.loads(wrong.expected.iloc[0]) == 3
    scores = pd.read_parquet(out / "scores.parquet")
    empty = scores[(scores.system == "terse") & (scores.instance_id == "i2")].iloc[0]
    assert pd.isna(empty.precision) and empty.recall == 0 and empty.f1 == 0
    assert json.loads(empty.missed) == [{"id": "count(item=pears)", "type": "count", "key": {"item": "pears"}, "value": 5}]


def test_same_inputs_give_byte_identical_outputs(files, tmp_path):
    for name in ("a", "b"):
        assert score_cli(*files, tmp_path / name, "--no-report") == 0
    for output in ("claims.parquet", "scores.parquet", "systems.csv", "summary.json"):
        assert (tmp_path / "a" / output).read_bytes() == (tmp_path / "b" / output).read_bytes(), output


def test_two_worker_processes_give_the_same_bytes_as_one(files, tmp_path):
    score_files("mini", *files, tmp_path / "one", chunk_size=2, jobs=1, report=False)
    score_files("mini", *files, tmp_path / "two", chunk_size=2, jobs=2, report=False)
    for output in ("claims.parquet", "scores.parquet", "systems.csv", "summary.json"):
        assert (tmp_path / "one" / output).read_bytes() == (tmp_path / "two" / output).read_bytes(), output


def test_worker_processes_give_the_same_signature_on_a_real_domain(tmp_path):
    from factcov.jsonl import write_jsonl_atomic
    from factcov.plugins import get_domain

    domain = get_domain("f1")
    instances = [i for i in domain.example_instances() if i.language == "en"][:4]
    write_jsonl_atomic(tmp_path / "i.jsonl", instances)
    write_jsonl_atomic(tmp_path / "g.jsonl", [
        {"instance_id": i.id, "system": "complete", "text": domain.realize(i.facts, i.language, i)} for i in instances
    ])
    one = score_files("f1", tmp_path / "i.jsonl", tmp_path / "g.jsonl", tmp_path / "one", chunk_size=2, report=False)
    two = score_files("f1", tmp_path / "i.jsonl", tmp_path / "g.jsonl", tmp_path / "two", chunk_size=2, jobs=2, report=False)
    assert "extractor:f1-regex@" in one.summary["signature"]
    assert one.summary["signature"] == two.summary["signature"]
    assert (tmp_path / "one" / "summary.json").read_bytes() == (tmp_path / "two" / "summary.json").read_bytes()


def test_a_dask_cluster_gives_the_same_bytes_as_one_process(files, tmp_path):
    pytest.importorskip("dask.distributed", reason="needs the dask extra: .ci/run installs it for the pandas-2 run (factcov[all]), not for the pandas-3 run")
    score_files("mini", *files, tmp_path / "one", chunk_size=2, report=False)
    score_files("mini", *files, tmp_path / "dask", chunk_size=2, dask="local", report=False)
    for output in ("claims.parquet", "scores.parquet", "systems.csv", "summary.json"):
        assert (tmp_path / "one" / output).read_bytes() == (tmp_path / "dask" / output).read_bytes(), output


class CountsOnly:
    """An extractor factory that pickles (a module-level class): the mini grammar, keeping
    its count claims only, so its runs differ from the registered extractor's."""

    def __call__(self, language: str):
        from tests.mini_domain import MiniExtractor

        class CountsOnlyExtractor(MiniExtractor):
            def extract(self, text, instance):
                return [c for c in super().extract(text, instance) if c.type == "count"]

        return CountsOnlyExtractor(language)


def test_dask_and_jobs_run_the_evaluators_own_factory_with_the_same_bytes(files, tmp_path):
    pytest.importorskip("dask.distributed", reason="needs the dask extra: .ci/run installs it for the pandas-2 run (factcov[all]), not for the pandas-3 run")
    outputs = ("claims.parquet", "scores.parquet", "systems.csv", "summary.json")
    score_files("mini", *files, tmp_path / "registered", chunk_size=2, report=False)
    for name, how in (("one", {}), ("jobs", {"jobs": 2}), ("dask", {"dask": "local"})):
        score_files("mini", *files, tmp_path / name, chunk_size=2, report=False, extractor=CountsOnly(), **how)
    claims = pd.read_parquet(tmp_path / "dask" / "claims.parquet")
    assert set(claims["type"]) == {"count"}  # the factory extracted, not the registered name rebuilt
    assert len(claims) < len(pd.read_parquet(tmp_path / "registered" / "claims.parquet"))
    for output in outputs:
        one = (tmp_path / "one" / output).read_bytes()
        assert one == (tmp_path / "jobs" / output).read_bytes() == (tmp_path / "dask" / output).read_bytes(), output


def test_dask_refuses_a_factory_that_cannot_travel_before_scoring(files, tmp_path):
    pytest.importorskip("dask.distributed", reason="needs the dask extra: .ci/run installs it for the pandas-2 run (factcov[all]), not for the pandas-3 run")
    from factcov.errors import FactcovError

    factory = CountsOnly()
    with pytest.raises(FactcovError, match="cannot be pickled"):
        score_files("mini", *files, tmp_path / "out", dask="local", report=False, extractor=lambda lang: factory(lang))
    assert not (tmp_path / "out").exists()  # no output file: the OUTDIR the run made is gone too


def test_an_extractor_spec_is_the_registered_extractor_with_its_options(files, tmp_path):
    from factcov.evaluate import ExtractorSpec

    score_files("mini", *files, tmp_path / "name", report=False, extractor="mini-regex")
    score_files("mini", *files, tmp_path / "spec", report=False, extractor=ExtractorSpec("mini-regex"))
    for output in ("claims.parquet", "scores.parquet", "systems.csv", "summary.json"):
        assert (tmp_path / "name" / output).read_bytes() == (tmp_path / "spec" / output).read_bytes(), output


def test_summary_carries_a_signature_that_changes_with_the_policy(files, tmp_path):
    score_cli(*files, tmp_path / "a", "--no-report")
    score_cli(*files, tmp_path / "b", "--no-report", "--unverifiable", "ignore")
    a = json.loads((tmp_path / "a" / "summary.json").read_text())
    b = json.loads((tmp_path / "b" / "summary.json").read_text())
    assert a["signature"].startswith("factcov:0.2.0|domain:mini@9.9.9|extractor:mini-regex|verifier:lookup|unverifiable:count")
    assert a["signature"] != b["signature"]
    assert a["rankings"]["by_precision"][0] == "terse" and a["rankings"]["by_f1"][-1] == "terse"


def test_gate_below_threshold_exits_1_and_names_the_system(files, tmp_path, capsys):
    assert score_cli(*files, tmp_path / "out", "--no-report", "--fail-under", "f1=0.5") == 1
    err = capsys.readouterr().err
    assert "terse: f1" in err and "complete" not in err


def test_gate_met_exits_0(files, tmp_path):
    assert score_cli(*files, tmp_path / "out", "--no-report", "--fail-under", "recall=0.1") == 0


def test_extract_writes_one_line_per_claim_with_verdicts(files, tmp_path):
    out = tmp_path / "claims.jsonl"
    assert run(["extract", "-d", "mini", "-i", str(files[0]), "-g", str(files[1]), "-o", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 3 + 2 + 1 + 0 + 4 + 1
    assert set(rows[0]) == {"instance_id", "system", "type", "key", "value", "span", "statement_span",
                            "out_of_scope", "text", "verdict", "expected"}
    assert rows[0]["span"] == [0, 10] and rows[0]["text"] == "apples: 3."


def test_domains_lists_the_test_domain_with_its_extractor(mini_plugin, capsys):
    assert run(["domains"]) == 0
    out = capsys.readouterr().out
    assert "mini" in out and "mini-regex (default)" in out


# --- bad input: one clear message naming file, line and field; exit 2; nothing written ---

BAD_CASES = {
    "malformed JSON": ("generations", ['{"instance_id": "i1", "system": "s", "text": "x"}', '{"instance_id": "i1",'],
                       "generations.jsonl:2: not valid JSON"),
    "missing field": ("generations", [{"instance_id": "i1", "system": "s"}],
                      "generations.jsonl:1: field 'text': missing required field"),
    "mistyped field": ("instances", [{**INSTANCES[0], "facts": [{"type": "count", "key": {"item": "a"}, "value": {"x": 1}}]}],
                       "instances.jsonl:1: field 'facts.0.value'"),
    "unknown claim type": ("instances", [{**INSTANCES[0], "facts": [{"type": "weight", "value": 1}]}],
                           "instances.jsonl:1: field 'facts.0.type': unknown claim type 'weight'"),
    "unknown language": ("instances", [{**INSTANCES[0], "language": "xx"}],
                         "instances.jsonl:1: field 'language': unknown language 'xx'"),
    "unknown instance": ("generations", [{"instance_id": "i9", "system": "s", "text": "x"}],
                         "generations.jsonl:1: field 'instance_id': instance_id 'i9' is not among the 2 instances"),
    "duplicate instance ids": ("instances", [INSTANCES[0], INSTANCES[1], INSTANCES[0]],
                               "instances.jsonl:3: field 'id': duplicate instance id 'i1' (first on line 1)"),
    "duplicate generations": ("generations", [GENERATIONS[0], GENERATIONS[1], GENERATIONS[0]],
                              "generations.jsonl:3: field 'system': duplicate generation for instance 'i1'"),
    "not a JSON object": ("generations", ["[1, 2]"], "generations.jsonl:1: expected a JSON object"),
    "empty file": ("generations", [], "generations.jsonl: file is empty"),
    "blank only file": ("instances", ["", "  "], "instances.jsonl: file is empty"),
}


@pytest.mark.parametrize("case", sorted(BAD_CASES))
def test_bad_input_is_one_message_exit_2_and_no_output(case, tmp_path, mini_plugin, capsys):
    which, rows, message = BAD_CASES[case]
    instances = write_jsonl(tmp_path / "instances.jsonl", rows if which == "instances" else INSTANCES)
    generations = write_jsonl(tmp_path / "generations.jsonl", rows if which == "generations" else GENERATIONS)
    assert score_cli(instances, generations, tmp_path / "out") == 2
    err = " ".join(capsys.readouterr().err.split())
    assert message in err
    assert "Traceback" not in err
    assert not (tmp_path / "out").exists() or list((tmp_path / "out").iterdir()) == []


def test_non_utf8_bytes_name_the_line(tmp_path, mini_plugin, capsys):
    instances = write_jsonl(tmp_path / "instances.jsonl", INSTANCES)
    generations = tmp_path / "generations.jsonl"
    generations.write_bytes(json.dumps(GENERATIONS[0]).encode() + b"\n" + b'{"instance_id": "i1", "system": "s", "text": "caf\xe9"}\n')
    assert score_cli(instances, generations, tmp_path / "out") == 2
    assert "generations.jsonl:2: not UTF-8" in capsys.readouterr().err


def test_unknown_domain_exits_2_listing_domains(files, tmp_path, capsys):
    assert run(["score", "-d", "nope", "-i", str(files[0]), "-g", str(files[1]), "-o", str(tmp_path / "o")]) == 2
    assert "unknown domain 'nope'; available:" in capsys.readouterr().err


def test_missing_file_and_bad_options_exit_2(files, tmp_path, capsys):
    assert run(["score", "-d", "mini", "-i", str(tmp_path / "none.jsonl"), "-g", str(files[1]), "-o", str(tmp_path / "o")]) == 2
    assert "none.jsonl: no such file" in capsys.readouterr().err
    assert score_cli(*files, tmp_path / "o", "--weight", "bogus=1") == 2
    assert "unknown claim type 'bogus' in --weight" in capsys.readouterr().err
    assert score_cli(*files, tmp_path / "o", "--fail-under", "f1") == 2
    assert run(["score", "--no-such-option"]) == 2


def test_error_in_a_late_chunk_leaves_no_partial_file(files, tmp_path, mini_plugin):
    generations = write_jsonl(tmp_path / "late.jsonl", [*GENERATIONS, {"instance_id": "i1", "system": "x"}])
    out = tmp_path / "out"
    with pytest.raises(Exception, match="missing required field"):
        score_files("mini", files[0], generations, out, chunk_size=2, report=False)
    assert not out.exists()  # no partial file, and not the OUTDIR the failed run made


def test_existing_outputs_survive_a_failed_rerun(files, tmp_path, mini_plugin):
    out = tmp_path / "out"
    assert score_cli(*files, out, "--no-report") == 0
    before = (out / "summary.json").read_bytes()
    bad = write_jsonl(tmp_path / "bad.jsonl", [GENERATIONS[0], "{broken"])
    assert score_cli(files[0], bad, out, "--no-report") == 2
    assert (out / "summary.json").read_bytes() == before
    assert sorted(p.name for p in out.iterdir()) == ["claims.parquet", "manifest.json", "scores.parquet", "summary.json", "systems.csv"]


def test_system_names_with_markup_are_printed_verbatim(tmp_path, mini_plugin, capsys):
    instances = write_jsonl(tmp_path / "instances.jsonl", INSTANCES)
    generations = write_jsonl(tmp_path / "generations.jsonl", [{**GENERATIONS[0], "system": "[/]x [bold]y"}])
    assert run(["score", "-d", "mini", "-i", str(instances), "-g", str(generations), "-o", str(tmp_path / "o"), "--no-report"]) == 0
    assert "[/]x [bold]y" in capsys.readouterr().out


def test_jobs_prebuild_cheap_extractors_for_the_input_languages_and_every_instance_knowledge():
    from factcov.evaluate import Evaluator
    from factcov.plugins import get_domain

    domain = get_domain("f1")
    instances = {i.id: i for i in domain.example_instances() if i.language == "es"}
    evaluator = Evaluator(domain)
    evaluator.prebuild(instances)
    assert set(evaluator._extractors) == {"es"}  # f1-regex declares prebuild; the input is Spanish only
    assert set(evaluator._knowledge) == set(instances)


def test_jobs_build_nothing_ahead_for_an_extractor_that_does_not_declare_it(mini_plugin):
    from factcov.evaluate import Evaluator
    from factcov.model import Instance
    from factcov.plugins import get_domain

    evaluator = Evaluator(get_domain("mini"))
    evaluator.prebuild({row["id"]: Instance.model_validate(row) for row in INSTANCES})
    assert evaluator._extractors == {}  # mini-regex leaves prebuild False: a model-backed one would load nothing


def test_jobs_score_instances_an_adapter_adds_while_the_run_streams(mini_plugin, tmp_path):
    from factcov.model import Generation, Instance
    from factcov.plugins import get_domain
    from factcov.runner import score_run

    def run(name: str, jobs: int) -> bytes:
        instances: dict = {}

        def pairs():  # like `factcov rag score`: instances appear as their answers are read
            for row in GENERATIONS:
                instance = Instance.model_validate(next(i for i in INSTANCES if i["id"] == row["instance_id"]))
                instances.setdefault(instance.id, instance)
                yield instances[instance.id], Generation.model_validate(row)

        score_run(get_domain("mini"), instances, pairs(), tmp_path / name, inputs={}, chunk_size=2, jobs=jobs,
                  report=False)
        return b"".join((tmp_path / name / f).read_bytes() for f in ("claims.parquet", "scores.parquet", "summary.json"))

    assert run("one", 1) == run("jobs", 2)


def test_a_jobs_worker_ends_on_sigterm_instead_of_running_the_command_lines_handler():
    import signal

    from factcov.parallel import init_worker

    saved = signal.signal(signal.SIGTERM, lambda *_: None)  # as `factcov` installs its unwinding one
    try:
        init_worker(None, None, {})
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL  # Pool.terminate ends it even mid-wait
    finally:
        signal.signal(signal.SIGTERM, saved)
