"""The README as a new user meets it: its snippet prints what it says, and its commands are
the ones CI runs (.ci/run), both pandas majors included."""

from __future__ import annotations

import re
from pathlib import Path


def _bash_blocks(repo_root: Path) -> list[str]:
    return [b.strip() for b in re.findall(r"```bash\n(.*?)\n```", (repo_root / "README.md").read_text(), flags=re.S)]


def test_ci_runs_the_readme_test_commands(repo_root):
    blocks = _bash_blocks(repo_root)
    assert len(blocks) >= 3, "README shows the demo, the test command and the pandas-3 test command"
    ci = (repo_root / ".ci" / "run").read_text().splitlines()
    for command in blocks[1:3]:
        assert "pytest" in command and command in ci, command


def test_ci_tests_pandas_3_and_the_readme_says_so(repo_root):
    readme = (repo_root / "README.md").read_text()
    assert "pandas 3" in readme and "pandas 2.3" in readme
    ci = (repo_root / ".ci" / "run").read_text()
    pandas3 = _bash_blocks(repo_root)[2]
    assert "[all" not in pandas3 and "fastf1" not in pandas3  # the extra that pins pandas<3 stays out
    assert ci.index(pandas3) < ci.index("expected pandas 3")  # and CI checks it got pandas 3


def test_readme_python_example_prints_what_the_readme_says(repo_root, capsys):
    readme = (repo_root / "README.md").read_text()
    code = re.search(r"```python\n(.*?)\n```", readme, flags=re.S).group(1)
    said = re.search(r"```python\n.*?\n```\s*\n\s*prints `([^`]+)`", readme, flags=re.S).group(1)
    exec(compile(code, "README.md", "exec"), {})
    assert capsys.readouterr().out.strip() == said
