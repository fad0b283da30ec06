"""What real model servers do to the loop (issue 30), against tests/chat_server.py: truncated
answers, reasoning models' thinking, prompt variants, servers that compute one request at a time."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from factcov.cli.app import run
from tests.browser import in_ci, require_browser
from tests.chat_server import ChatServer, ModelBehaviour
from tests.test_loop import chat_args, instances_file, read_lines
from tests.test_report import _browser, _embedded, open_report


def generate(tmp_path: Path, model: ModelBehaviour, instances: Path, out: str, *extra: str) -> int:
    with ChatServer(model) as server:
        return run(["generate", "-d", "weather", "-i", str(instances), "-o", str(tmp_path / out),
                    *chat_args(server), *extra])


def test_truncated_answers_are_flagged_dropped_or_fail(tmp_path: Path, capsys) -> None:
    instances, chosen = instances_file(tmp_path, "weather", 4)
    model = ModelBehaviour(chosen)
    model.faults = {chosen[1].id: "length"}
    assert generate(tmp_path, model, instances, "keep.jsonl") == 0
    meta = {line["instance_id"]: line["meta"] for line in read_lines(tmp_path / "keep.jsonl")}
    assert [meta[i.id]["truncated"] for i in chosen] == [False, True, False, False]
    assert meta[chosen[1].id]["finish_reason"] == "length"
    assert all(body["max_tokens"] == 200 for _, _, body in model.requests)  # weather's default answer budget
    capsys.readouterr()
    assert generate(tmp_path, model, instances, "drop.jsonl", "--on-truncated", "drop") == 0
    assert [line["instance_id"] for line in read_lines(tmp_path / "drop.jsonl")] == [chosen[0].id, *(i.id for i in chosen[2:])]
    assert generate(tmp_path, model, instances, "fail.jsonl", "--on-truncated", "fail", "--concurrency", "1") == 3
    assert "cut off at --max-tokens" in capsys.readouterr().err


def test_thinking_is_kept_out_of_the_text_and_in_meta_on_request(tmp_path: Path) -> None:
    instances, chosen = instances_file(tmp_path, "weather", 3)
    model = ModelBehaviour(chosen)
    model.faults = {chosen[0].id: "think", chosen[1].id: "reasoning"}
    assert generate(tmp_path, model, instances, "plain.jsonl") == 0
    lines = {line["instance_id"]: line for line in read_lines(tmp_path / "plain.jsonl")}
    assert "<think>" not in lines[chosen[0].id]["text"] and "sunny" not in lines[chosen[0].id]["text"]
    assert lines[chosen[0].id]["text"] == lines[chosen[0].id]["text"].strip() != ""
    assert "reasoning" not in lines[chosen[0].id]["meta"] and lines[chosen[0].id]["meta"]["reasoning_chars"] > 10
    assert generate(tmp_path, model, instances, "debug.jsonl", "--keep-reasoning") == 0
    debug = {line["instance_id"]: line["meta"] for line in read_lines(tmp_path / "debug.jsonl")}
    assert debug[chosen[0].id]["reasoning"] == "The data says rain. I will not say sunny."
    assert debug[chosen[1].id]["reasoning"] == "Let me list the facts first."
    assert "reasoning" not in debug[chosen[2].id]
    # Scored, the thinking is not there: the text's claims are the answer's only.
    assert run(["score", "-d", "weather", "-i", str(instances), "-g", str(tmp_path / "plain.jsonl"),
                "-o", str(tmp_path / "scored"), "--no-report", "-q"]) == 0


def test_the_prompt_variant_is_sent_and_recorded(tmp_path: Path, capsys) -> None:
    instances, chosen = instances_file(tmp_path, "weather", 2)
    model = ModelBehaviour(chosen)
    assert generate(tmp_path, model, instances, "neutral.jsonl") == 0
    assert generate(tmp_path, model, instances, "cover.jsonl", "--prompt", "cover-all", "--system", "m-cover") == 0
    systems = [body["messages"][0]["content"] for _, _, body in model.requests]
    neutral, cover = set(systems[:2]), set(systems[2:])
    assert "You explain data. Use only the data you are given. Answer in English." in neutral
    assert any("state every fact the data supports" in system for system in cover) and not neutral & cover
    assert {line["meta"]["prompt"] for line in read_lines(tmp_path / "neutral.jsonl")} == {"neutral"}
    assert {line["meta"]["prompt"] for line in read_lines(tmp_path / "cover.jsonl")} == {"cover-all"}
    assert generate(tmp_path, model, instances, "x.jsonl", "--prompt", "everything") == 2
    assert "--prompt must be neutral or cover-all" in capsys.readouterr().err


def test_prompt_tokens_are_summarized(tmp_path: Path, capsys) -> None:
    instances, chosen = instances_file(tmp_path, "weather", 3)
    with ChatServer(ModelBehaviour(chosen)) as server:
        args = ["generate", "-d", "weather", "-i", str(instances), "-o", str(tmp_path / "g.jsonl"), "--model", "m",
                "--base-url", server.url, "--no-cache"]
        assert run(args) == 0
    err = capsys.readouterr().err
    counts = [line["meta"]["prompt_tokens"] for line in read_lines(tmp_path / "g.jsonl")]
    assert all(isinstance(c, int) and c > 10 for c in counts)
    assert f"prompt tokens: mean {sum(counts) / len(counts):.0f}, max {max(counts)}; 0 truncated" in err


def test_a_server_computing_one_request_at_a_time_gives_no_spurious_timeouts(tmp_path: Path) -> None:
    instances, chosen = instances_file(tmp_path, "weather", 8)
    model = ModelBehaviour(chosen, delay_s=0.4)
    model.serial = True  # 4 in flight: the last waits 1.6 s, past a 1 s timeout, though each answer takes 0.4 s
    with pytest.warns(UserWarning, match="seems to compute one at a time; going on with one request in flight"):
        assert generate(tmp_path, model, instances, "g.jsonl", "--concurrency", "4", "--timeout", "1") == 0
    assert len(read_lines(tmp_path / "g.jsonl")) == 8


def test_sft_exports_load_as_trl_conversational_datasets(tmp_path: Path) -> None:
    """TRL's SFTTrainer reads a ``messages`` column of {role, content} turns; its DPOTrainer reads
    ``prompt``/``chosen``/``rejected`` turn lists. Checked by schema, and by ``datasets``' own JSON
    loader (in the [dev] extra: CI has it; not a factcov dependency)."""
    from tests.test_loop import WEATHER_DEMO

    files = {}
    for form in ("chat", "preference"):
        files[form] = tmp_path / f"{form}.jsonl"
        assert run(["export", "sft", "-d", "weather", "-i", str(WEATHER_DEMO), "--format", form,
                    "-o", str(files[form]), "-q"]) == 0
    turns = {"chat": {"messages": ["system", "user", "assistant"]},
             "preference": {"prompt": ["system", "user"], "chosen": ["assistant"], "rejected": ["assistant"]}}
    for form, path in files.items():
        for record in read_lines(path):
            for column, roles in turns[form].items():
                assert [turn["role"] for turn in record[column]] == roles
                assert all(set(turn) == {"role", "content"} and turn["content"].strip() for turn in record[column])
    datasets = _datasets()
    for form, path in files.items():
        loaded = datasets.load_dataset("json", data_files=str(path), split="train", cache_dir=str(tmp_path / "hf"))
        assert len(loaded) == len(read_lines(path)) > 40
        for column in turns[form]:
            assert set(loaded.features[column].feature) == {"role", "content"}  # a list of turns
            assert [turn["role"] for turn in loaded[0][column]] == turns[form][column]


def _datasets():  # type: ignore[no-untyped-def]
    """The ``datasets`` library, which the [dev] extra installs: missing on CI is a failure."""
    try:
        import datasets
    except ImportError:
        reason = "the `datasets` library is not installed (it is in the [dev] extra: pip install -e '.[dev]')"
        if in_ci():
            pytest.fail(f"CI=true and {reason}", pytrace=False)
        pytest.skip(f"{reason}; the exports were checked by schema only")
    return datasets


def test_compare_shows_the_two_prompt_variants_side_by_side(tmp_path: Path, capsys) -> None:
    """The paper's prompt study: the same model under both prompts, each its own system, compared."""
    instances, chosen = instances_file(tmp_path, "weather", 4)
    model = ModelBehaviour(chosen)
    gens = tmp_path / "both.jsonl"
    assert generate(tmp_path, model, instances, "both.jsonl", "--system", "m-neutral") == 0
    assert generate(tmp_path, model, instances, "both.jsonl", "--system", "m-cover-all", "--prompt", "cover-all") == 0
    assert {(line["system"], line["meta"]["prompt"]) for line in read_lines(gens)} == {
        ("m-neutral", "neutral"), ("m-cover-all", "cover-all")}
    assert run(["score", "-d", "weather", "-i", str(instances), "-g", str(gens), "-o", str(tmp_path / "scored"),
                "--no-report", "-q"]) == 0
    capsys.readouterr()
    assert run(["compare", str(tmp_path / "scored"), "--json"]) == 0
    shown = capsys.readouterr().out
    assert "m-neutral" in shown and "m-cover-all" in shown


def scored(tmp_path: Path, instances: Path, gens: str, outdir: str, *extra: str) -> dict:
    assert run(["score", "-d", "weather", "-i", str(instances), "-g", str(tmp_path / gens), "-o",
                str(tmp_path / outdir), "-q", *extra]) == 0
    return json.loads((tmp_path / outdir / "summary.json").read_text(encoding="utf-8"))


def test_the_prompt_variant_is_in_the_run_signature_and_compare_pools_the_two_runs(tmp_path: Path, capsys) -> None:
    """The paper's Table 3 as two runs of one model: each run's signature names its prompt
    variant, and compare sets the runs side by side, one system per variant."""
    instances, chosen = instances_file(tmp_path, "weather", 4)
    model = ModelBehaviour(chosen)
    assert generate(tmp_path, model, instances, "neutral.jsonl", "--system", "m") == 0
    assert generate(tmp_path, model, instances, "cover.jsonl", "--system", "m", "--prompt", "cover-all") == 0
    neutral = scored(tmp_path, instances, "neutral.jsonl", "neutral", "--no-report")
    cover = scored(tmp_path, instances, "cover.jsonl", "cover-all", "--no-report")
    assert neutral["signature"].endswith("|prompt:neutral") and cover["signature"].endswith("|prompt:cover-all")
    assert neutral["signature"].rsplit("|prompt:", 1)[0] == cover["signature"].rsplit("|prompt:", 1)[0]
    assert neutral["generations"] == {"m": {"prompt": ["neutral"], "truncated": 0, "with_meta": 4}}
    capsys.readouterr()
    assert run(["compare", str(tmp_path / "neutral"), str(tmp_path / "cover-all"), "--json"]) == 0
    (domain,) = json.loads(capsys.readouterr().out)["domains"]
    assert {s["system"]: s["prompt"] for s in domain["systems"]} == {"m [neutral]": "neutral",
                                                                     "m [cover-all]": "cover-all"}
    assert domain["signature"].endswith("|prompt:cover-all,neutral")
    assert run(["compare", str(tmp_path / "neutral"), str(tmp_path / "cover-all")]) == 0
    table = capsys.readouterr().out
    assert "m [neutral]" in table and "m [cover-all]" in table


def test_generations_without_generate_meta_keep_the_signature(tmp_path: Path) -> None:
    instances, chosen = instances_file(tmp_path, "weather", 2)
    (tmp_path / "plain.jsonl").write_text("".join(json.dumps({"instance_id": i.id, "system": "s", "text": "Rain.",
                                                              "meta": {"note": "mine"}}) + "\n" for i in chosen))
    summary = scored(tmp_path, instances, "plain.jsonl", "plain", "--no-report")
    assert "|prompt:" not in summary["signature"] and "generations" not in summary


def test_the_report_shows_truncated_answers(tmp_path: Path) -> None:
    from factcov.report import build_payload

    instances, chosen = instances_file(tmp_path, "weather", 4)
    model = ModelBehaviour(chosen)
    model.faults = {chosen[1].id: "length", chosen[3].id: "length"}
    assert generate(tmp_path, model, instances, "g.jsonl", "--system", "m") == 0
    summary = scored(tmp_path, instances, "g.jsonl", "scored")
    assert summary["generations"]["m"]["truncated"] == 2
    payload = build_payload([tmp_path / "scored"])
    assert payload["runs"][0]["generated"] == {"m": {"prompt": ["neutral"], "truncated": 2}}
    html = (tmp_path / "scored" / "report.html").read_text(encoding="utf-8")
    assert _embedded(html)["runs"][0]["generated"]["m"]["truncated"] == 2


@pytest.mark.browser
def test_the_report_page_says_how_many_answers_were_cut_off(tmp_path: Path) -> None:
    require_browser()
    instances, chosen = instances_file(tmp_path, "weather", 3)
    model = ModelBehaviour(chosen)
    model.faults = {chosen[0].id: "length"}
    assert generate(tmp_path, model, instances, "g.jsonl", "--system", "m", "--prompt", "cover-all") == 0
    scored(tmp_path, instances, "g.jsonl", "scored")
    driver = _browser(tmp_path)
    try:
        open_report(driver, tmp_path / "scored" / "report.html")
        shown = driver.find_element("id", "run-meta").text
    finally:
        driver.quit()
    assert "Prompt: m cover-all." in shown
    assert "Answers cut off at --max-tokens (finish_reason 'length', scored as written): m 1." in shown


def test_refine_counts_the_answers_cut_off_in_each_round(tmp_path: Path) -> None:
    """A revision cut off at max_tokens is flagged like generate's answers: in the round's
    generations, rounds.csv and the report's systems (SYSTEM@rK)."""
    from factcov.report import build_payload

    instances, chosen = instances_file(tmp_path, "weather", 3)
    model = ModelBehaviour(chosen)
    model.faults = {chosen[0].id: "length"}
    assert generate(tmp_path, model, instances, "g.jsonl", "--system", "m") == 0
    with ChatServer(model) as server:
        assert run(["refine", "-d", "weather", "-i", str(instances), "-g", str(tmp_path / "g.jsonl"),
                    "-o", str(tmp_path / "refined"), "--rounds", "1", *chat_args(server)]) == 0
    last = {line["instance_id"]: line for line in read_lines(tmp_path / "refined" / "round-1" / "generations.jsonl")}
    assert last[chosen[0].id]["revised"] and last[chosen[0].id]["meta"] == {
        "prompt": "neutral", "finish_reason": "length", "truncated": True}
    assert all(last[i.id]["meta"]["truncated"] is False for i in chosen[1:])
    with (tmp_path / "refined" / "rounds.csv").open(encoding="utf-8") as handle:
        assert [row["truncated"] for row in csv.DictReader(handle)] == ["1", "1"]
    generated = build_payload([tmp_path / "refined" / "report"])["runs"][0]["generated"]
    assert {system: seen["truncated"] for system, seen in generated.items()} == {"m@r0": 1, "m@r1": 1}
