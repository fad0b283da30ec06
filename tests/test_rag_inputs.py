"""Bad answer files are errors naming the file, the line and the field."""

import json

import pytest

from factcov.domains.rag.inputs import iter_answers
from factcov.errors import InputError


def write(tmp_path, *lines):
    path = tmp_path / "answers.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    return path


GOOD = {"id": "a1", "answer": "The museum opens at 10 am.", "contexts": [{"id": "c1", "text": "Opens at 10 am."}]}


def load(path):
    return list(iter_answers(path))


def test_a_valid_line_loads_with_defaults(tmp_path):
    (answer,) = load(write(tmp_path, GOOD))
    assert answer.contexts[0].retrieved is True and answer.contexts[0].relevant is None
    assert answer.citations == [] and answer.required_facts == []


@pytest.mark.parametrize(
    ("line", "field"),
    [
        ({"id": "a2"}, "answer"),
        ({**GOOD, "id": "a2", "contexts": [{"id": "c1"}]}, "contexts.0.text"),
        ({**GOOD, "id": "a2", "citations": [{"context_id": "c9", "sentence": 0}]}, "citations.0.context_id"),
        ({**GOOD, "id": "a2", "citations": [{"context_id": "c1"}]}, "citations.0"),
        ({**GOOD, "id": "a2", "citations": [{"context_id": "c1", "sentence": -1}]}, "citations.0.sentence"),
        ({**GOOD, "id": "a2", "contexts": [GOOD["contexts"][0], GOOD["contexts"][0]]}, "contexts.1.id"),
        ({**GOOD, "id": "a2", "answr": "typo"}, "answr"),
        ({**GOOD}, "id"),
    ],
)
def test_errors_name_file_line_and_field(tmp_path, line, field):
    path = write(tmp_path, GOOD, line)
    with pytest.raises(InputError) as caught:
        load(path)
    assert caught.value.line == 2
    assert caught.value.field == field
    assert str(path) in str(caught.value)
