"""Instance files as data (issue 29): read_instances, facts_frame, `factcov export facts`, and
the format-2 documentation in docs/cli.md."""

from __future__ import annotations

import io
import json
import re

import pandas as pd
import pytest

from factcov import api
from factcov.cli.app import run as cli
from factcov.instance_files import InstanceWriter

DEMO = "domains/f1/demo_instances.jsonl.gz"


@pytest.fixture
def demo_instances(repo_root):
    return api.read_instances(repo_root / DEMO)


@pytest.fixture
def format_2(tmp_path, demo_instances):
    """The demo races written as `f1 build` writes them: a header, race blocks, references."""
    buffer = io.StringIO()
    writer = InstanceWriter(buffer, shared=("race",))
    for instance in demo_instances:
        writer.write(instance)
    path = tmp_path / "f1.jsonl"
    path.write_text(buffer.getvalue(), encoding="utf-8")
    return path


def test_a_format_2_file_is_not_one_instance_per_line_and_reads_back_whole(format_2, demo_instances):
    lines = [json.loads(line) for line in format_2.read_text(encoding="utf-8").splitlines()]
    assert "domain" not in lines[0] and "domain" not in lines[1]  # the header, then a block
    assert any("$block" in json.dumps(line) for line in lines)
    assert api.read_instances(format_2) == demo_instances


def test_facts_frame_has_one_row_per_fact_with_its_instance(format_2, demo_instances):
    frame = api.facts_frame(format_2)
    assert len(frame) == sum(len(i.facts) for i in demo_instances) > 0
    assert list(frame.columns[:8]) == ["instance_id", "domain", "task", "language", "split", "fact_type",
                                      "fact_id", "key"]
    first, fact = demo_instances[0], demo_instances[0].facts[1]
    row = frame[(frame["instance_id"] == first.id) & (frame["fact_id"] == fact.id)].iloc[0]
    assert (row["task"], row["language"], row["split"], row["fact_type"]) == (first.task, first.language,
                                                                             first.split, fact.type)
    assert json.loads(row["key"]) == fact.key and json.loads(row["value"]) == fact.value
    assert row["value_number"] == fact.value
    assert api.facts_frame(demo_instances).equals(frame)


@pytest.mark.parametrize("suffix", ["parquet", "csv"])
def test_export_facts_writes_the_table(tmp_path, format_2, suffix, capsys):
    out = tmp_path / f"facts.{suffix}"
    assert cli(["export", "facts", "-i", str(format_2), "-o", str(out)]) == 0
    written = pd.read_parquet(out) if suffix == "parquet" else pd.read_csv(out)
    frame = api.facts_frame(format_2)
    assert len(written) == len(frame) and list(written.columns) == list(frame.columns)
    assert written["fact_id"].tolist() == frame["fact_id"].tolist()
    assert f"{len(frame)} facts" in capsys.readouterr().err


def test_export_facts_refuses_an_unknown_format_and_keeps_an_existing_file(tmp_path, format_2, capsys):
    assert cli(["export", "facts", "-i", str(format_2), "-o", str(tmp_path / "facts.xlsx")]) == 2
    assert "--out" in capsys.readouterr().err
    empty = tmp_path / "empty.jsonl"
    empty.write_text('{"factcov_instances":2}\n', encoding="utf-8")
    keep = tmp_path / "keep.csv"
    keep.write_text("precious\n", encoding="utf-8")
    assert cli(["export", "facts", "-i", str(empty), "-o", str(keep)]) == 2
    assert keep.read_text(encoding="utf-8") == "precious\n"


def test_cli_docs_describe_what_the_writer_writes(repo_root, format_2):
    doc = (repo_root / "docs" / "cli.md").read_text(encoding="utf-8")
    section = doc[doc.index("### Input formats"):]
    header = format_2.read_text(encoding="utf-8").splitlines()[0]
    assert header in section and '"$block"' in section and '"block"' in section


def test_the_api_docs_example_prints_what_they_say(repo_root, capsys, monkeypatch):
    monkeypatch.chdir(repo_root)
    doc = (repo_root / "docs" / "api.md").read_text(encoding="utf-8")
    example = next(b for b in re.findall(r"```python\n(.*?)\n```", doc, flags=re.S) if "read_instances" in b)
    said = re.search(re.escape(example) + r"\n```\s*\nprints\s*\n\s*```\n(.*?)\n```", doc, flags=re.S).group(1)
    exec(compile(example, "docs/api.md", "exec"), {})
    assert capsys.readouterr().out.rstrip("\n") == said
