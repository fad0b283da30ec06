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
