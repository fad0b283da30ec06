"""docs/domains/rag.md: its example file, command and result table are the real ones."""

import re
import shlex

import pandas as pd

from factcov.cli.app import run


def doc(repo_root) -> str:
    return (repo_root / "docs" / "domains" / "rag.md").read_text(encoding="utf-8")


def test_doc_example_block_is_the_example_file(repo_root):
    match = re.search(r"```jsonl file=(\S+)\n(.*?)\n```", doc(repo_root), re.S)
    assert match, "the doc must include the example file in a ```jsonl file=PATH block"
    assert (repo_root / match.group(1)).read_text(encoding="utf-8").strip() == match.group(2).strip()


def test_doc_command_reproduces_the_doc_table(repo_root, tmp_path, monkeypatch):
    text = doc(repo_root)
    command = re.search(r"\$ (factcov rag score -i domains/rag/museum\.jsonl -o (\S+))", text)
    assert command
    monkeypatch.chdir(repo_root)
    argv = shlex.split(command.group(1))[1:]
    argv[argv.index(command.group(2))] = str(tmp_path / "out")
    assert run(argv) == 0
    computed = pd.read_parquet(tmp_path / "out" / "scores.parquet").set_index("instance_id")
    header = next(line for line in text.splitlines() if line.startswith("| answer | unit_precision |"))
    columns = [c.strip() for c in header.strip("|").split("|")]
    rows = [line for line in text.splitlines() if re.match(r"\| (complete|embellished|fragment|outdated|off-topic|empty) \|", line)]
    assert len(rows) == len(computed)
    for line in rows:
        cells = dict(zip(columns, (c.strip() for c in line.strip("|").split("|"))))
        answer = cells.pop("answer")
        for name, shown in cells.items():
            value = computed.loc[answer, name]
            if name == "hallucinated_entities":
                assert shown == "; ".join(value), (answer, name)
            elif shown == "—":
                assert pd.isna(value), (answer, name)
            else:
                assert f"{value:.2f}" == shown, (answer, name, value)
