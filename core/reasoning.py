"""Reasoning models' thinking, kept apart from the text that is scored.

DeepSeek-R1, Qwen3 and others (served by vLLM, Ollama, llama.cpp) either put their thinking
in ``<think>…</think>`` at the start of the message content or return it separately as
``reasoning_content``. Scored as text, thinking would count as claims the model never made
in its answer; so it is split off here, kept in the generation's meta only when asked
(``--keep-reasoning``), and never scored.
"""

from __future__ import annotations

import re

# One or more thinking blocks; an unclosed one (the answer was cut off while thinking) runs to the end.
_THINK = re.compile(r"<think(?:ing)?>(.*?)(?:</think(?:ing)?>|\Z)", flags=re.S | re.I)


def split_reasoning(content: str, separate: str | None = None) -> tuple[str, str | None]:
    """(the answer without thinking, the thinking or None)."""
    parts = [separate.strip()] if separate and separate.strip() else []
    parts += [m.group(1).strip() for m in _THINK.finditer(content) if m.group(1).strip()]
    text = _THINK.sub("", content).strip()
    # A closing tag without its opening one: servers that put the opening tag in the prompt template.
    if "</think>" in text:
        before, _, text = text.rpartition("</think>")
        parts.append(before.strip())
        text = text.strip()
    return text, "\n\n".join(p for p in parts if p) or None
