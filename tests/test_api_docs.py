"""docs/api.md: its in-memory example prints what it says; `score --format json` is the summary."""

from __future__ import annotations

import json
import re

import pytest

from factcov.cli.app import run
from tests.test_compare import mini_generations, mini_instances


def test_the_in_memory_example_prints_what_the_docs_say(repo_root, capsys):
    doc = (repo_root / "docs" / "api.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)\n```", doc, flags=re.S)
    example = next(b for b in blocks if "score_texts" in b)
    said = re.search(re.escape(example) + r"\n```\s*\n\s*prints `([^`]+)`", doc).group(1)
    exec(compile(example, "docs/api.md", "exec"), {})
    assert capsys.readouterr().out.strip() == said


@pytest.mark.slow
def test_score_format_json_prints_the_summary_on_stdout(tmp_path, mini_plugin, capsys):
    instances, generations = tmp_path / "i.jsonl", tmp_path / "g.jsonl"
    instances.write_text("".join(json.dumps(r) + "\n" for r in mini_instances()), encoding="utf-8")
    generations.write_text("".join(json.dumps(r) + "\n" for r in mini_generations()), encoding="utf-8")
    capsys.readouterr()
    assert run(["score", "-d", "mini", "-i", str(instances), "-g", str(generations), "-o", str(tmp_path / "out"),
                "--no-report", "--format", "json"]) == 0
    out = capsys.readouterr().out
    assert json.loads(out) == json.loads((tmp_path / "out" / "summary.json").read_text(encoding="utf-8"))
    assert {s["system"] for s in json.loads(out)["systems"]} == {"complete", "terse", "hostile"}
    assert run(["score", "-d", "mini", "-i", str(instances), "-g", str(generations), "-o", str(tmp_path / "o2"),
                "--format", "yaml"]) == 2
