"""A JSON line is decoded by the scanner directly (``jsonl._decode``) with the result and
every error of the decoder's own ``decode``."""

from __future__ import annotations

import json

import pytest

from factcov.jsonl import _DECODER, _decode

LINES = [
    '{"a": 1}\n', '{"a": 1}\r\n', '{"a": 1}', '{"a": 1}\r', '  {"a": 1}\n', '{"a": 1}  \n', '{"a": 1}\n\n',
    '{"a": 1}\t\n', '{"a": 1} x\n', '{"a": 1}{"b": 2}\n', '{"a": 1}\x0b\n', '{"a": 1}\u00a0\n', '', '\n',
    '{"a": NaN}\n', '{"a": Infinity}\n', '{"a": 1e999}\n', '{"a": ' + "9" * 400 + '}\n', '{"a": [1, 2.5, "é"]}\n',
    '{"a": "\\ud800"}\n', '{"a": 1,}\n', '[1, 2]\n', '"text"\n', '3\n', '{"a": {"b": {"c": null}}}\n', '{"a"\n',
]


@pytest.mark.parametrize("line", LINES)
def test_decode_answers_as_the_decoder_does(line):
    try:
        expected = _DECODER.decode(line)
    except (ValueError, json.JSONDecodeError) as exc:  # JSONDecodeError is a ValueError
        with pytest.raises(type(exc)) as raised:
            _decode(line)
        assert str(raised.value) == str(exc)
    else:
        assert _decode(line) == expected
