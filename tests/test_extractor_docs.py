"""docs/extractors.md: the TableExtractor example prints what the page says it prints."""

from __future__ import annotations

import re


def test_the_table_extractor_example_prints_what_the_docs_say(repo_root, capsys):
    doc = (repo_root / "docs" / "extractors.md").read_text(encoding="utf-8")
    example, said = re.search(r"```python\n(.*?class MatchExtractor.*?)\n```\s*\nprints\s*\n```\n(.*?)\n```", doc,
                              flags=re.S).groups()
    exec(compile(example, "docs/extractors.md", "exec"), {})
    assert capsys.readouterr().out.strip() == said.strip()
