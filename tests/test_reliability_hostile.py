"""Hostile neighbours: an HTTP server on 127.0.0.1 that misbehaves every way the audit
found, plugins that exit or interrupt at import or take a built-in command, a closed
stdout pipe, a full disk. Each ends in one line and the documented exit code."""

from __future__ import annotations

import json
import os
import socketserver
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from factcov import plugins
from factcov.cli.app import run
from factcov.domains.weather.fetch import NWSClient
from factcov.errors import EnvironmentFailure
from tests.test_plugins import make_distribution

REPO = Path(__file__).resolve().parents[1]
FORECAST = {"properties": {"periods": [{"number": 1, "name": "Tonight", "detailedForecast": "Clear."}]}}
POINTS = {"properties": {"forecast": "https://api.weather.gov/gridpoints/PHI/1,2/forecast"}}


class _Hostile(socketserver.BaseRequestHandler):
    """The first path segment picks the misbehaviour; the rest of the path is ignored."""

    def handle(self) -> None:
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = self.request.recv(4096)
            if not chunk:
                return
            data += chunk
        path = data.split(b" ")[1].decode()
        mode = path.strip("/").split("/")[0]
        body = json.dumps(POINTS if "/points/" in path else FORECAST).encode()
        send = self.request.sendall
        try:
            if mode == "ok":
                send(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
            elif mode == "redirect":
                port = self.server.server_address[1]
                send(b"HTTP/1.1 302 Found\r\nLocation: http://localhost:%d/ok%s\r\nContent-Length: 0\r\n\r\n"
                     % (port, path.encode()))
            elif mode == "endless":
                send(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
                block = b"x" * 65536
                while True:
                    send(b"%x\r\n" % len(block) + block + b"\r\n")
            elif mode == "trickle":
                send(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n")
                for _ in range(1000):
                    send(b" ")
                    time.sleep(0.2)
            elif mode == "latin1":
                send(b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\n\"\xe9\"")
            elif mode == "badstatus":
                send(b"garbage\r\n\r\n")
            elif mode == "incomplete":
                send(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"a\":")
            elif mode == "deep":
                deep = b"[" * 100000
                send(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(deep) + deep)
        except OSError:
            pass  # the client hung up, as it should


@pytest.fixture(scope="module")
def hostile_server() -> Iterator[str]:
    socketserver.ThreadingTCPServer.allow_reuse_address = True
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), _Hostile)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def _fetch(base: str, *extra: str) -> list[str]:
    return ["weather", "fetch", "--lat", "40", "--lon", "-75", "--base-url", base, "--retries", "0", *extra]


def test_a_well_behaved_local_server_works(hostile_server, capsys):
    assert run(_fetch(f"{hostile_server}/ok")) == 0
    assert "Tonight: Clear." in capsys.readouterr().out


@pytest.mark.parametrize(("mode", "message"), [
    ("redirect", "redirected to another host"),
    ("latin1", "not UTF-8"),
    ("badstatus", "failed after 1 attempts"),
    ("incomplete", "failed after 1 attempts"),
    ("deep", "invalid JSON"),
])
def test_a_misbehaving_server_is_one_line_and_exit_3(hostile_server, capsys, mode, message):
    assert run(_fetch(f"{hostile_server}/{mode}")) == 3
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_an_endless_body_stops_at_the_size_cap(hostile_server):
    client = NWSClient(base_url=f"{hostile_server}/endless", retries=0, max_bytes=1 << 20)
    with pytest.raises(EnvironmentFailure, match="larger than 1 MiB"):
        client.forecast(40, -75)


def test_a_trickling_server_cannot_hold_the_timeout_past_its_deadline(hostile_server, capsys):
    started = time.monotonic()
    assert run(_fetch(f"{hostile_server}/trickle", "--timeout", "1")) == 3
    assert time.monotonic() - started < 4  # deadline 1 s, plus at most one read's timeout
    assert "within 1 s" in capsys.readouterr().err


def test_a_poisoned_cache_entry_is_fetched_again(hostile_server, tmp_path):
    client = NWSClient(base_url=f"{hostile_server}/ok", retries=0, cache_dir=tmp_path)
    client.forecast(40, -75)
    for entry in tmp_path.glob("*.json"):
        entry.write_text("[" * 50000)
    assert client.forecast(40, -75)["properties"]["periods"][0]["name"] == "Tonight"
    for entry in tmp_path.glob("*.json"):
        entry.write_bytes(b"\xff[1]")
    assert client.forecast(40, -75)["properties"]["periods"][0]["name"] == "Tonight"


@pytest.mark.parametrize("base", ["not a url", "file:///etc", "ftp://127.0.0.1/", "http://"])
def test_only_http_urls_with_a_host_are_asked(base, capsys):
    assert run(_fetch(base)) == 2
    assert "--base-url must be an http" in capsys.readouterr().err


# --- plugins ---------------------------------------------------------------------


@pytest.fixture
def plugin_dir(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    plugins.reset()
    yield tmp_path
    for name in ("exiter", "interrupter", "hijack"):
        if plugins.pm.get_plugin(name) is not None:
            plugins.pm.unregister(name=name)
    plugins.reset()


@pytest.mark.parametrize(("module", "source"), [
    ("exiting_factcov_plugin", "import sys\nsys.exit(0)\n"),
    ("interrupting_factcov_plugin", "raise KeyboardInterrupt\n"),
])
def test_a_plugin_that_exits_or_interrupts_at_import_is_skipped_and_help_still_shows(
        plugin_dir, monkeypatch, capsys, module, source):
    make_distribution(plugin_dir, f"{module}_dist", "0.1", "exiter", module, source)
    monkeypatch.setenv("FACTCOV_PLUGINS", "exiter")
    with pytest.warns(RuntimeWarning, match="plugin 'exiter' failed to load"):
        assert run(["--help"]) == 0
    assert "score" in capsys.readouterr().out
    plugins.reset()
    sys.modules.pop(module, None)
    monkeypatch.setenv("FACTCOV_STRICT_PLUGINS", "1")
    assert run(["--help"]) == 2
    assert "FACTCOV_STRICT_PLUGINS" in capsys.readouterr().err


def test_a_plugin_cannot_replace_a_built_in_command(plugin_dir, monkeypatch, capsys):
    make_distribution(plugin_dir, "hijack_dist", "0.1", "hijack", "hijacking_factcov_plugin", """
        from factcov import hookimpl

        @hookimpl
        def register_commands(app):
            @app.command("score")
            def score():
                print("HIJACKED")
    """)
    monkeypatch.setenv("FACTCOV_PLUGINS", "hijack")
    with pytest.warns(RuntimeWarning, match="would replace the command.*score"):
        assert run(["score", "--help"]) == 0
    out = capsys.readouterr().out
    assert "--generations" in out  # the built-in score's help, not the plugin's
    with pytest.warns(RuntimeWarning, match="would replace the command.*score"):  # warned on every start
        assert run(["score", "-d", "x"]) == 2  # still the built-in (missing options), never "HIJACKED"
    assert "HIJACKED" not in capsys.readouterr().out


def test_factcov_plugins_naming_no_installed_plugin_is_an_error(plugin_dir, monkeypatch, capsys):
    monkeypatch.setenv("FACTCOV_PLUGINS", "nosuchname")
    assert run(["domains"]) == 2
    assert "nosuchname" in capsys.readouterr().err


# --- the process and the machine ------------------------------------------------


def test_a_closed_stdout_pipe_exits_quietly(tmp_path):
    instances = REPO / "domains" / "weather" / "demo_instances.jsonl"
    generations = REPO / "domains" / "weather" / "demo_nws.jsonl"
    factcov = Path(sys.executable).with_name("factcov")
    done = subprocess.run(f"'{factcov}' extract -d weather -i '{instances}' -g '{generations}' | head -1",
                          shell=True, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "FACTCOV_PLUGINS": ""}, executable="/bin/bash")
    assert done.returncode == 0 and done.stdout.count("\n") == 1
    assert done.stderr == ""
    piped = subprocess.run(f"set -o pipefail; '{factcov}' extract -d weather -i '{instances}' -g '{generations}' | head -1",
                           shell=True, capture_output=True, text=True, timeout=120, executable="/bin/bash")
    assert piped.returncode == 141 and piped.stderr == ""


@pytest.fixture
def small_disk(tmp_path) -> Iterator[Path]:
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(mount)], capture_output=True)
    if done.returncode != 0:
        pytest.skip("mounting a tmpfs needs root; the monkeypatched ENOSPC test covers the same path")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def test_a_full_disk_is_exit_3_and_keeps_the_earlier_run(small_disk, capsys, mini_plugin, tmp_path):
    from tests.test_cli_core import GENERATIONS, INSTANCES, write_jsonl

    instances = write_jsonl(tmp_path / "i.jsonl", INSTANCES)
    small = write_jsonl(tmp_path / "small.jsonl", GENERATIONS[:2])
    big = write_jsonl(tmp_path / "big.jsonl", [{**g, "system": f"s{n}", "text": g["text"] + " " + " ".join(os.urandom(4).hex() for _ in range(3000))}
                                               for n in range(10) for g in GENERATIONS[:2]])
    out = small_disk / "out"
    base = ["score", "-d", "mini", "-i", str(instances), "-o", str(out), "-q", "--no-report"]
    assert run([*base, "-g", str(small)]) == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    capsys.readouterr()
    assert run([*base, "-g", str(big)]) == 3
    err = capsys.readouterr().err
    assert "No space left on device" in err and err.count("\n") == 1
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert [p.name for p in small_disk.iterdir()] == ["out"]


# --- the llm extractor's server ---------------------------------------------------


class _HostileChat(socketserver.BaseRequestHandler):
    """An OpenAI-compatible endpoint whose answer is chosen by the model name in the request."""

    def handle(self) -> None:
        data = b""
        while b"\r\n\r\n" not in data:
            data += self.request.recv(65536)
        head, _, body = data.partition(b"\r\n\r\n")
        if head.startswith(b"GET "):  # the client's reachability probe (GET /models): not implemented here
            self.request.sendall(b"HTTP/1.1 501 Not Implemented\r\nContent-Length: 0\r\n\r\n")
            return
        length = int(next(line.split(b":")[1] for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")))
        while len(body) < length:
            body += self.request.recv(65536)
        model = json.loads(body)["model"]
        send = self.request.sendall
        answers = {
            "not-json": "Sure! Here are the claims: apples 3",
            "claims-not-list": json.dumps({"claims": {"type": "count"}}),
            "good": json.dumps({"claims": [{"type": "count", "key": {"item": "apples"}, "value": 3,
                                            "quote": "apples: 3."}]}),
        }
        try:
            if model == "silent":
                time.sleep(30)
                return
            if model == "huge":
                send(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
                while True:
                    send(b"10000\r\n" + b" " * 65536 + b"\r\n")
            payload = json.dumps({"choices": [{"message": {"content": answers[model]}}]}).encode()
            send(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(payload)
                 + payload)
        except OSError:
            pass


@pytest.fixture(scope="module")
def chat_server() -> Iterator[str]:
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), _HostileChat)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()


@pytest.mark.slow
@pytest.mark.parametrize("model", ["not-json", "claims-not-list"])
def test_llm_answers_that_are_not_claims_are_counted_and_fail_the_run(chat_server, mini_plugin, tmp_path, monkeypatch,
                                                                      capsys, model):
    from tests.test_cli_core import GENERATIONS, INSTANCES, write_jsonl

    monkeypatch.setenv("FACTCOV_LLM_BASE_URL", chat_server)
    instances = write_jsonl(tmp_path / "i.jsonl", INSTANCES)
    generations = write_jsonl(tmp_path / "g.jsonl", [g for g in GENERATIONS if g["text"]])
    args = ["score", "-d", "mini", "-i", str(instances), "-g", str(generations), "-x", "llm", "-X", "timeout=1",
            "-q", "--no-report"]
    monkeypatch.setenv("FACTCOV_LLM_MODEL", "good")
    assert run([*args, "-o", str(tmp_path / "out")]) == 0
    before = (tmp_path / "out" / "summary.json").read_bytes()
    assert json.loads(before)["extraction_failures"]["count"] == 0
    monkeypatch.setenv("FACTCOV_LLM_MODEL", model)
    started = time.monotonic()
    assert run([*args, "-o", str(tmp_path / "out")]) == 3
    assert time.monotonic() - started < 20  # 1 s per text, not the server's 30
    err = capsys.readouterr().err
    assert "the extractor failed on 5 of 5 texts" in err and err.count("\n") == 1
    assert (tmp_path / "out" / "summary.json").read_bytes() == before
    # allowed past the threshold, the failures are in the summary, not hidden as 0 claims
    monkeypatch.setenv("FACTCOV_MAX_EXTRACTION_FAILURES", "1")
    assert run([*args, "-o", str(tmp_path / "out2")]) == 0
    failures = json.loads((tmp_path / "out2" / "summary.json").read_text())["extraction_failures"]
    assert failures["count"] == 5 and failures["by_system"] == {"complete": 2, "terse": 1, "wrong": 2}
    from factcov.report import build_payload

    assert build_payload([tmp_path / "out2"])["runs"][0]["extraction_failures"]["count"] == 5


def test_an_endless_llm_answer_stops_at_the_body_cap(chat_server, mini_plugin, monkeypatch):
    from factcov.errors import ExtractionFailed
    from factcov.plugins import get_extractor
    from tests.test_llm_extractor import INSTANCE

    monkeypatch.setattr("factcov.limits.MAX_HTTP_BODY_BYTES", 1 << 20)
    extractor = get_extractor("llm", "en", base_url=chat_server, model="huge", timeout=20, retries=1)
    with pytest.raises(ExtractionFailed, match="larger than 1 MiB"):  # that text's failure, counted by the run
        extractor.extract("apples: 3.", INSTANCE)


def test_a_silent_llm_server_costs_the_timeout_per_attempt_then_exit_3(chat_server, mini_plugin, tmp_path,
                                                                       monkeypatch, capsys):
    from tests.test_cli_core import GENERATIONS, INSTANCES, write_jsonl

    monkeypatch.setenv("FACTCOV_LLM_BASE_URL", chat_server)
    monkeypatch.setenv("FACTCOV_LLM_MODEL", "silent")
    instances = write_jsonl(tmp_path / "i.jsonl", INSTANCES)
    generations = write_jsonl(tmp_path / "g.jsonl", GENERATIONS[:1])
    started = time.monotonic()
    assert run(["score", "-d", "mini", "-i", str(instances), "-g", str(generations), "-x", "llm",
                "-X", "timeout=1", "-X", "retries=2", "-q", "-o", str(tmp_path / "out")]) == 3
    assert time.monotonic() - started < 15  # two attempts of 1 s, not the server's 30 s each
    err = capsys.readouterr().err
    # counted per text, then the failure threshold fails the run (1 of 1 texts)
    assert "timed out: no complete answer within 1 s" in err and err.count("\n") == 1


@pytest.mark.parametrize("timeout", ["-1", "0", "nan", "abc"])
def test_an_llm_timeout_that_is_not_a_positive_number_is_a_usage_error(chat_server, mini_plugin, tmp_path,
                                                                        monkeypatch, capsys, timeout):
    from tests.test_cli_core import GENERATIONS, INSTANCES, write_jsonl

    monkeypatch.setenv("FACTCOV_LLM_BASE_URL", chat_server)
    monkeypatch.setenv("FACTCOV_LLM_MODEL", "good")
    instances = write_jsonl(tmp_path / "i.jsonl", INSTANCES)
    generations = write_jsonl(tmp_path / "g.jsonl", GENERATIONS)
    assert run(["extract", "-d", "mini", "-i", str(instances), "-g", str(generations), "-x", "llm",
                "-X", f"timeout={timeout}"]) == 2
    err = capsys.readouterr().err
    assert "timeout" in err and err.count("\n") == 1  # 'abc' fails -X typing, the others the llm's own check
