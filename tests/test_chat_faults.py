"""Servers that are dead, silent, slow to drip, stormy or odd (issues 29 and 31), against local
fake servers on 127.0.0.1: every failure is one clear line with the right exit code, fast."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from factcov.chat import ChatClient, ChatError, ServerUnreachable, request_digest
from factcov.cli.app import run
from tests.chat_server import ChatServer, ModelBehaviour
from tests.test_loop import REPO, instances_file, read_lines

Reply = tuple[int, dict[str, str], bytes]


def answer(content: str = "It was sunny.", usage: object = None, finish: str = "stop") -> bytes:
    body = {"choices": [{"message": {"role": "assistant", "content": content}, "finish_reason": finish}]}
    if usage is not None:
        body["usage"] = usage
    return json.dumps(body).encode()


class Scripted:
    """A server whose every POST gets ``reply(n)`` (n counts requests from 0); GET /models gets ``models``."""

    def __init__(self, reply: Callable[[int], Reply], models: int = 200) -> None:
        self.reply, self.models, self.posts = reply, models, 0
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self):  # noqa: N802
                self._send(owner.models, {}, b'{"data": []}')

            def do_POST(self):  # noqa: N802
                self.rfile.read(int(self.headers["Content-Length"]))
                n, owner.posts = owner.posts, owner.posts + 1
                self._send(*owner.reply(n))

            def _send(self, status, headers, payload):
                try:
                    self.send_response(status)
                    for name, value in {"Content-Length": str(len(payload)), **headers}.items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(payload)
                except OSError:
                    pass

            def send_header(self, keyword, value):  # raw bytes: lets a test send a non-ASCII value
                self._headers_buffer.append(f"{keyword}: {value}\r\n".encode())
                if keyword.lower() == "connection" and value.lower() == "close":
                    self.close_connection = True

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    @property
    def root(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def scripted():
    servers: list[Scripted] = []

    def start(reply: Callable[[int], Reply], models: int = 200) -> Scripted:
        servers.append(Scripted(reply, models))
        return servers[-1]

    yield start
    for server in servers:
        server.close()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def generate_args(instances: Path, out: Path, url: str, *extra: str) -> list[str]:
    return ["generate", "-d", "weather", "-i", str(instances), "-o", str(out), "--model", "m", "--base-url", url,
            "--no-cache", "-q", *extra]


# -- dead and silent servers (issue 29, items 4-5) ---------------------------------------------


def test_a_dead_server_is_found_at_once_and_leaves_no_file(tmp_path: Path, capsys) -> None:
    instances, _ = instances_file(tmp_path, "weather", 48)
    gens = tmp_path / "gens.jsonl"
    url = f"http://127.0.0.1:{free_port()}/v1"
    started = time.monotonic()
    assert run(generate_args(instances, gens, url)) == 3
    elapsed = time.monotonic() - started
    err = capsys.readouterr().err
    assert f"is the server running at {url}?" in err and len(err.strip().splitlines()) == 1
    assert elapsed < 12, elapsed  # was 42 s here (a second or more per instance); ~1 s on an idle machine
    assert not gens.exists() and not (tmp_path / "gens.errors.jsonl").exists()


def test_a_404_at_a_url_without_v1_says_to_add_it(tmp_path: Path, scripted, capsys) -> None:
    server = scripted(lambda n: (404, {}, b'{"error": "not found"}'), models=404)
    instances, _ = instances_file(tmp_path, "weather", 8)
    assert run(generate_args(instances, tmp_path / "gens.jsonl", server.root)) == 3
    err = capsys.readouterr().err
    assert f"try --base-url {server.root}/v1" in err
    assert server.posts == 0  # the probe found it: no request was sent
    # A server without /models (501 here) is still asked; its 404 on the chat URL stops the run at once.
    lonely = scripted(lambda n: (404, {}, b"{}"), models=501)
    assert run(generate_args(instances, tmp_path / "gens.jsonl", lonely.root, "--concurrency", "1")) == 3
    assert "try --base-url" in capsys.readouterr().err and lonely.posts <= 2  # not one per instance


def test_a_server_dying_mid_run_stops_the_run_after_a_few_failures(scripted) -> None:
    server = scripted(lambda n: (200, {"Connection": "close"}, answer()))
    client = ChatClient(server.root + "/v1", "m", retries=2, backoff=0.01, concurrency=1)
    jobs = [(n, [{"role": "user", "content": f"text {n}"}]) for n in range(30)]
    stream = client.complete_many(jobs)
    got = [next(stream)]
    server.close()  # the server dies after its first answer
    with pytest.raises(ServerUnreachable, match="requests in a row could not connect .* is the server running"):
        for item in stream:
            got.append(item)
    assert len(got) < 5  # not 30 slow failures


def test_failures_are_not_progress(tmp_path: Path, monkeypatch) -> None:
    import contextlib

    from factcov import generate

    advanced: list[int] = []

    @contextlib.contextmanager
    def recording(*args, **kwargs):
        yield lambda n=0, **update: advanced.append(n)

    monkeypatch.setattr(generate, "progress", recording)
    instances, chosen = instances_file(tmp_path, "weather", 6)
    model = ModelBehaviour(chosen)
    model.faults = {chosen[0].id: "500", chosen[1].id: "500"}
    with ChatServer(model) as server:
        assert run(generate_args(instances, tmp_path / "g.jsonl", server.url, "--retries", "1")) == 3
    assert sum(advanced) == 4 == len(read_lines(tmp_path / "g.jsonl"))


def test_a_silent_llm_server_is_counted_per_text_and_gated(tmp_path: Path, monkeypatch) -> None:
    instances, chosen = instances_file(tmp_path, "weather", 6)
    model = ModelBehaviour(chosen)
    model.slow_s = 2.0
    gens = tmp_path / "gens.jsonl"
    with ChatServer(model) as server:
        assert run(generate_args(instances, gens, server.url)) == 0
        model.extract = lambda text, instance: []
        model.faults = {chosen[2].id: "timeout"}  # silent for this text's extraction
        monkeypatch.setenv("FACTCOV_LLM_BASE_URL", server.url)
        monkeypatch.setenv("FACTCOV_LLM_MODEL", "fake-1b")
        score = ["score", "-d", "weather", "-i", str(instances), "-g", str(gens), "-x", "llm", "--no-report", "-q",
                 "-X", "timeout=0.5", "-X", "retries=1"]
        monkeypatch.setenv("FACTCOV_MAX_EXTRACTION_FAILURES", "0.5")
        assert run([*score, "-o", str(tmp_path / "lenient")]) == 0  # was exit 3 for the whole run
        failures = json.loads((tmp_path / "lenient" / "summary.json").read_text())["extraction_failures"]
        assert failures["count"] == 1 and failures["examples"][0]["instance_id"] == chosen[2].id
        assert "timed out" in failures["examples"][0]["reason"]
        monkeypatch.setenv("FACTCOV_MAX_EXTRACTION_FAILURES", "0")
        assert run([*score, "-o", str(tmp_path / "strict")]) == 3  # the gate, not the first failure


def test_x_options_have_the_bounds_of_their_cli_twins(tmp_path: Path, capsys) -> None:
    instances, chosen = instances_file(tmp_path, "weather", 1)
    gens = tmp_path / "g.jsonl"
    gens.write_text(json.dumps({"instance_id": chosen[0].id, "system": "s", "text": "t"}) + "\n", encoding="utf-8")
    base = ["score", "-d", "weather", "-i", str(instances), "-g", str(gens), "-x", "llm", "-o", str(tmp_path / "o"),
            "-X", "base_url=http://127.0.0.1:9/v1", "-X", "model=m"]
    for option in ("retries=1000000000", "retries=0", "concurrency=100000", "timeout=0.001", "timeout=nan"):
        assert run([*base, "-X", option]) == 2, option
        assert option.split("=")[0] in capsys.readouterr().err


# -- deadlines and signals (issue 31) ------------------------------------------------------------


class Dripping:
    """Accepts, then sends a valid answer one byte every ``gap_s`` (status line and headers too)."""

    def __init__(self, gap_s: float = 0.05) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.gap_s = gap_s
        threading.Thread(target=self._serve, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.sock.getsockname()[1]}/v1"

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._drip, args=(conn,), daemon=True).start()

    def _drip(self, conn: socket.socket) -> None:
        body = answer()
        payload = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body)
        try:
            conn.recv(65536)
            for byte in payload:
                conn.sendall(bytes([byte]))
                time.sleep(self.gap_s)
        except OSError:
            pass
        finally:
            conn.close()


def test_timeout_is_a_deadline_for_the_whole_request() -> None:
    server = Dripping(gap_s=0.1)  # ~16 s for the whole answer, each byte well inside any read timeout
    client = ChatClient(server.url, "m", retries=1, timeout=1.0)
    started = time.monotonic()
    with pytest.raises(ChatError, match="timed out"):
        client.complete([{"role": "user", "content": "hi"}])
    assert time.monotonic() - started < 6  # 1 s and a little on an idle machine
    server.sock.close()


def _cli(args: list[str], cwd: Path) -> subprocess.Popen:
    code = "from factcov.cli.app import main; main()"
    return subprocess.Popen([sys.executable, "-c", code, *args], cwd=cwd, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(REPO)})


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_signals_end_a_run_retrying_a_500_storm(tmp_path: Path, scripted, signum: int, code: int) -> None:
    server = scripted(lambda n: (500, {}, b'{"error": "storm"}'))
    instances, _ = instances_file(tmp_path, "weather", 6)
    gens = tmp_path / "gens.jsonl"
    child = _cli(generate_args(instances, gens, server.root + "/v1", "--retries", "100"), tmp_path)
    deadline = time.monotonic() + 60
    while server.posts < 8 and time.monotonic() < deadline:  # well into its retries
        time.sleep(0.05)
    child.send_signal(signum)
    try:  # about a second on an idle machine; the bound leaves room for a loaded one
        assert child.wait(timeout=15) == code
    finally:
        child.kill()
    assert not gens.exists()  # nothing was answered: no file, as before


def test_sigterm_ends_a_run_waiting_on_a_silent_server(tmp_path: Path) -> None:
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(64)  # accepts (the kernel does), never answers
    instances, chosen = instances_file(tmp_path, "weather", 4)
    gens = tmp_path / "gens.jsonl"
    # One line already written by an earlier run stays as it was.
    with ChatServer(ModelBehaviour(chosen)) as server:
        assert run(generate_args(instances, gens, server.url, "--limit", "1")) == 0
    before = gens.read_bytes()
    url = f"http://127.0.0.1:{silent.getsockname()[1]}/v1"
    child = _cli(generate_args(instances, gens, url, "--timeout", "600"), tmp_path)
    silent.settimeout(120)
    waiting, _ = silent.accept()  # the run is waiting on the server (past start-up and plugin imports)
    time.sleep(0.5)
    child.send_signal(signal.SIGTERM)
    try:
        assert child.wait(timeout=15) == 143
    finally:
        child.kill()
        waiting.close()
        silent.close()
    assert gens.read_bytes() == before


# -- misbehaving servers (issue 31) --------------------------------------------------------------


def test_a_non_ascii_header_on_a_good_answer_is_fine(scripted) -> None:
    server = scripted(lambda n: (200, {"X-Note": "café"}, answer("Fine.")))
    assert ChatClient(server.root, "m", retries=1).complete([{"role": "user", "content": "hi"}]).content == "Fine."


@pytest.mark.parametrize("garbage", ["1e400", "nan", "-5", "soon", "9999999999"])
def test_retry_after_garbage_falls_back_to_the_default_backoff(scripted, garbage: str) -> None:
    server = scripted(lambda n: (429, {"Retry-After": garbage}, b"{}") if n == 0 else (200, {}, answer()))
    client = ChatClient(server.root, "m", retries=2, backoff=0.01)
    started = time.monotonic()
    assert client.complete([{"role": "user", "content": "hi"}]).content == "It was sunny."
    assert time.monotonic() - started < 10  # the default back-off (0.01 s), not 30 s


@pytest.mark.parametrize("usage", [
    '{"prompt_tokens": NaN, "completion_tokens": 3}',
    '{"prompt_tokens": 1e400, "completion_tokens": 3}',
    '{"prompt_tokens": ' + "9" * 400 + ', "completion_tokens": 3}',
    '{"prompt_tokens": -4, "completion_tokens": 3}',
    '[1, 2]',
])
def test_absurd_usage_counts_are_left_out_and_the_file_stays_readable(tmp_path: Path, scripted, usage: str) -> None:
    body = ('{"choices": [{"message": {"content": "Sunny, high near 70."}, "finish_reason": "stop"}], "usage": '
            + usage + "}").encode()
    server = scripted(lambda n: (200, {}, body))
    instances, _ = instances_file(tmp_path, "weather", 2)
    gens = tmp_path / "gens.jsonl"
    assert run(generate_args(instances, gens, server.root)) == 0
    for line in read_lines(gens):
        assert "prompt_tokens" not in line["usage"]
    assert run(["score", "-d", "weather", "-i", str(instances), "-g", str(gens), "-o", str(tmp_path / "s"),
                "--no-report", "-q"]) == 0
    assert run(generate_args(instances, gens, server.root)) == 0  # resumes from it


def test_a_deeply_nested_answer_is_the_servers_fault(tmp_path: Path, scripted, capsys) -> None:
    server = scripted(lambda n: (200, {}, b"[" * 100_000 + b"]" * 100_000))
    instances, _ = instances_file(tmp_path, "weather", 2)
    assert run(generate_args(instances, tmp_path / "g.jsonl", server.root, "--retries", "1")) == 3
    assert "nested too deeply" in capsys.readouterr().err


@pytest.mark.parametrize("poison", ["[" * 100_000, '{"content": 5}', "[]", '{"content": "x", "usage": {"a": NaN}}z',
                                    '{"content": "ok", "finish_reason": ["length"]}'])
def test_a_poisoned_cache_entry_is_asked_again(tmp_path: Path, scripted, poison: str) -> None:
    server = scripted(lambda n: (200, {}, answer("From the server.")))
    cache = tmp_path / "cache"
    client = ChatClient(server.root, "m", retries=1, cache_dir=cache)
    messages = [{"role": "user", "content": "hi"}]
    cache.mkdir()
    (cache / f"{request_digest(client.request(messages))}.json").write_text(poison, encoding="utf-8")
    assert client.complete(messages).content == "From the server." and server.posts == 1
    assert client.complete(messages).cached  # rewritten whole


def test_an_llm_claim_whose_type_is_a_list_is_dropped(scripted, mini_plugin) -> None:
    from factcov.model import Instance
    from factcov.plugins import get_extractor

    claims = {"claims": [{"type": ["count"], "key": {"item": "apples"}, "value": 3, "quote": "apples: 3."},
                         {"type": "count", "key": {"item": "apples"}, "value": 3, "quote": "apples: 3."}]}
    server = scripted(lambda n: (200, {}, answer(json.dumps(claims))))
    extractor = get_extractor("llm", "en", base_url=server.root, model="m", retries=1)
    instance = Instance(id="i1", domain="mini", task="count", language="en")
    assert [c.type for c in extractor.extract("apples: 3.", instance)] == ["count"]
