"""A small OpenAI-compatible server on 127.0.0.1 that behaves like an imperfect model.

Asked for a text, it writes the instance's facts with the domain's realizer, but leaves
out about a third of them and gives a quarter a wrong value (chosen by a seed from the
instance id, so every run sees the same model). Asked for a revision, it reads the
feedback like a model would: of the wrong facts the feedback names, it fixes the first
half (at least one) and keeps the rest as they were. It is stateless, so retries and
reruns get the same answer.

``respond`` (the request body -> the content, None for an HTTP 500) answers every request
instead, for clients that are not about an instance (rag's model-based checker).

Faults by instance id (``faults``): ``timeout`` (answers after ``slow_s``), ``429`` (once,
with ``Retry-After: 1``), ``500`` (always), ``truncated`` (a cut-off JSON body), ``empty``
(an empty message), ``length`` (half the text, ``finish_reason: length``), ``think``
(the text after a ``<think>…</think>`` block), ``reasoning`` (thinking in a separate
``reasoning_content``). ``serial`` makes it compute one request at a time, like
llama.cpp's server or Ollama by default. Extraction requests (``response_format`` JSON) are answered by
``extract(text, instance)`` when given.
"""

from __future__ import annotations

import json
import random
import select
import socket
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from factcov.model import Fact, Instance
from factcov.plugins import get_domain
from factcov.prompts import prompt_messages
from factcov.refine import say


class ModelBehaviour:
    def __init__(self, instances: list[Instance], delay_s: float = 0.0) -> None:
        self.by_prompt = {prompt_messages(i)[1]["content"]: i for i in instances}
        self.faults: dict[str, str] = {}
        self.delay_s = delay_s
        self.slow_s = 3.0
        self.extract: Callable[[str, Instance], list[dict[str, Any]]] | None = None
        # Any other client (rag's checker): the request body -> the message content, None for HTTP 500.
        self.respond: Callable[[dict], str | None] | None = None
        self.requests: list[tuple[float, str, dict]] = []  # (time, instance id, body)
        self.authorizations: list[str | None] = []
        self.lock = threading.Lock()
        self._rate_limited: set[str] = set()
        self.states: dict[str, tuple[set[int], dict[int, Fact]]] = {}
        self.serial = False
        self.compute = threading.Lock()  # held while answering when serial

    def flaws(self, instance: Instance) -> tuple[set[int], dict[int, Fact]]:
        """Which facts the first answer leaves out and which it gets wrong."""
        rng = random.Random(instance.id)
        order = list(range(len(instance.facts)))
        rng.shuffle(order)
        n_drop = len(order) // 3
        n_wrong = max(1, len(order) // 4) if len(order) > 1 else 0
        dropped = set(order[:n_drop])
        domain = get_domain(instance.domain)
        wrong: dict[int, Fact] = {}
        for index in order[n_drop:n_drop + n_wrong]:
            try:
                wrong[index] = domain.perturb(instance.facts[index], rng, instance)
            except ValueError:
                dropped.add(index)
        return dropped, wrong

    def text(self, instance: Instance, previous: str | None, feedback: str | None) -> str:
        domain = get_domain(instance.domain)
        # What the model got wrong in the text it is asked to revise (its first answer's
        # flaws when it does not know that text).
        dropped, wrong = self.states.get(previous, self.flaws(instance)) if previous else self.flaws(instance)
        if feedback is not None:
            named = sorted(i for i in dropped | set(wrong) if say(domain, instance.facts[i], instance) in feedback)
            fixed = set(named[: max(1, (len(named) + 1) // 2)]) if named else set()
            # Flaws the feedback does not name stay: the model only fixes what it is told.
            dropped = {i for i in dropped if i not in fixed}
            wrong = {i: f for i, f in wrong.items() if i not in fixed}
        facts = [wrong.get(i, fact) for i, fact in enumerate(instance.facts) if i not in dropped]
        text = domain.realize(facts, instance.language, instance)
        with self.lock:
            self.states.setdefault(text, (dropped, wrong))
        return text


def make_handler(model: ModelBehaviour):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self):  # noqa: N802 - http.server's naming
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            messages = body["messages"]
            if model.respond is not None:
                with model.lock:
                    model.requests.append((time.monotonic(), "?", body))
                content = model.respond(body)
                if content is None:
                    return self._send(500, b'{"error": "boom"}')
                return self._send(200, json.dumps({"choices": [{"message": {"role": "assistant", "content": content},
                                                                 "finish_reason": "stop"}]}).encode())
            if "response_format" in body:  # the llm extractor: find the instance by its data and language
                instance = next((i for i in model.by_prompt.values() if f"Language: {i.language}." in
                                 messages[-1]["content"] and json.dumps(i.context, ensure_ascii=False)[:4000]
                                 in messages[-1]["content"]), None)
            else:
                instance = model.by_prompt.get(messages[1]["content"]) if len(messages) > 1 else None
            instance_id = instance.id if instance else "?"
            with model.lock:
                model.requests.append((time.monotonic(), instance_id, body))
                model.authorizations.append(self.headers.get("Authorization"))
            if model.delay_s:
                if model.serial:  # queued like llama.cpp: a request whose client left is never computed
                    while not model.compute.acquire(timeout=0.02):
                        if self._client_gone():
                            return None
                    try:
                        time.sleep(model.delay_s)
                    finally:
                        model.compute.release()
                else:
                    time.sleep(model.delay_s)
            fault = model.faults.get(instance_id)
            if fault == "timeout":
                time.sleep(model.slow_s)
            if fault == "429":
                with model.lock:
                    first = instance_id not in model._rate_limited
                    model._rate_limited.add(instance_id)
                if first:
                    return self._send(429, b'{"error": "rate limited"}', {"Retry-After": "1"})
            if fault == "500":
                return self._send(500, b'{"error": "boom"}')
            if instance is None:
                return self._send(400, b'{"error": "unknown prompt"}')
            if "response_format" in body and model.extract is not None:
                text = messages[-1]["content"].split("Text:\n", 1)[-1]
                content = json.dumps({"claims": model.extract(text, instance)})
            else:
                revising = len(messages) > 3
                content = model.text(instance, messages[-2]["content"] if revising else None,
                                     messages[-1]["content"] if revising else None)
            if fault == "empty":
                content = ""
            message = {"role": "assistant", "content": content}
            finish = "stop"
            if fault == "length":
                content = message["content"] = content[: len(content) // 2]
                finish = "length"
            if fault == "think":
                message["content"] = "<think>The data says rain. I will not say sunny.</think>\n" + content
            if fault == "reasoning":
                message["reasoning_content"] = "Let me list the facts first."
            payload = json.dumps({
                "choices": [{"message": message, "finish_reason": finish}],
                "usage": {"prompt_tokens": sum(len(m["content"].split()) for m in messages),
                          "completion_tokens": len(content.split())},
            }).encode()
            if fault == "truncated":
                payload = payload[: len(payload) // 2]
            self._send(200, payload)

        def _client_gone(self) -> bool:
            readable, _, _ = select.select([self.connection], [], [], 0)
            try:
                return bool(readable) and self.connection.recv(1, socket.MSG_PEEK) == b""
            except OSError:
                return True

        def _send(self, status: int, payload: bytes, headers: dict[str, str] | None = None) -> None:
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(payload)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (a timeout): nothing to answer

        def log_message(self, *args):
            pass

    return Handler


class ChatServer:
    def __init__(self, model: ModelBehaviour) -> None:
        self.model = model
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(model))
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __enter__(self) -> ChatServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
