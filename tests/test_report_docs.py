"""docs/report.md runs: every `$ factcov …` line and every Python block, in order, in an empty folder."""

from __future__ import annotations

import re
import shlex

import pytest

from factcov.cli.app import run as cli

BLOCK = re.compile(r"```(console|python)\n(.*?)```", re.S)


def doc_steps(text: str) -> list[tuple[str, str]]:
    steps = []
    for kind, body in BLOCK.findall(text):
        if kind == "python":
            steps.append(("python", body))
        else:
            steps.extend(("console", line[2:]) for line in body.splitlines() if line.startswith("$ factcov "))
    return steps


@pytest.mark.slow
def test_the_report_page_examples_run(repo_root, shared_data, tmp_path, monkeypatch, capsys):
    pytest.importorskip("factcov.domains.rag.webnlg", reason="the rag domain's WebNLG reader")
    steps = doc_steps((repo_root / "docs" / "report.md").read_text(encoding="utf-8"))
    assert sum(kind == "console" for kind, _ in steps) >= 10
    monkeypatch.chdir(tmp_path)
    for kind, step in steps:
        step = step.replace("../shared/data", str(shared_data))
        if kind == "python":
            exec(compile(step, "docs/report.md", "exec"), {})
            continue
        argv = shlex.split(step)[1:]
        code = cli(argv)
        captured = capsys.readouterr()
        assert code == 0, f"`{step}` exited {code}:\n{captured.err}"
    assert (tmp_path / "weather.html").stat().st_size > 10_000
    assert (tmp_path / "webnlg" / "scores.parquet").is_file()
