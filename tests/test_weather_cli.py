"""`factcov weather build` and `factcov weather fetch` (against a local server, never the internet)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from factcov.cli.app import run
from factcov.domains.weather.fetch import NWSClient
from factcov.errors import FactcovError
from factcov.inputs import load_instances
from factcov.plugins import get_domain


def test_build_writes_one_instance_per_period_and_language(shared_data, tmp_path):
    out, nws = tmp_path / "instances.jsonl", tmp_path / "nws.jsonl"
    forecast = shared_data / "weather" / "forecasts" / "e2e__BMX_59-84.forecast.json"
    code = run(["weather", "build", "-f", str(forecast), "--languages", "en,pt", "-o", str(out),
                "--nws-generations", str(nws), "-q"])
    assert code == 0
    instances = load_instances(out, get_domain("weather"))
    periods = len(json.loads(forecast.read_text())["properties"]["periods"])
    assert len(instances) == 2 * periods
    assert "weather:e2e__BMX_59-84:2:pt" in instances
    lines = [json.loads(line) for line in nws.read_text().splitlines()]
    assert {line["system"] for line in lines} == {"nws"} and len(lines) == 2 * periods


def test_build_rejects_an_unknown_language_and_leaves_no_file(shared_data, tmp_path):
    out = tmp_path / "instances.jsonl"
    code = run(["weather", "build", "-f", str(shared_data / "weather" / "forecasts"), "--languages", "fr", "-o", str(out), "-q"])
    assert code == 2 and not out.exists() and not list(tmp_path.iterdir())


def test_build_stops_on_a_malformed_period_without_a_half_written_file(shared_data, tmp_path):
    document = json.loads((shared_data / "weather" / "forecasts" / "testing__LWX_95-71.forecast.json").read_text())
    document["properties"]["periods"][1]["windSpeed"] = "gale"
    bad = tmp_path / "bad.forecast.json"
    bad.write_text(json.dumps(document, indent=1))
    out = tmp_path / "out" / "instances.jsonl"
    assert run(["weather", "build", "-f", str(bad), "-o", str(out), "-q"]) == 2
    assert not out.exists()


class _NWS(BaseHTTPRequestHandler):
    """Answers like api.weather.gov, from the shared forecast files."""

    forecast_bytes = b""
    seen: list[tuple[str, str]] = []
    failures_left = 0

    def do_GET(self):  # noqa: N802 - http.server's name
        type(self).seen.append((self.path, self.headers.get("User-Agent", "")))
        if type(self).failures_left > 0:
            type(self).failures_left -= 1
            self.send_response(503)
            self.end_headers()
            return
        if self.path.startswith("/points/"):
            body = json.dumps({"properties": {"forecast": "https://api.weather.gov/gridpoints/BMX/59,84/forecast"}}).encode()
        elif self.path == "/gridpoints/BMX/59,84/forecast":
            body = type(self).forecast_bytes
        else:
            self.send_response(404)
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/geo+json")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture()
def nws_server(shared_data):
    _NWS.forecast_bytes = (shared_data / "weather" / "forecasts" / "testing__BMX_59-84.forecast.json").read_bytes()
    _NWS.seen = []
    _NWS.failures_left = 0
    server = ThreadingHTTPServer(("127.0.0.1", 0), _NWS)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_fetch_follows_points_to_the_gridpoint_forecast_with_a_user_agent(nws_server, tmp_path):
    client = NWSClient(base_url=nws_server, user_agent="factcov-tests (test@example.org)", retries=0)
    document = client.forecast(33.5186, -86.8104)
    assert len(document["properties"]["periods"]) == 14
    assert [path for path, _ in _NWS.seen] == ["/points/33.5186,-86.8104", "/gridpoints/BMX/59,84/forecast"]
    assert all(agent == "factcov-tests (test@example.org)" for _, agent in _NWS.seen)
    assert document["id"].endswith("/gridpoints/BMX/59,84/forecast")


def test_fetch_answers_from_the_cache_the_second_time(nws_server, tmp_path):
    client = NWSClient(base_url=nws_server, cache_dir=tmp_path / "cache", retries=0)
    first = client.forecast(33.5186, -86.8104)
    requests = len(_NWS.seen)
    assert client.forecast(33.5186, -86.8104) == first
    assert len(_NWS.seen) == requests == 2


def test_fetch_retries_server_errors(nws_server):
    _NWS.failures_left = 2
    client = NWSClient(base_url=nws_server, retries=2, backoff=0.01)
    assert client.forecast(33.5186, -86.8104)["properties"]["periods"]
    assert len(_NWS.seen) == 4


def test_fetch_gives_up_with_a_clear_error(nws_server):
    _NWS.failures_left = 10
    client = NWSClient(base_url=nws_server, retries=1, backoff=0.01)
    with pytest.raises(FactcovError, match="failed after 2 attempts"):
        client.forecast(33.5186, -86.8104)


def test_fetch_command_writes_a_forecast_that_build_reads_with_the_grid_point_as_source(nws_server, tmp_path):
    forecast, instances = tmp_path / "bmx.json", tmp_path / "instances.jsonl"
    assert run(["weather", "fetch", "--lat", "33.5186", "--lon", "-86.8104", "--base-url", nws_server,
                "--cache", str(tmp_path / "cache"), "-o", str(forecast)]) == 0
    assert run(["weather", "build", "-f", str(forecast), "-l", "en", "-o", str(instances), "-q"]) == 0
    ids = list(load_instances(instances, get_domain("weather")))
    assert ids[0] == "weather:BMX_59-84:1:en"


def test_build_writes_a_period_met_twice_once(shared_data, tmp_path):
    from factcov.domains.weather.building import build_instances

    forecast = shared_data / "weather" / "forecasts" / "testing__LWX_95-71.forecast.json"
    out = tmp_path / "instances.jsonl"
    counts = build_instances([forecast, forecast], ("en",), out)
    periods = len(json.loads(forecast.read_text())["properties"]["periods"])
    assert (counts.periods, counts.duplicates, counts.instances) == (periods, periods, periods)
    assert len(out.read_text().splitlines()) == periods
