"""What the generations of a scoring run say about how they were made (``factcov generate``'s meta).

``factcov generate`` records in each generation's ``meta`` the prompt variant it asked
with (``prompt``) and whether the answer was cut off at ``--max-tokens``
(``truncated``). A scoring run reads them as the generations stream past (nothing per
generation is kept) and writes, only when some generation carries them:

- the prompt variants in the run signature (``...|prompt:neutral``): two runs of one
  model with the paper's two prompts are told apart wherever the signature is shown;
- per system, its prompt variant(s) and its truncated answers (``summary.json``
  ``generations``), shown by the report and by ``factcov compare``.

Generations without that meta (written by hand or by another tool) leave the signature
and the summary as they were.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from factcov.model import Generation, Instance

PROMPT_PART = "|prompt:"
# a signature field's separators ("|", ",") and control characters never come from a user's meta
_UNSAFE = re.compile(r"[|,\s]")


@dataclass
class _System:
    prompts: set[str] = field(default_factory=set)
    truncated: int = 0
    generations: int = 0


@dataclass
class Provenance:
    """Per system: the prompt variants and truncated answers seen in the generations' meta."""

    systems: dict[str, _System] = field(default_factory=dict)

    def watch(self, pairs: Iterable[tuple[Instance, Generation]]) -> Iterator[tuple[Instance, Generation]]:
        """``pairs`` passed through unchanged, their generations' meta noted on the way."""
        for pair in pairs:
            meta = pair[1].meta
            if isinstance(meta, dict) and ("prompt" in meta or "truncated" in meta):
                self._note(pair[1].system, meta)
            yield pair

    def _note(self, system: str, meta: dict[str, Any]) -> None:
        seen = self.systems.setdefault(system, _System())
        seen.generations += 1
        if isinstance(meta.get("prompt"), str) and meta["prompt"]:
            seen.prompts.add(_UNSAFE.sub("_", meta["prompt"]))
        seen.truncated += meta.get("truncated") is True

    def prompts(self) -> list[str]:
        return sorted(set().union(*(s.prompts for s in self.systems.values())))

    def signature(self, scoring: str) -> str:
        """The scoring signature, with the prompt variants when generations recorded any."""
        prompts = self.prompts()
        return scoring + (PROMPT_PART + ",".join(prompts) if prompts else "")

    def summary(self, scoring: str) -> dict[str, Any]:
        """The summary's ``signature`` and, when some generation has meta of generate, ``generations``."""
        out: dict[str, Any] = {"signature": self.signature(scoring)}
        if self.systems:
            out["generations"] = {name: {"prompt": sorted(s.prompts), "truncated": s.truncated,
                                         "with_meta": s.generations}
                                  for name, s in sorted(self.systems.items())}
        return out


def watch_provenance(pairs: Iterable[tuple[Instance, Generation]]) -> tuple[Iterator[tuple[Instance, Generation]],
                                                                              Provenance]:
    provenance = Provenance()
    return provenance.watch(pairs), provenance


def split_signature(signature: str) -> tuple[str, list[str]]:
    """(the scoring part, the prompt variants) of a run signature."""
    scoring, _, prompts = signature.partition(PROMPT_PART)
    return scoring, [p for p in prompts.split(",") if p]
