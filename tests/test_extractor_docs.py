"""docs/extractors.md: the TableExtractor and "How to add a rule" examples print what the page says they print."""

from __future__ import annotations

import re


def test_the_table_extractor_example_prints_what_the_docs_say(repo_root, capsys):
    doc = (repo_root / "docs" / "extractors.md").read_text(encoding="utf-8")
    example, said = re.search(r"```python\n(.*?class MatchExtractor.*?)\n```\s*\nprints\s*\n```\n(.*?)\n```", doc,
                              flags=re.S).groups()
    exec(compile(example, "docs/extractors.md", "exec"), {})
    assert capsys.readouterr().out.strip() == said.strip()


def test_the_add_a_rule_example_reads_the_new_phrasing_only_where_it_is_gated_in(repo_root, capsys):
    doc = (repo_root / "docs" / "extractors.md").read_text(encoding="utf-8")
    example, said = re.search(r"```python\n((?:(?!```).)*class PodiumReader(?:(?!```).)*)\n```\s*\nprints\s*\n```\n(.*?)\n```", doc,
                              flags=re.S).groups()
    written = example[example.index("@dataclasses.dataclass"):example.index("instance =")].strip().splitlines()
    assert len([line for line in written if line.strip()]) < 20  # the grammar's new field and its rule (issue 28)
    scope: dict[str, object] = {}
    exec(compile(example, "docs/extractors.md", "exec"), scope)
    assert capsys.readouterr().out.strip() == said.strip()
    # the rule's anchors are its own: a text without the phrasing never wakes it
    woken, reader = scope["woken"], scope["PodiumReader"]
    woken.clear()  # type: ignore[attr-defined]
    instance = scope["instance"]
    quiet = reader("f1-regex", reader.lexicon_for("en"), "Verstappen won. Hamilton was second.",  # type: ignore[attr-defined]
                   instance.context)  # type: ignore[attr-defined]
    assert ("winner", "VER") in [(claim.type, claim.value) for claim in quiet.read()]
    assert woken == []
    assert reader.rule_book.names.index("top_steps") == 5  # type: ignore[attr-defined]  # after winners_and_positions
