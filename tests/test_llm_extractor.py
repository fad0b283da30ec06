"""The LLM extractor against a local OpenAI-compatible server on 127.0.0.1 (never the internet)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from factcov.errors import FactcovError
from factcov.evaluate import Evaluator
from factcov.model import Fact, Instance
from factcov.plugins import get_domain, get_extractor

TEXT = "apples: 3. apples are blue. window 2-5."
ANSWER = {"claims": [
    {"type": "count", "key": {"item": "apples"}, "value": 3, "quote": "apples: 3."},
    {"type": "colour", "key": {"item": "apples", "crate": 7}, "value": "blue", "quote": "apples are blue."},
    {"type": "weight", "key": {}, "value": 9, "quote": "nothing"},
    {"type": "window", "key": {}, "value": [2, 5], "quote": "window 2-5."},
]}


class FakeChatServer(BaseHTTPRequestHandler):
    failures_left = 0
    requests: list[dict] = []

    def do_POST(self):  # noqa: N802 - http.server's naming
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).requests.append(body)
        if type(self).failures_left:
            type(self).failures_left -= 1
            self.send_response(503)
            self.end_headers()
            return
        payload = json.dumps({"choices": [{"message": {"content": json.dumps(ANSWER)}}]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args):
        pass


@pytest.fixture
def server():
    FakeChatServer.requests = []
    FakeChatServer.failures_left = 0
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), FakeChatServer)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    httpd.shutdown()


INSTANCE = Instance(id="i1", domain="mini", task="count", language="en", facts=[
    Fact(type="count", key={"item": "apples"}, value=3),
    Fact(type="colour", key={"item": "apples"}, value="red"),
    Fact(type="window", value=[2, 5]),
])


def test_claims_are_validated_against_claim_types_and_located_in_the_text(server, mini_plugin, tmp_path):
    extractor = get_extractor("llm", "en", base_url=server, model="test-model", cache_dir=tmp_path)
    claims = extractor.extract(TEXT, INSTANCE)
    assert [c.type for c in claims] == ["count", "colour", "window"]
    assert claims[1].key == {"item": "apples"}  # the slot the type does not have is dropped
    assert [TEXT[c.span[0]:c.span[1]] for c in claims] == ["apples: 3.", "apples are blue.", "window 2-5."]
    request = FakeChatServer.requests[0]
    assert request["model"] == "test-model" and request["temperature"] == 0
    assert "count: how many of an item" in request["messages"][1]["content"]


def test_responses_are_cached_so_a_rerun_sends_nothing(server, mini_plugin, tmp_path):
    extractor = get_extractor("llm", "en", base_url=server, model="m", cache_dir=tmp_path)
    first = extractor.extract(TEXT, INSTANCE)
    second = extractor.extract(TEXT, INSTANCE)
    assert first == second and len(FakeChatServer.requests) == 1


def test_retryable_errors_are_retried(server, mini_plugin):
    FakeChatServer.failures_left = 2
    extractor = get_extractor("llm", "en", base_url=server, model="m", retries=3)
    assert len(extractor.extract(TEXT, INSTANCE)) == 3
    assert len(FakeChatServer.requests) == 3


def test_scores_through_the_core_like_any_extractor(server, mini_plugin):
    evaluator = Evaluator(get_domain("mini"), extractor="llm", extractor_options={"base_url": server, "model": "m"})
    result = evaluator.evaluate_text(INSTANCE, TEXT)
    assert [v.label for v in result.verdicts] == ["supported", "contradicted", "supported"]
    assert evaluator.signature().count("extractor:llm:m") == 1


def test_missing_settings_and_unreachable_server_are_clear_errors(monkeypatch, mini_plugin):
    monkeypatch.delenv("FACTCOV_LLM_BASE_URL", raising=False)
    with pytest.raises(FactcovError, match="FACTCOV_LLM_BASE_URL"):
        get_extractor("llm", "en", model="m")
    extractor = get_extractor("llm", "en", base_url="http://127.0.0.1:9/v1", model="m", retries=1, timeout=1)
    with pytest.raises(FactcovError, match=r"is the server running at http://127.0.0.1:9/v1\?"):
        extractor.extract(TEXT, INSTANCE)


def test_a_batch_is_extracted_concurrently_in_input_order(server, mini_plugin):
    extractor = get_extractor("llm", "en", base_url=server, model="m", concurrency=3)
    other = TEXT.replace("apples: 3.", "apples: 3!")
    batches = extractor.extract_batch([TEXT, "  ", other], [INSTANCE] * 3)
    assert [len(claims) for claims in batches] == [3, 0, 3]
    assert batches[0][0].span == (0, 10) and batches[2][0].span is None  # its quote is not in the third text
    assert len(FakeChatServer.requests) == 2  # an empty text asks nothing
