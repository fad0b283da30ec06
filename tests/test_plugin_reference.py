"""docs/plugin-reference.md against the code: every field, method, kind, hook and error."""

from __future__ import annotations

import inspect
import re
import typing

import pytest

from factcov import comparators, errors, hookspecs
from factcov.domain import Domain
from factcov.extractor import Extractor
from factcov.extractors.patterns import TableExtractor
from factcov.model import ClaimType


@pytest.fixture(scope="module")
def doc(repo_root) -> str:
    return (repo_root / "docs" / "plugin-reference.md").read_text(encoding="utf-8")


def section(doc: str, title: str) -> list[list[str]]:
    """Rows (cells) of the table in the section whose heading starts with ``title``."""
    match = re.search(rf"^## {re.escape(title)}.*?$(.*?)(?=^## |\Z)", doc, re.M | re.S)
    assert match, f"docs/plugin-reference.md has no section '{title}'"
    rows = [line for line in match.group(1).splitlines() if line.startswith("| ")]
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows[1:]]  # header off


def names(rows: list[list[str]], column: int = 0) -> list[str]:
    """The first `code` of a column, without a call's arguments."""
    return [re.match(r"`([\w.]+)", row[column]).group(1) for row in rows if row[column].startswith("`")]


def test_every_claim_type_field_is_documented_with_its_default(doc):
    rows = section(doc, "ClaimType")
    assert names(rows) == list(ClaimType.model_fields)
    for row in rows:
        field = ClaimType.model_fields[names([row])[0]]
        if field.is_required():
            assert row[2] == "required", row
        elif isinstance(field.default_factory, type) and field.default_factory not in (dict, list, tuple):
            assert row[2] == f"`{field.default_factory.__name__}()`", row  # a comparator
        elif field.default_factory is not None:
            assert row[2] == f"`{field.default_factory()!r}`", row
        else:
            assert row[2] == f"`{field.default!r}`".replace("'", '"'), row


def test_every_value_kind_is_documented(doc):
    kinds = typing.get_args(ClaimType.model_fields["value_kind"].annotation)
    assert tuple(names(section(doc, "Value kinds"))) == kinds


def test_every_comparator_is_documented_with_its_fields(doc):
    rows = section(doc, "Comparators")
    classes = {  # the core's own; a domain may define more (weather's wind_range)
        cls.model_fields["kind"].default: cls for cls in comparators.Comparator.__subclasses__()
        if cls.__module__ == comparators.__name__
    }
    assert names(rows) == list(classes)
    for row in rows:
        cls = classes[names([row])[0]]
        assert row[1] == f"`{cls.__name__}`"
        documented = re.findall(r"`(\w+)` \(([^)]*)\)", row[2])
        fields = {k: f for k, f in cls.model_fields.items() if k != "kind"}
        assert [name for name, _ in documented] == list(fields), row
        for name, default in documented:
            assert default == repr(fields[name].default), (cls, name)


def public_members(cls: type) -> list[str]:
    members = {n for n in vars(cls) if not n.startswith("_")} | set(cls.__annotations__)
    return sorted(m for m in members if not m.startswith("_"))


@pytest.mark.parametrize(("title", "cls"), [("Extractor", Extractor), ("Domain", Domain),
                                           ("TableExtractor", TableExtractor)])
def test_every_public_member_is_documented(doc, title, cls):
    rows = section(doc, title)
    assert sorted(names(rows)) == public_members(cls)
    for row in rows:
        name = names([row])[0]
        member = getattr(cls, name, None)
        if callable(member):  # the documented call shows the parameters in order
            params = [p for p in inspect.signature(member).parameters if p != "self"]
            assert row[0] == f"`{name}({', '.join(params)})`", row
            assert row[1] == "method", row
        elif name in vars(cls) and row[2] != "required":
            assert row[2] == f"`{vars(cls)[name]!r}`".replace("'", '"'), row
        else:
            assert row[2] == "required" and name not in vars(cls), row


def test_every_hook_is_documented(doc):
    rows = section(doc, "Hooks")
    specs = sorted(n for n, f in vars(hookspecs).items() if callable(f) and hasattr(f, "factcov_spec"))
    assert sorted(names(rows)) == specs
    for row in rows:
        params = list(inspect.signature(getattr(hookspecs, names([row])[0])).parameters)
        assert row[1] == ", ".join(f"`{p}`" for p in params)


def test_every_error_is_documented_with_its_exit_code(doc):
    rows = section(doc, "Commands and errors")
    classes = {n: c for n, c in vars(errors).items() if inspect.isclass(c) and issubclass(c, errors.FactcovError)}
    assert sorted(names(rows)) == sorted(classes)
    for row in rows:
        assert int(row[1]) == classes[names([row])[0]].exit_code, row


def test_every_building_block_is_documented_with_its_parameters(doc):
    import importlib

    rows = section(doc, "Building blocks")
    documented = set()
    for row in rows:
        name, params = re.fullmatch(r"`(\w+)\(([^)]*)\)`", row[0]).groups()
        module = importlib.import_module(row[1].strip("`"))
        actual = [p for p in inspect.signature(getattr(module, name)).parameters if p != "self"]
        assert (params.split(", ") if params else []) == actual, row
        documented.add(name)
    from factcov.extractors import patterns

    own = {n for n, o in vars(patterns).items() if not n.startswith("_") and callable(o)
           and getattr(o, "__module__", "") == patterns.__name__ and n != "TableExtractor"}
    assert own <= documented, f"undocumented building blocks: {sorted(own - documented)}"
