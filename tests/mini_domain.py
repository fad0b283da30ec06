"""A deliberately tiny domain that isolates the core's mechanics from any real domain.

Texts are sentences such as "apples: 3." or "apples are red." or "window 2-5.";
its plugin is registered by tests through ``factcov.plugins.register_plugin``.
"""

from __future__ import annotations

import re

from factcov import hookimpl
from factcov.comparators import Exact, NumericTolerance, RangeContainment
from factcov.domain import Domain
from factcov.extractor import Extractor
from factcov.model import Claim, ClaimType, Instance

CLAIM_TYPES = (
    ClaimType(name="count", description="how many of an item", key_slots=("item",), value_kind="int",
              comparator=NumericTolerance(abs_tol=0), templates={"en": "{item}: {value}."}),
    ClaimType(name="colour", description="an item's colour", key_slots=("item",), value_kind="str",
              comparator=Exact(), choices=("red", "green", "blue"), templates={"en": "{item} are {value}."}),
    ClaimType(name="window", description="a window of days", key_slots=(), value_kind="range",
              comparator=RangeContainment(), templates={"en": "window {value}."}),
    ClaimType(name="note", description="free remark (open world)", key_slots=("item",), value_kind="str",
              closed_world=False, templates={"en": "{item} note {value}."}),
)


class MiniDomain(Domain):
    name = "mini"
    description = "tiny test domain"
    version = "9.9.9"
    languages = ("en",)
    tasks = ("count", "colour")
    claim_types = CLAIM_TYPES
    default_extractor = "mini-regex"

    def realize_fact(self, fact, language):
        if fact.type == "window":
            return f"window {fact.value[0]}-{fact.value[1]}."
        return super().realize_fact(fact, language)


class MiniExtractor(Extractor):
    name = "mini-regex"
    description = "reads the mini domain's sentences"
    domains = ("mini",)
    languages = ("en",)
    _count = re.compile(r"\b(\w+): (\d+)\.")
    _colour = re.compile(r"\b(\w+) are (\w+)\.")
    _window = re.compile(r"window (\d+)(?:-(\d+))?\.")
    _note = re.compile(r"\b(\w+) note (\w+)\.")
    _tomorrow = re.compile(r"\b(\w+) tomorrow: (\d+)\.")
    option_types = {"min_count": int}

    def extract(self, text: str, instance: Instance) -> list[Claim]:
        claims = []
        for m in self._count.finditer(text):
            if m[1] == "tomorrow" or int(m[2]) < int(self.options.get("min_count", 0)):  # type: ignore[call-overload]
                continue
            claims.append(Claim(type="count", key={"item": m[1]}, value=int(m[2]), span=m.span(), text=m[0], extractor=self.name))
        for m in self._tomorrow.finditer(text):
            claims.append(Claim(type="count", key={"item": m[1]}, value=int(m[2]), span=m.span(2), text=m[0],
                                statement_span=m.span(), out_of_scope="tomorrow: the data ends today",
                                extractor=self.name))
        for m in self._colour.finditer(text):
            claims.append(Claim(type="colour", key={"item": m[1]}, value=m[2], span=m.span(), text=m[0], extractor=self.name))
        for m in self._window.finditer(text):
            value = [int(m[1]), int(m[2] or m[1])]
            claims.append(Claim(type="window", value=value, span=m.span(), text=m[0], extractor=self.name))
        for m in self._note.finditer(text):
            claims.append(Claim(type="note", key={"item": m[1]}, value=m[2], span=m.span(), text=m[0], extractor=self.name))
        return sorted(claims, key=lambda c: c.span)


@hookimpl
def register_domains(register):
    register(MiniDomain)


@hookimpl
def register_extractors(register):
    register(MiniExtractor)
