"""The paper's loop against a local model server: generate -> score -> refine -> export.

The server (tests/chat_server.py) writes each instance's real oracle facts with some left
out and some wrong, and fixes part of what the verifier's feedback names; it also
misbehaves on demand (timeouts, 429, 500, truncated JSON, empty answers).
"""

from __future__ import annotations

import csv
import gzip
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from factcov.cli.app import run
from factcov.inputs import load_instances
from factcov.model import Instance
from factcov.plugins import get_domain
from tests.chat_server import ChatServer, ModelBehaviour

REPO = Path(__file__).resolve().parents[1]
F1_DEMO = REPO / "domains" / "f1" / "demo_instances.jsonl.gz"
WEATHER_DEMO = REPO / "domains" / "weather" / "demo_instances.jsonl"
SHARED_DATA = REPO.parent / "shared" / "data"


def instances_file(tmp_path: Path, domain: str, count: int, name: str = "instances.jsonl") -> tuple[Path, list[Instance]]:
    """The first ``count`` real instances of a domain (f1: built from the FastF1 laps; weather:
    NWS forecasts; rag: WebNLG 2020 test triples), every language included."""
    if domain == "rag":
        from factcov.domains.rag import webnlg

        chosen = list(webnlg.load_instances(SHARED_DATA / "webnlg2020" / "test-en.xml", range(3, 3 + count)).values())
    else:
        source = F1_DEMO if domain == "f1" else WEATHER_DEMO
        chosen = list(load_instances(source, get_domain(domain)).values())[:count]
    path = tmp_path / name
    path.write_text("".join(i.model_dump_json() + "\n" for i in chosen), encoding="utf-8")
    return path, chosen


def chat_args(server: ChatServer, *extra: str) -> list[str]:
    return ["--model", "fake-1b", "--base-url", server.url, "--no-cache", "-q", *extra]


def read_lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def rounds_table(outdir: Path) -> list[dict[str, str]]:
    with (outdir / "rounds.csv").open(encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


@pytest.mark.slow
@pytest.mark.parametrize("domain", ["f1", "weather", "rag"])
def test_refinement_raises_mean_f1_round_over_round(domain: str, tmp_path: Path, shared_data: Path) -> None:
    instances, chosen = instances_file(tmp_path, domain, 15 if domain != "rag" else 8)
    gens, outdir = tmp_path / "gens.jsonl", tmp_path / "refined"
    with ChatServer(ModelBehaviour(chosen)) as server:
        assert run(["generate", "-d", domain, "-i", str(instances), "-o", str(gens), *chat_args(server)]) == 0
        assert run(["refine", "-d", domain, "-i", str(instances), "-g", str(gens), "-o", str(outdir), "--rounds", "2",
                    *chat_args(server)]) == 0
    f1 = [float(row["f1"]) for row in rounds_table(outdir)]
    assert [row["round"] for row in rounds_table(outdir)] == ["0", "1", "2"]
    assert f1[0] < f1[1] < f1[2], f1
    assert f1[0] < 0.8  # the model's first answers really are flawed
    for number in range(3):
        lines = read_lines(outdir / f"round-{number}" / "generations.jsonl")
        assert len(lines) == len(chosen)  # every instance in every round, carried over when it left the loop
        assert (outdir / f"round-{number}" / "scores.csv").exists()
    # Feedback speaks the instance's language and gives the data's value of a wrong claim.
    notes = {n["instance_id"]: n["feedback"] for n in read_lines(outdir / "round-1" / "feedback.jsonl")}
    by_language: dict[str, str] = {}
    for instance in chosen:
        by_language[instance.language] = by_language.get(instance.language, "") + notes.get(instance.id, "")
    assert set(by_language) == ({"en"} if domain == "rag" else {"en", "es", "pt"})
    assert by_language["en"].startswith("A checker compared") and "Missing (add this): " in by_language["en"]
    if domain != "rag":
        assert "but the data says: " in by_language["en"]
        assert by_language["es"].startswith("Un verificador") and "pero los datos dicen: " in by_language["es"]
        assert by_language["pt"].startswith("Um verificador") and "mas os dados dizem: " in by_language["pt"]
    # The report has the rounds side by side, one system per round.
    summary = json.loads((outdir / "report" / "summary.json").read_text())
    assert sorted(s["system"] for s in summary["systems"]) == ["fake-1b@r0", "fake-1b@r1", "fake-1b@r2"]
    page = (outdir / "report" / "report.html").read_text(encoding="utf-8")
    payload = json.loads(re.search(r'id="factcov-data">(.*?)</script>', page, flags=re.S).group(1))
    assert [row["f1"] for row in payload["runs"][0]["rounds"]] == pytest.approx(f1)


@pytest.mark.slow
@pytest.mark.browser
def test_the_report_shows_the_rounds(tmp_path: Path) -> None:
    from tests.test_report import CHROMEDRIVER, CHROMIUM, _browser, open_report

    if not CHROMIUM.exists() or not CHROMEDRIVER.exists():
        pytest.skip("needs /usr/bin/chromium and /usr/bin/chromedriver (Debian packages chromium, chromium-driver)")
    instances, chosen = instances_file(tmp_path, "weather", 6)
    gens, outdir = tmp_path / "gens.jsonl", tmp_path / "refined"
    with ChatServer(ModelBehaviour(chosen)) as server:
        assert run(["generate", "-d", "weather", "-i", str(instances), "-o", str(gens), *chat_args(server)]) == 0
        assert run(["refine", "-d", "weather", "-i", str(instances), "-g", str(gens), "-o", str(outdir),
                    "--rounds", "2", *chat_args(server)]) == 0
    driver = _browser(tmp_path)
    try:
        open_report(driver, outdir / "report" / "report.html")
        assert [e for e in driver.get_log("browser") if e["level"] == "SEVERE"] == []
        assert driver.find_element("id", "rounds").is_displayed()
        rows = driver.find_elements("css selector", "#rounds-table tbody tr")
        cells = [[td.text for td in row.find_elements("tag name", "td")] for row in rows]
        assert [c[1] for c in cells] == ["0", "1", "2"]
        assert cells[0][-1] == "" and cells[1][-1].startswith("+")
        assert float(cells[2][8]) > float(cells[0][8])
    finally:
        driver.quit()


def test_an_instance_leaves_the_loop_at_f1_1_or_when_nothing_changes(tmp_path: Path) -> None:
    instances, chosen = instances_file(tmp_path, "weather", 6)
    model = ModelBehaviour(chosen)
    gens, outdir = tmp_path / "gens.jsonl", tmp_path / "refined"
    with ChatServer(model) as server:
        assert run(["generate", "-d", "weather", "-i", str(instances), "-o", str(gens), *chat_args(server)]) == 0
        asked_before = len(model.requests)
        assert run(["refine", "-d", "weather", "-i", str(instances), "-g", str(gens), "-o", str(outdir),
                    "--rounds", "4", "--no-report", *chat_args(server)]) == 0
    table = rounds_table(outdir)
    assert table[-1]["in_play"] == "0" and len(table) < 5  # it stopped once every text had left
    assert not (outdir / f"round-{len(table)}").exists()
    statuses = {}
    for number in range(len(table)):
        with (outdir / f"round-{number}" / "scores.csv").open(encoding="utf-8") as handle:
            for row in csv.DictReader(handle):
                statuses.setdefault(row["instance_id"], []).append((row["status"], row["f1"]))
    for history in statuses.values():
        assert history[-1][0] in ("f1=1", "nothing to correct", "unchanged")
    revisions = len(model.requests) - asked_before
    assert revisions == sum(int(row["revised"]) for row in table) + sum(
        1 for history in statuses.values() if history[-1][0] == "unchanged")  # nobody asked once they are done


def test_faults_are_recorded_per_instance_and_retried_by_the_next_run(tmp_path: Path, capsys) -> None:
    instances, chosen = instances_file(tmp_path, "weather", 10)
    model = ModelBehaviour(chosen)
    model.slow_s = 1.5
    faults = {chosen[0].id: "timeout", chosen[1].id: "429", chosen[2].id: "500", chosen[3].id: "truncated",
              chosen[4].id: "empty"}
    model.faults = dict(faults)
    gens = tmp_path / "gens.jsonl"
    args = ["generate", "-d", "weather", "-i", str(instances), "-o", str(gens), "--timeout", "0.5", "--retries", "2"]
    with ChatServer(model) as server:
        code = run([*args, *chat_args(server)])
        assert code == 3
        assert "4 of 10 instances got no answer" in capsys.readouterr().err
        written = {line["instance_id"] for line in read_lines(gens)}
        assert written == {i.id for i in chosen} - {chosen[k].id for k in (0, 2, 3, 4)}
        errors = {e["instance_id"]: e["error"] for e in read_lines(tmp_path / "gens.errors.jsonl")}
        assert "timed out" in errors[chosen[0].id]
        assert "HTTP 500" in errors[chosen[2].id]
        assert "not complete JSON" in errors[chosen[3].id]
        assert "empty answer" in errors[chosen[4].id]
        rate_limited = [t for t, instance_id, _ in model.requests if instance_id == chosen[1].id]
        assert len(rate_limited) == 2 and rate_limited[1] - rate_limited[0] >= 0.95  # Retry-After: 1 honoured
        # The server recovers; the rerun asks only the four that failed.
        model.faults = {}
        before = len(model.requests)
        assert run([*args, *chat_args(server)]) == 0
        assert sorted(i for _, i, _ in model.requests[before:]) == sorted(errors)
    assert not (tmp_path / "gens.errors.jsonl").exists()
    assert [line["instance_id"] for line in read_lines(gens)] == [i.id for i in chosen]  # input order once complete


def test_the_loop_works_for_a_third_party_domain(tmp_path: Path, monkeypatch) -> None:
    """examples/factcov-quali, loaded from its entry point like a user's installed plugin."""
    from factcov import plugins

    monkeypatch.setenv("FACTCOV_PLUGINS", "quali")
    plugins.reset()
    try:
        chosen = list(plugins.get_domain("quali").example_instances())
        instances = tmp_path / "quali.jsonl"
        instances.write_text("".join(i.model_dump_json() + "\n" for i in chosen), encoding="utf-8")
        gens, outdir = tmp_path / "gens.jsonl", tmp_path / "refined"
        with ChatServer(ModelBehaviour(chosen)) as server:
            assert run(["generate", "-d", "quali", "-i", str(instances), "-o", str(gens), *chat_args(server)]) == 0
            assert run(["refine", "-d", "quali", "-i", str(instances), "-g", str(gens), "-o", str(outdir),
                        "--rounds", "2", "--no-report", *chat_args(server)]) == 0
        f1 = [float(row["f1"]) for row in rounds_table(outdir)]
        assert f1[0] < f1[1] < f1[2], f1
        assert run(["export", "sft", "-d", "quali", "-i", str(instances), "-o", str(tmp_path / "sft.jsonl"), "-q"]) == 0
        assert len(read_lines(tmp_path / "sft.jsonl")) == len(chosen)
    finally:
        plugins.unregister_plugin("quali")  # later tests must not see it


def test_a_failing_revision_is_recorded_and_the_loop_goes_on(tmp_path: Path) -> None:
    instances, chosen = instances_file(tmp_path, "f1", 6)
    model = ModelBehaviour(chosen)
    gens, outdir = tmp_path / "gens.jsonl", tmp_path / "refined"
    with ChatServer(model) as server:
        assert run(["generate", "-d", "f1", "-i", str(instances), "-o", str(gens), *chat_args(server)]) == 0
        model.faults = {chosen[0].id: "500", chosen[1].id: "truncated"}
        assert run(["refine", "-d", "f1", "-i", str(instances), "-g", str(gens), "-o", str(outdir), "--rounds", "2",
                    "--retries", "1", "--no-report", *chat_args(server)]) == 0
    rows = rounds_table(outdir)
    assert [int(r["failed"]) for r in rows] == [0, 2, 2]
    assert float(rows[2]["f1"]) > float(rows[0]["f1"])
    with (outdir / "round-2" / "scores.csv").open(encoding="utf-8") as handle:
        status = {row["instance_id"]: row["status"] for row in csv.DictReader(handle)}
    assert "HTTP 500" in status[chosen[0].id] and "not complete JSON" in status[chosen[1].id]
    first = read_lines(gens)[0]["text"]
    assert read_lines(outdir / "round-2" / "generations.jsonl")[0]["text"] == first  # kept its last text


def test_token_counts_cache_and_api_key(tmp_path: Path, monkeypatch, capsys) -> None:
    instances, chosen = instances_file(tmp_path, "f1", 4)
    model = ModelBehaviour(chosen)
    monkeypatch.setenv("MY_PROVIDER_KEY", "sk-very-secret-123")
    cache = tmp_path / "cache"
    with ChatServer(model) as server:
        base = ["generate", "-d", "f1", "-i", str(instances), "--model", "fake-1b", "--base-url", server.url,
                "--cache", str(cache), "--api-key-env", "MY_PROVIDER_KEY"]
        assert run([*base, "-o", str(tmp_path / "a.jsonl")]) == 0
        assert len(model.requests) == 4
        assert run([*base, "-o", str(tmp_path / "b.jsonl")]) == 0  # same requests: all from the cache
        assert len(model.requests) == 4
        assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
        model.faults = {chosen[0].id: "500"}
        assert run([*base, "--no-cache", "--retries", "1", "-o", str(tmp_path / "c.jsonl")]) == 3
    assert set(model.authorizations) == {"Bearer sk-very-secret-123"}
    for line in read_lines(tmp_path / "a.jsonl"):
        assert line["usage"]["prompt_tokens"] > 20 and line["usage"]["completion_tokens"] > 5
        assert line["system"] == "fake-1b" and line["model"] == "fake-1b"
    captured = capsys.readouterr()
    leaked = [p for p in tmp_path.rglob("*") if p.is_file() and b"sk-very-secret" in p.read_bytes()]
    assert "sk-very-secret" not in captured.out + captured.err and not leaked


KILLER = """
import sys
from factcov.cli.app import run
sys.exit(run(sys.argv[1:]))
"""


@pytest.mark.slow
def test_resume_after_kill_9_loses_and_duplicates_nothing(tmp_path: Path) -> None:
    instances, chosen = instances_file(tmp_path, "f1", 30)
    model = ModelBehaviour(chosen, delay_s=0.2)
    gens = tmp_path / "gens.jsonl"
    with ChatServer(model) as server:
        args = ["generate", "-d", "f1", "-i", str(instances), "-o", str(gens), "--concurrency", "3",
                *chat_args(server)]
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        child = subprocess.Popen([sys.executable, "-c", KILLER, *args], env=env, cwd=tmp_path)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and (not gens.exists() or gens.read_bytes().count(b"\n") < 8):
            time.sleep(0.02)
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        data = gens.read_bytes()
        assert data.endswith(b"\n")
        before_kill = [json.loads(line)["instance_id"] for line in data.splitlines()]
        assert 8 <= len(before_kill) < 30 and len(set(before_kill)) == len(before_kill)
        asked = len(model.requests)
        assert run(args) == 0
        asked_again = [instance_id for _, instance_id, _ in model.requests[asked:]]
        assert not set(asked_again) & set(before_kill)  # nothing already written is asked again
        # A clean run of the same instances gives the same bytes.
        assert run([*args[:6], str(tmp_path / "clean.jsonl"), *args[7:]]) == 0
    final = read_lines(gens)
    assert [line["instance_id"] for line in final] == [i.id for i in chosen]
    assert gens.read_bytes() == (tmp_path / "clean.jsonl").read_bytes()


def test_a_torn_last_line_is_cut_and_asked_again(tmp_path: Path) -> None:
    instances, chosen = instances_file(tmp_path, "weather", 3)
    model = ModelBehaviour(chosen)
    gens = tmp_path / "gens.jsonl"
    with ChatServer(model) as server:
        args = ["generate", "-d", "weather", "-i", str(instances), "-o", str(gens), *chat_args(server)]
        assert run(args) == 0
        whole = gens.read_bytes()
        lines = whole.splitlines(keepends=True)
        gens.write_bytes(lines[0] + lines[1][:25])  # a machine crash mid-write
        asked = len(model.requests)
        assert run(args) == 0
        assert sorted(i for _, i, _ in model.requests[asked:]) == sorted([chosen[1].id, chosen[2].id])
    assert gens.read_bytes() == whole


def test_sft_export_of_the_f1_train_split(tmp_path: Path) -> None:
    from factcov.evaluate import Evaluator
    from factcov.export import PreferenceRecord, SFTRecord

    domain = get_domain("f1")
    train = [i for i in load_instances(F1_DEMO, domain).values() if i.split == "train"]
    out = tmp_path / "sft.jsonl"
    assert run(["export", "sft", "-d", "f1", "-i", str(F1_DEMO), "--split", "train", "-o", str(out), "-q"]) == 0
    records = read_lines(out)
    with gzip.open(F1_DEMO, "rt", encoding="utf-8") as handle:  # counted from the raw lines, not by factcov
        raw_train = [json.loads(line)["id"] for line in handle if json.loads(line)["split"] == "train"]
    assert len(records) == len(train) == len(raw_train) > 50
    assert [r["id"] for r in records] == [i.id for i in train]
    for record in records:
        SFTRecord.model_validate(record)  # schema: exactly id + messages, roles system/user/assistant
        assert set(record) == {"id", "messages"}
        assert [m["role"] for m in record["messages"]] == ["system", "user", "assistant"]
        assert all(set(m) == {"role", "content"} and m["content"].strip() for m in record["messages"])
    # The assistant turn is the silver text: it states every oracle fact and nothing wrong.
    evaluator = Evaluator(domain)
    by_id = {i.id: i for i in train}
    for record in records[::10]:
        result = evaluator.evaluate_text(by_id[record["id"]], record["messages"][2]["content"])
        assert result.score.total.metrics(evaluator.policy)["f1"] == 1.0

    pairs = tmp_path / "pairs.jsonl"
    assert run(["export", "sft", "-d", "f1", "-i", str(F1_DEMO), "--split", "train", "--format", "preference",
                "-o", str(pairs), "-q"]) == 0
    preference = read_lines(pairs)
    assert len(preference) == len(train)
    for record in preference[::10]:
        PreferenceRecord.model_validate(record)
        chosen, rejected = record["chosen"][0]["content"], record["rejected"][0]["content"]
        instance = by_id[record["id"]]
        f1_chosen = evaluator.evaluate_text(instance, chosen).score.total.metrics(evaluator.policy)["f1"]
        f1_rejected = evaluator.evaluate_text(instance, rejected).score.total.metrics(evaluator.policy)["f1"]
        assert f1_rejected < f1_chosen == 1.0


def test_export_rejects_an_unknown_split_and_format(tmp_path: Path, capsys) -> None:
    assert run(["export", "sft", "-d", "f1", "-i", str(F1_DEMO), "--split", "dev", "-o", str(tmp_path / "x")]) == 2
    assert "no instance of split 'dev'" in capsys.readouterr().err
    assert run(["export", "sft", "-d", "f1", "-i", str(F1_DEMO), "--format", "dpo", "-o", str(tmp_path / "x")]) == 2
    assert not (tmp_path / "x").exists()
    capsys.readouterr()
    assert run(["export", "sft", "-d", "f1", "-i", str(F1_DEMO), "-o", str(tmp_path)]) == 2
    assert "is a directory" in capsys.readouterr().err


def test_a_plugin_renders_its_own_prompt(tmp_path: Path, mini_plugin) -> None:
    from factcov import hookimpl
    from factcov.plugins import register_plugin, unregister_plugin
    from factcov.prompts import default_messages, prompt_messages

    class Prompts:
        @hookimpl
        def render_prompt(self, domain, instance):
            if domain != "mini":
                return None
            return [{"role": "system", "content": "Count things."}, {"role": "user", "content": f"Count {instance.id}"}]

    register_plugin(Prompts(), "mini-prompts")
    try:
        mini = Instance(id="m1", domain="mini", task="count", language="en")
        assert prompt_messages(mini)[1]["content"] == "Count m1"
        _, weather = instances_file(tmp_path, "weather", 1)
        assert prompt_messages(weather[0]) == default_messages(weather[0])  # other domains keep the default
    finally:
        unregister_plugin("mini-prompts")


@pytest.mark.slow
def test_regex_and_llm_extractor_agreement(tmp_path: Path, capsys) -> None:
    """``validate agreement`` between the regex extractor and the LLM extractor (through the
    shared client) over the rounds of a refinement: system-level Spearman, instance Pearson."""
    from factcov.plugins import get_extractor

    instances, chosen = instances_file(tmp_path, "f1", 12)
    model = ModelBehaviour(chosen)
    regex = {lang: get_extractor("f1-regex", lang) for lang in ("en", "es", "pt")}

    def llm_reads(text: str, instance: Instance) -> list[dict]:
        # A model that reads what the regex reads but misses every final position.
        return [{"type": c.type, "key": c.key, "value": c.value, "quote": c.text}
                for c in regex[instance.language].extract(text, instance) if c.type != "final_position"]

    model.extract = llm_reads
    gens, refined = tmp_path / "gens.jsonl", tmp_path / "refined"
    with ChatServer(model) as server:
        assert run(["generate", "-d", "f1", "-i", str(instances), "-o", str(gens), *chat_args(server)]) == 0
        assert run(["refine", "-d", "f1", "-i", str(instances), "-g", str(gens), "-o", str(refined), "--rounds", "2",
                    *chat_args(server)]) == 0
        os.environ["FACTCOV_LLM_BASE_URL"], os.environ["FACTCOV_LLM_MODEL"] = server.url, "fake-1b"
        try:
            assert run(["score", "-d", "f1", "-i", str(instances), "-g", str(refined / "all_rounds.jsonl"),
                        "-o", str(tmp_path / "llm"), "-x", "llm", "--no-report", "-q"]) == 0
        finally:
            del os.environ["FACTCOV_LLM_BASE_URL"], os.environ["FACTCOV_LLM_MODEL"]
    capsys.readouterr()
    assert run(["validate", "agreement", str(refined / "report"), str(tmp_path / "llm"), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["n_systems"] == 3 and result["n_generations"] == 36
    assert result["system_spearman"]["f1"] == pytest.approx(1.0)  # both see the rounds improve
    assert 0.0 < result["instance_pearson"]["f1"] < 1.0  # the LLM misses positions: texts differ
    positions = next(row for row in result["by_type"] if row["type"] == "final_position")
    assert positions["claims_b"] == 0 < positions["claims_a"]



def loop_block(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    section = text[text.index("## The loop"):]
    return re.search(r"```bash\n(.*?)\n```", section, flags=re.S).group(1).splitlines()


@pytest.mark.slow
def test_the_loop_in_five_commands_as_documented(tmp_path: Path, shared_data: Path, monkeypatch) -> None:
    commands = loop_block(REPO / "README.md")
    assert commands == loop_block(REPO / "docs" / "cli.md")
    assert [shlex.split(c)[1] for c in commands] == ["f1", "generate", "score", "refine", "export"]
    monkeypatch.chdir(tmp_path)
    model = None
    server = None
    try:
        for command in commands:
            argv = shlex.split(command.replace("../shared/data", str(shared_data)))[1:]
            if server is None and argv[0] == "generate":
                built = list(load_instances(tmp_path / "f1.jsonl", get_domain("f1")).values())
                model = ModelBehaviour(built)
                server = ChatServer(model).__enter__()
            if "--base-url" in argv:
                argv[argv.index("--base-url") + 1] = server.url
                argv += ["--cache", str(tmp_path / "cache"), "-q"]
            assert run(argv) == 0, command
    finally:
        if server is not None:
            server.__exit__(None, None, None)
    f1 = [float(row["f1"]) for row in rounds_table(tmp_path / "refined")]
    assert f1[0] < f1[1] < f1[2]
    summary = json.loads((tmp_path / "scored" / "summary.json").read_text())
    assert summary["systems"][0]["system"] == "llama3.2:3b"
    assert len(read_lines(tmp_path / "sft.jsonl")) == sum(1 for i in built if i.split == "train") == len(built)


def test_usage_errors_are_one_line_and_exit_2(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.delenv("FACTCOV_LLM_BASE_URL", raising=False)
    instances, _ = instances_file(tmp_path, "weather", 2)
    assert run(["generate", "-d", "weather", "-i", str(instances), "--model", "m", "-o", str(tmp_path / "g")]) == 2
    assert "give --base-url" in capsys.readouterr().err
    args = ["generate", "-d", "weather", "-i", str(instances), "--model", "m", "--base-url", "http://127.0.0.1:9/v1"]
    assert run([*args, "--split", "train", "-o", str(tmp_path / "g")]) == 2
    assert "no instance to generate for in split 'train'" in capsys.readouterr().err
    assert run([*args, "-o", str(tmp_path)]) == 2
    assert "is a directory" in capsys.readouterr().err
    assert run([*args, "-o", str(tmp_path / "g.jsonl.gz")]) == 2
    assert "drop '.gz'" in capsys.readouterr().err
    assert not (tmp_path / "g").exists()


def test_an_output_that_is_not_jsonl_is_refused_and_left_alone(tmp_path: Path, capsys) -> None:
    instances, _ = instances_file(tmp_path, "weather", 2)
    gens = tmp_path / "gens.jsonl"
    gens.write_text("not json\n", encoding="utf-8")
    args = ["generate", "-d", "weather", "-i", str(instances), "--model", "m", "--base-url", "http://127.0.0.1:9/v1",
            "-o", str(gens)]
    assert run(args) == 2
    assert f"{gens}:1: not valid JSON" in capsys.readouterr().err
    assert gens.read_text(encoding="utf-8") == "not json\n"
    assert run(args) == 2  # the lock was released: the same error again, not "another run is writing"
    assert "not valid JSON" in capsys.readouterr().err
    gens.write_text('{"id": 1}\n', encoding="utf-8")
    assert run(args) == 2
    assert f"{gens}:1: a line of another kind" in capsys.readouterr().err


def test_a_second_writer_of_the_same_file_is_refused(tmp_path: Path) -> None:
    from factcov.errors import FactcovError
    from factcov.resumable import ResumableJsonl

    path = tmp_path / "gens.jsonl"
    with ResumableJsonl(path, key=lambda r: r["k"]) as first:
        first.append({"k": 1})
        with pytest.raises(FactcovError, match="another run is writing this file"):
            ResumableJsonl(path, key=lambda r: r["k"]).__enter__()
    with ResumableJsonl(path, key=lambda r: r["k"]) as again:
        assert 1 in again and 2 not in again
