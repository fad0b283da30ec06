"""Loaders of NWS forecasts: GeoJSON files, JSONL of responses and of periods, bad input."""

from __future__ import annotations

import gzip
import itertools
import json

import pytest

from factcov.domains.weather.periods import iter_file_periods, iter_periods, parse_wind_speed
from factcov.errors import InputError


def test_geojson_forecast_file_gives_every_period_with_the_file_stem_as_source(shared_data):
    path = shared_data / "weather" / "forecasts" / "e2e__BMX_59-84.forecast.json"
    periods = list(iter_file_periods(path))
    raw = json.loads(path.read_text())["properties"]["periods"]
    assert len(periods) == len(raw)
    assert [p.number for p in periods] == [r["number"] for r in raw]
    third = periods[2]
    assert third.source == "e2e__BMX_59-84"
    assert (third.temperature, third.wind_speed, third.wind_direction, third.precip_chance) == (30, (10, 15), "N", 40)


def test_response_lines_are_streamed_with_grid_and_issue_time_as_source(shared_data):
    path = shared_data / "weather" / "nws_forecast_responses_sample.jsonl.gz"
    first_line = json.loads(gzip.open(path, "rt").readline())
    periods = list(itertools.islice(iter_file_periods(path), 3))
    office, x, y = first_line["source"]["grid"].split("/")
    assert periods[0].source.startswith(f"{office}_{x}-{y}@")
    assert periods[0].source.endswith("Z") and ":" not in periods[0].source
    assert [p.number for p in periods] == [1, 2, 3]
    assert periods[0].detailed_forecast == first_line["properties"]["periods"][0]["detailedForecast"]


def test_period_lines_plain_or_gzip_read_the_same_and_are_numbered_within_their_issue(shared_data, tmp_path):
    source = shared_data / "weather" / "nws_periods.jsonl.gz"
    lines = list(itertools.islice(gzip.open(source, "rt"), 300))
    plain = tmp_path / "periods.jsonl"
    plain.write_text("".join(lines))
    from_plain = list(iter_file_periods(plain))
    from_gzip = list(itertools.islice(iter_file_periods(source), 300))
    assert [(p.source, p.number, p.detailed_forecast) for p in from_plain] == [
        (p.source, p.number, p.detailed_forecast) for p in from_gzip
    ]
    keys = [p.instance_key for p in from_plain]
    assert len(keys) == len(set(keys))


def test_a_directory_reads_every_forecast_file_in_name_order(shared_data):
    folder = shared_data / "weather" / "forecasts"
    files = sorted(p for p in folder.iterdir() if p.name.endswith(".json"))
    sources = list(dict.fromkeys(p.source for p in iter_periods([folder])))
    assert sources == [p.name.removesuffix(".forecast.json") for p in files]


def test_wind_speed_forms():
    assert parse_wind_speed("5 to 10 mph") == (5, 10)
    assert parse_wind_speed("10 mph") == (10, 10)
    assert parse_wind_speed("20 km/h") == (12.43, 12.43)
    assert parse_wind_speed("breezy") is None


def _bad_period_file(tmp_path, shared_data, field, value):
    path = shared_data / "weather" / "nws_periods.jsonl.gz"
    lines = [json.loads(line) for line in itertools.islice(gzip.open(path, "rt"), 3)]
    lines[1][field] = value
    out = tmp_path / "bad.jsonl"
    out.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    return out


@pytest.mark.parametrize(
    ("field", "value"),
    [("temperature", "hot"), ("windSpeed", "fast"), ("windDirection", "NORTHISH"), ("detailedForecast", 12)],
)
def test_a_malformed_period_line_names_file_line_and_field(tmp_path, shared_data, field, value):
    bad = _bad_period_file(tmp_path, shared_data, field, value)
    with pytest.raises(InputError) as caught:
        list(iter_file_periods(bad))
    assert (caught.value.path, caught.value.line, caught.value.field) == (str(bad), 2, field)


def test_a_malformed_period_in_a_geojson_file_names_its_index(tmp_path, shared_data):
    document = json.loads((shared_data / "weather" / "forecasts" / "testing__SEW_96-55.forecast.json").read_text())
    document["properties"]["periods"][4]["probabilityOfPrecipitation"] = {"value": 140}
    bad = tmp_path / "bad.forecast.json"
    bad.write_text(json.dumps(document, indent=1))
    with pytest.raises(InputError) as caught:
        list(iter_file_periods(bad))
    assert caught.value.field == "properties.periods.4.probabilityOfPrecipitation.value"
    assert "bad.forecast.json" in str(caught.value)


def test_a_response_without_periods_is_an_input_error(tmp_path):
    bad = tmp_path / "responses.jsonl"
    bad.write_text(json.dumps({"properties": {"updated": "x"}}) + "\n")
    with pytest.raises(InputError, match="properties.periods"):
        list(iter_file_periods(bad))


def test_a_missing_path_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        list(iter_periods([tmp_path / "nope.json"]))
