"""One table of hostile inputs driven through every command that reads them.

Each case must end with the promised exit code (2 bad input or usage, 3 environment),
exactly one line on stderr naming the file (and line and field where there is one),
no traceback, and nothing written. Real inputs are the bundled weather demo and the rag
museum file; hazards are built from them by changing one thing."""

from __future__ import annotations

import gzip
import json
import os
import threading
from pathlib import Path

import pytest

from factcov.cli.app import run

REPO = Path(__file__).resolve().parents[1]
WEATHER = REPO / "domains" / "weather"
MUSEUM = REPO / "domains" / "rag" / "museum.jsonl"


def _lines(path: Path, n: int = 3) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[:n]]


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> dict[str, Path]:
    """Good inputs and one hazard file per kind, each a real record with one thing broken."""
    root = tmp_path_factory.mktemp("hostile")
    instance = _lines(WEATHER / "demo_instances.jsonl", 1)[0]
    generation = {"instance_id": instance["id"], "system": "s", "text": "Sunny."}
    answer = _lines(MUSEUM, 1)[0]
    good = {
        "instances": _write(root / "instances.jsonl", [json.dumps(instance)]),
        "generations": _write(root / "generations.jsonl", [json.dumps(generation)]),
        "answers": _write(root / "answers.jsonl", [json.dumps(answer)]),
    }
    text = json.dumps(generation)
    fact = json.dumps(instance)
    hazards = {
        # name: (generation line, instance line, answer line) -- each the real record with one field broken
        "deep-nesting": ['{"x": ' + "[" * 50000 + "]" * 50000 + "}"] * 3,
        "lone-surrogate": [text.replace('"s"', '"s\\ud800"'), fact.replace('"en"', '"e\\udfffn"', 1),
                           json.dumps(answer).replace('"complete"', '"\\udbff"', 1)],
        "int-10**400": [text.replace('"Sunny."', "1" + "0" * 400), fact.replace('"en"', "1" + "0" * 400, 1),
                        json.dumps(answer).replace('"complete"', "1" + "0" * 400, 1)],
        "NaN": [text.replace('"Sunny."', "NaN"), fact.replace('"en"', "NaN", 1),
                json.dumps(answer).replace('"complete"', "NaN", 1)],
        "1e309": [text.replace('"Sunny."', "1e309"), fact.replace('"en"', "-1e309", 1),
                  json.dumps(answer).replace('"complete"', "1e309", 1)],
        "text-over-limit": [json.dumps({**generation, "text": "Sunny. " * 150_000}),
                            json.dumps({**instance, "id": "x" * 1_000_001}),
                            json.dumps({**answer, "answer": "The museum opens. " * 60_000})],
        "not-an-object": ["[1, 2]"] * 3,
        "broken-json": ['{"instance_id": '] * 3,
    }
    files: dict[str, dict[str, Path]] = {}
    for name, (gen, inst, ans) in hazards.items():
        files[name] = {
            "generations": _write(root / f"{name}-g.jsonl", [gen]),
            "instances": _write(root / f"{name}-i.jsonl", [inst]),
            "answers": _write(root / f"{name}-a.jsonl", [ans]),
        }
    data = gzip.compress(good["generations"].read_bytes() * 50)
    for kind in ("generations", "instances", "answers"):
        raw = gzip.compress(good[kind].read_bytes() * 50)
        files.setdefault("truncated-gzip", {})[kind] = root / f"trunc-{kind}.jsonl.gz"
        files["truncated-gzip"][kind].write_bytes(raw[: len(raw) // 2])
        files.setdefault("bad-gzip-header", {})[kind] = root / f"badhdr-{kind}.jsonl.gz"
        files["bad-gzip-header"][kind].write_bytes(b"\x1f\x8b\x09" + data[3:])
        files.setdefault("non-utf8", {})[kind] = root / f"latin1-{kind}.jsonl"
        files["non-utf8"][kind].write_bytes(good[kind].read_bytes().replace(b'"', b'"\xe9', 1))
        files.setdefault("empty", {})[kind] = _write(root / f"empty-{kind}.jsonl", [])
        files.setdefault("missing", {})[kind] = root / f"missing-{kind}.jsonl"
        files.setdefault("no-newline-ever", {})[kind] = Path("/dev/zero")
    world = {"root": root, **good}
    for name, kinds in files.items():
        for kind, path in kinds.items():
            world[f"{name}/{kind}"] = path
    return world


HAZARDS = ["deep-nesting", "lone-surrogate", "int-10**400", "NaN", "1e309", "text-over-limit", "not-an-object",
           "broken-json", "truncated-gzip", "bad-gzip-header", "non-utf8", "empty", "missing", "no-newline-ever"]

# command: (argument builder given world and the hazard file, which kind of input it reads)
COMMANDS = {
    "score -g": (lambda w, p: ["score", "-d", "weather", "-i", w["instances"], "-g", p, "-o", w["root"] / "out", "-q"],
                 "generations"),
    "score -i": (lambda w, p: ["score", "-d", "weather", "-i", p, "-g", w["generations"], "-o", w["root"] / "out", "-q"],
                 "instances"),
    "extract -g": (lambda w, p: ["extract", "-d", "weather", "-i", w["instances"], "-g", p], "generations"),
    "extract -i": (lambda w, p: ["extract", "-d", "weather", "-i", p, "-g", w["generations"]], "instances"),
    "validate perturb -i": (lambda w, p: ["validate", "perturb", "-d", "weather", "-i", p], "instances"),
    "rag score -i": (lambda w, p: ["rag", "score", "-i", p, "-o", w["root"] / "ragout", "-q"], "answers"),
    "weather build -f": (lambda w, p: ["weather", "build", "-f", p, "-o", w["root"] / "built.jsonl", "-q"],
                         "generations"),
}


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize("hazard", HAZARDS)
def test_every_reader_turns_a_hostile_file_into_one_line_and_exit_2(world, hazard, command, capsys):
    build, kind = COMMANDS[command]
    path = world[f"{hazard}/{kind}"]
    code = run([str(a) for a in build(world, path)])
    captured = capsys.readouterr()
    assert code == 2, captured.err
    assert captured.err.count("\n") == 1, captured.err
    assert "Traceback" not in captured.err
    assert str(path) in captured.err
    assert not (world["root"] / "out" / "summary.json").exists()
    assert not (world["root"] / "built.jsonl").exists()


def test_errors_name_the_line_and_field(world, capsys):
    assert run(["extract", "-d", "weather", "-i", str(world["instances"]),
                "-g", str(world["lone-surrogate/generations"])]) == 2
    assert f"{world['lone-surrogate/generations']}:1: field 'system'" in capsys.readouterr().err
    assert run(["score", "-d", "weather", "-i", str(world["instances"]), "-g",
                str(world["text-over-limit/generations"]), "-o", str(world["root"] / "o2")]) == 2
    assert "field 'text': text longer than 1,000,000 characters" in capsys.readouterr().err


OPTION_CASES = [
    (["score", "-d", "weather", "--seed", "-1"], "--seed"),
    (["score", "-d", "weather", "--bootstrap", "-1"], "--bootstrap"),
    (["score", "-d", "weather", "--bootstrap", str(10**9)], "--bootstrap"),
    (["score", "-d", "weather", "--weight", "sky=nan"], "--weight"),
    (["score", "-d", "weather", "--weight", "sky=inf"], "--weight"),
    (["score", "-d", "weather", "--weight", "sky=-1"], "--weight"),
    (["score", "-d", "weather", "--fail-under", "f1=nan"], "--fail-under"),
    (["compare", "--bootstrap", "-1", "x"], "--bootstrap"),
    (["compare", "--bootstrap", str(10**9), "x"], "--bootstrap"),
    (["compare", "--seed", "-1", "x"], "--seed"),
    (["validate", "perturb", "-d", "weather", "--k", "-1"], "--k"),
    (["validate", "perturb", "-d", "weather", "--seed", "-1"], "--seed"),
    (["weather", "fetch", "--lat", "40", "--lon", "-75", "--timeout", "-1"], "--timeout"),
    (["weather", "fetch", "--lat", "40", "--lon", "-75", "--timeout", "nan"], "--timeout"),
    (["weather", "fetch", "--lat", "40", "--lon", "-75", "--base-url", "not a url"], "--base-url"),
    (["weather", "fetch", "--lat", "40", "--lon", "-75", "--base-url", "file:///etc/passwd"], "--base-url"),
]


@pytest.mark.parametrize(("args", "option"), OPTION_CASES, ids=[" ".join(a[-2:]) for a, _ in OPTION_CASES])
def test_out_of_range_options_are_usage_errors(world, args, option, capsys):
    full = list(args)
    if full[0] == "score":
        full += ["-i", str(world["instances"]), "-g", str(world["generations"]), "-o", str(world["root"] / "o3")]
    assert run(full) == 2
    err = capsys.readouterr().err
    assert option in err and err.count("\n") == 1 and "Traceback" not in err
    assert not (world["root"] / "o3" / "summary.json").exists()


@pytest.mark.parametrize("target", ["directory", "under-a-file"])
@pytest.mark.parametrize("command", ["score", "extract", "report", "weather build"])
def test_unusable_output_paths_are_exit_2_naming_the_path(world, tmp_path, command, target, capsys):
    (tmp_path / "afile").write_text("x")
    (tmp_path / "adir").mkdir()
    destination = tmp_path / "adir" if target == "directory" else tmp_path / "afile" / "x"
    if command == "score" and target == "directory":
        destination = tmp_path / "afile"  # a directory is what score wants; a file is its wrong kind
    if command == "report":
        assert run(["score", "-d", "weather", "-i", str(world["instances"]), "-g", str(world["generations"]),
                    "-o", str(tmp_path / "run"), "-q", "--no-report"]) == 0
    args = {
        "score": ["score", "-d", "weather", "-i", str(world["instances"]), "-g", str(world["generations"]), "-q"],
        "extract": ["extract", "-d", "weather", "-i", str(world["instances"]), "-g", str(world["generations"])],
        "report": ["report", str(tmp_path / "run")],
        "weather build": ["weather", "build", "-f", str(WEATHER / "demo_instances.jsonl"), "-q"],
    }[command]
    capsys.readouterr()
    code = run([*args, "-o", str(destination)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    assert str(tmp_path / ("adir" if target == "directory" and command != "score" else "afile")) in err


def test_a_read_only_output_is_exit_3(world, tmp_path, monkeypatch, capsys):
    import errno
    import os

    real_replace = os.replace

    def read_only(source, destination, *args, **kwargs):
        if str(destination).endswith("claims.jsonl"):
            raise OSError(errno.EROFS, "Read-only file system", str(destination))
        return real_replace(source, destination, *args, **kwargs)

    monkeypatch.setattr(os, "replace", read_only)
    assert run(["extract", "-d", "weather", "-i", str(world["instances"]), "-g", str(world["generations"]),
                "-o", str(tmp_path / "claims.jsonl")]) == 3
    err = capsys.readouterr().err
    assert "Read-only file system" in err and str(tmp_path / "claims.jsonl") in err and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_an_unexpected_internal_error_is_one_line_exit_3_with_the_traceback_only_on_request(world, monkeypatch, capsys):
    def bug(*args, **kwargs):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr("factcov.runner.score_files", bug)
    args = ["score", "-d", "weather", "-i", str(world["instances"]), "-g", str(world["generations"]),
            "-o", str(world["root"] / "o4"), "-q"]
    assert run(args) == 3
    err = capsys.readouterr().err
    assert "internal error: ZeroDivisionError: a bug" in err and err.count("\n") == 1
    monkeypatch.setenv("FACTCOV_DEBUG", "1")
    assert run(args) == 3
    assert "Traceback" in capsys.readouterr().err


@pytest.mark.parametrize(("toml", "message"), [
    ("rag = 5\n", "'rag' must be a table"),
    ("[ragg]\nalpha = 0.5\n", "unknown table(s) ragg"),
    ("[rag]\nn_process = 1000000\n", "rag.n_process"),
    ("[rag]\nfail_under = { gaa = nan }\n", "rag.fail_under.gaa"),
    ("[rag]\nalpha = 'x'\n", "rag.alpha"),
    (b"[rag]\nmodel = '\xe9'\n", "not UTF-8"),
    ("[rag\n", "not valid TOML"),
])
def test_a_bad_factcov_toml_is_exit_2_naming_the_file(world, tmp_path, monkeypatch, capsys, toml, message):
    config = tmp_path / "factcov.toml"
    config.write_bytes(toml if isinstance(toml, bytes) else toml.encode())
    monkeypatch.chdir(tmp_path)
    assert run(["rag", "score", "-i", str(world["answers"]), "-o", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert message in err and str(config) in err and err.count("\n") == 1


@pytest.mark.parametrize(("citation", "field"), [({"sentence": 99}, "citations.0.sentence"),
                                                  ({"claim": 999}, "citations.0.claim")])
def test_rag_citations_past_the_answer_are_refused(tmp_path, capsys, citation, field):
    answer = _lines(MUSEUM, 1)[0]
    answer["citations"] = [{**citation, "context_id": answer["contexts"][0]["id"]}]
    path = _write(tmp_path / "cited.jsonl", [json.dumps(answer)])
    assert run(["rag", "score", "-i", str(path), "-o", str(tmp_path / "out"), "-q"]) == 2
    err = capsys.readouterr().err
    assert f"{path}:1: field '{field}'" in err and err.count("\n") == 1
    assert not (tmp_path / "out" / "summary.json").exists()


@pytest.mark.parametrize("damage", ["truncated-gzip", "wrong-columns", "not-utf8"])
def test_f1_build_names_a_damaged_lap_file(shared_data, tmp_path, capsys, damage):
    laps = tmp_path / {"truncated-gzip": "laps.csv.gz", "wrong-columns": "laps.csv", "not-utf8": "laps.csv"}[damage]
    if damage == "truncated-gzip":
        laps.write_bytes((shared_data / "f1" / "laps" / "2018.csv.gz").read_bytes()[:5000])
    elif damage == "wrong-columns":
        laps.write_text("a,b\n1,2\n")
    else:
        laps.write_bytes(b"\xff\xfe\x00Driver,LapNumber\n")
    out = tmp_path / "existing.jsonl"
    out.write_text("kept\n")
    assert run(["f1", "build", "--laps", str(laps), "--ergast", str(shared_data / "f1" / "ergast"),
                "-o", str(out), "-q"]) == 2
    err = capsys.readouterr().err
    assert str(laps) in err and err.count("\n") == 1
    assert out.read_text() == "kept\n"
    assert run(["f1", "check", "--laps", str(laps), "--ergast", str(shared_data / "f1" / "ergast")]) == 2
    err = capsys.readouterr().err
    assert str(laps) in err and err.count("\n") == 1


def test_an_eof_anywhere_is_bad_input_not_an_interrupt(world, monkeypatch, capsys):
    def truncated(*args, **kwargs):
        raise EOFError("Compressed file ended before the end-of-stream marker was reached")

    monkeypatch.setattr("factcov.runner.score_files", truncated)
    assert run(["score", "-d", "weather", "-i", str(world["instances"]), "-g", str(world["generations"]),
                "-o", str(world["root"] / "o5"), "-q"]) == 2
    assert "input ended early" in capsys.readouterr().err


@pytest.mark.parametrize(("field", "value"), [("temperature", 1e300), ("temperature", -1e300),
                                              ("windSpeed", "1" + "0" * 400 + " mph"), ("windGust", 1e300)])
def test_weather_build_refuses_values_no_forecast_gives_so_score_never_meets_them(shared_data, tmp_path, capsys,
                                                                                   field, value):
    rows = [json.loads(line) for line in gzip.open(shared_data / "weather" / "nws_periods.jsonl.gz", "rt")
            .readlines(20000)][:3]
    rows[0][field] = value
    forecasts = _write(tmp_path / "periods.jsonl", [json.dumps(r) for r in rows])
    out = tmp_path / "instances.jsonl"
    assert run(["weather", "build", "-f", str(forecasts), "-o", str(out), "-q"]) == 2
    err = capsys.readouterr().err
    assert f"{forecasts}:1: field '{field}" in err and not out.exists()


def _with_fact_value(instance: dict, claim_type: str, value: object) -> tuple[dict, int]:
    facts = [dict(f) for f in instance["facts"]]
    index = next(i for i, f in enumerate(facts) if f["type"] == claim_type)
    facts[index]["value"] = value
    return {**instance, "facts": facts}, index


@pytest.mark.parametrize(("claim_type", "value", "words"), [
    ("temperature", "NaN", "an integer"),         # a number as a string
    ("temperature", 71.5, "an integer"),
    ("temperature", True, "an integer"),          # JSON true is not the number 1 here
    ("precip_chance", [20, 30], "an integer"),
    ("wind_speed", [5, 10, 15], "two-number list"),
    ("wind_speed", [5, "ten"], "two-number list"),
])
def test_a_fact_value_of_the_wrong_kind_is_refused_naming_its_field(tmp_path, capsys, claim_type, value, words):
    instance = next(i for i in _lines(WEATHER / "demo_instances.jsonl", 30)
                    if any(f["type"] == claim_type for f in i["facts"]))
    broken, index = _with_fact_value(instance, claim_type, value)
    instances = _write(tmp_path / "i.jsonl", [json.dumps(broken)])
    generations = _write(tmp_path / "g.jsonl", [json.dumps({"instance_id": instance["id"], "system": "s", "text": "x"})])
    code = run(["score", "-d", "weather", "-i", str(instances), "-g", str(generations), "-o", str(tmp_path / "out"), "-q"])
    err = capsys.readouterr().err
    assert code == 2, err
    assert f"i.jsonl:1: field 'facts.{index}.value': claim type '{claim_type}' needs" in err and words in err, err
    assert err.count("\n") == 1 and not (tmp_path / "out").exists()


def test_value_kinds_hold_only_where_a_claim_type_declares_one():
    from factcov.model import ClaimType

    declared = ClaimType(name="n", description="", value_kind="float")
    assert declared.misfit(3) is None and declared.misfit(2.5) is None
    assert declared.misfit(float("inf")) and declared.misfit("2.5") and declared.misfit(False)
    # a third-party type that never said what its values are keeps accepting any value
    assert ClaimType(name="s", description="").misfit(42) is None
    assert ClaimType(name="s", description="", value_kind="str").misfit(42)


@pytest.mark.parametrize(("args", "wrong_file", "says"), [
    (["weather", "build", "-f"], WEATHER / "demo_nws.jsonl", "not an NWS forecast period"),        # generations
    (["weather", "build", "-f"], WEATHER / "demo_instances.jsonl", "not an NWS forecast period"),  # instances
    (["f1", "stats"], WEATHER / "demo_instances.jsonl", "field 'domain': not an f1 instance"),
])
def test_a_file_of_another_kind_is_refused_not_read_as_empty_records(tmp_path, capsys, args, wrong_file, says):
    out = ["-o", str(tmp_path / "built.jsonl"), "-q"] if args[0] == "weather" else []
    code = run([*args, str(wrong_file), *out])
    err = capsys.readouterr().err
    assert code == 2, err
    assert f"{wrong_file}:1:" in err and says in err and err.count("\n") == 1, err
    assert not (tmp_path / "built.jsonl").exists()


def _fifo_fed(path: Path, data: bytes) -> threading.Thread:
    """A named pipe at ``path`` that a thread fills with ``data`` once a reader opens it."""
    os.mkfifo(path)

    def feed() -> None:
        with open(path, "wb") as pipe:
            pipe.write(data)

    thread = threading.Thread(target=feed, daemon=True)
    thread.start()
    return thread


@pytest.mark.parametrize("gzipped", [False, True])
def test_inputs_may_be_pipes_plain_or_gzipped(tmp_path, capsys, gzipped):
    # `-g <(zcat gens.jsonl.gz)` or a FIFO cannot seek back: it used to be exit 3 "not seekable"
    encode = gzip.compress if gzipped else (lambda data: data)
    feeders = [_fifo_fed(tmp_path / "i.pipe", encode((WEATHER / "demo_instances.jsonl").read_bytes())),
               _fifo_fed(tmp_path / "g.pipe", encode((WEATHER / "demo_nws.jsonl").read_bytes()))]
    code = run(["score", "-d", "weather", "-i", str(tmp_path / "i.pipe"), "-g", str(tmp_path / "g.pipe"),
                "-o", str(tmp_path / "out"), "-q", "--no-report"])
    assert code == 0, capsys.readouterr().err
    for thread in feeders:
        thread.join(timeout=10)
    assert json.loads((tmp_path / "out" / "summary.json").read_text())["systems"]


def test_a_duplicate_in_a_pipe_is_named_without_reading_the_pipe_again(tmp_path, capsys):
    data = (WEATHER / "demo_nws.jsonl").read_bytes()
    _fifo_fed(tmp_path / "g.pipe", data + data)
    code = run(["extract", "-d", "weather", "-i", str(WEATHER / "demo_instances.jsonl"), "-g", str(tmp_path / "g.pipe")])
    err = capsys.readouterr().err
    lines = data.count(b"\n")
    assert code == 2 and f"g.pipe:{lines + 1}: field 'system': duplicate generation" in err, err
    assert "(first on an earlier line)" in err and err.count("\n") == 1


def test_a_byte_order_mark_before_the_first_line_is_skipped(tmp_path, capsys):
    bom = tmp_path / "gens.jsonl"
    bom.write_bytes(b"\xef\xbb\xbf" + (WEATHER / "demo_nws.jsonl").read_bytes())
    assert run(["extract", "-d", "weather", "-i", str(WEATHER / "demo_instances.jsonl"), "-g", str(bom)]) == 0
    plain = capsys.readouterr().out
    assert run(["extract", "-d", "weather", "-i", str(WEATHER / "demo_instances.jsonl"),
                "-g", str(WEATHER / "demo_nws.jsonl")]) == 0
    assert capsys.readouterr().out == plain


def test_an_instance_of_a_task_the_domain_does_not_list_is_scored_with_one_warning(tmp_path, capsys):
    first, second = ({**line, "task": "nope"} for line in _lines(WEATHER / "demo_instances.jsonl", 2))
    instances = _write(tmp_path / "i.jsonl", [json.dumps(first), json.dumps(second)])
    generations = _write(tmp_path / "g.jsonl", [json.dumps({"instance_id": first["id"], "system": "s", "text": "x"})])
    with pytest.warns(RuntimeWarning, match=r"i.jsonl:1: field 'task': 'nope' is not among") as caught:
        code = run(["score", "-d", "weather", "-i", str(instances), "-g", str(generations),
                    "-o", str(tmp_path / "out"), "-q", "--no-report"])
    assert code == 0, capsys.readouterr().err
    assert sum("'nope'" in str(w.message) for w in caught) == 1  # once per task, not per line


def test_a_failed_first_run_leaves_no_outdir_behind(tmp_path, capsys):
    # bad input found while scoring (after OUTDIR was opened): the OUTDIR the run made goes too
    lines = (WEATHER / "demo_nws.jsonl").read_text(encoding="utf-8").splitlines()
    generations = _write(tmp_path / "g.jsonl", [*lines, '{"instance_id": "nowhere", "system": "s", "text": "x"}'])
    out = tmp_path / "fresh" / "out"
    code = run(["score", "-d", "weather", "-i", str(WEATHER / "demo_instances.jsonl"), "-g", str(generations),
                "-o", str(out), "-q"])
    assert code == 2, capsys.readouterr().err
    assert not out.exists() and list(tmp_path.glob("fresh/.*")) == []
    # an OUTDIR that existed before stays, even empty
    out.mkdir(parents=True)
    assert run(["score", "-d", "weather", "-i", str(WEATHER / "demo_instances.jsonl"), "-g", str(generations),
                "-o", str(out), "-q"]) == 2
    assert out.is_dir() and list(out.iterdir()) == []
