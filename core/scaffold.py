"""`factcov new-domain NAME`: a domain plugin package that installs and passes its own tests.

The package is a working slot-style domain (an inventory of items with a count and a
colour each) in the layout of factcov's own domains and docs/adding-a-domain.md:
``claims.py`` (claim types), ``oracle.py``, ``realizer.py``, ``extractor.py`` (a table of
patterns on ``factcov.extractors.patterns``), ``domain.py`` (with ``knowledge()``),
``demo.py`` (example instances), ``commands.py`` (``factcov NAME stats``) and
``plugin.py``, a few example instances, and tests that call
``factcov.testing.check_domain``. Authors replace the inventory with their own data.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from factcov.errors import InputError

NAME_PATTERN = re.compile(r"[a-z][a-z0-9_]{1,30}")

PYPROJECT = '''[build-system]
requires = ["setuptools>=68"]
build-backend = "setuptools.build_meta"

[project]
name = "factcov-{dist}"
version = "0.1.0"
description = "factcov domain plugin: {name}."
readme = "README.md"
requires-python = ">=3.11"
dependencies = ["factcov"]

# factcov loads every module named in the entry-point group `factcov`.
[project.entry-points.factcov]
{name} = "{package}.plugin"

[tool.setuptools]
# data/ is a package too (a folder Python can import), listed so setuptools ships it quietly.
packages = ["{package}", "{package}.data"]

[tool.setuptools.package-data]
{package} = ["data/*.jsonl"]

[tool.ruff]
line-length = 120

[tool.ruff.lint.isort]
known-first-party = ["{package}"]
'''

README = '''# factcov-{dist}

The `{name}` domain for [factcov](https://github.com/factcov/factcov): texts about an
inventory (items, each with a count and a colour) scored for precision against the
inventory's data and for recall against every fact it holds. It was written by
`factcov new-domain {name}` as a working starting point: it installs, passes its own tests
and scores its demo as it is; you then make it about your own data.

```bash
pip install -e .              # editable: your edits count without reinstalling
factcov domains               # {name}: count, colour; {name}-patterns (default)
python -m pytest tests        # the contract tests (check_domain) and the extractor's
factcov demo {name}           # complete, terse and noisy systems scored
factcov {name} stats -i {package}/data/instances.jsonl   # the domain's own command
```

## The files, one job each (the layout of factcov's own domains)

| file | what it holds | make it yours |
|---|---|---|
| `claims.py` | the claim types: what a text can assert, key slots, value kind, comparator | your facts' kinds |
| `oracle.py` | `facts_of(context)`: every fact of an instance, from its data | read your data |
| `realizer.py` | `realize(facts, language, instance)`: a text stating exactly those facts | your domain's prose |
| `extractor.py` | a `TableExtractor`: patterns per claim type, `read()` turns a match into a claim | how people write |
| `domain.py` | the `Domain`: ties them together; `knowledge()`, what claims are checked against | |
| `demo.py` | the example instances and the demo's systems | your instances |
| `commands.py` | `factcov {name} ...`: the domain's own commands (here `stats`) | a builder for your data |
| `plugin.py` | the hooks the entry point names: what factcov registers | |

## Several facts with the same key

A player scores several goals, a driver makes several pit stops: facts with the same
type and the same visible key. Give the claim type a hidden index slot
(`key_slots=("player", "goal")`, the oracle numbering the goals 1, 2, ...) and let the
extractor leave it out when the text does not say which one ("Hale scored in the 23rd
minute" reads as `{{"player": "Hale"}}`). A claim with a partial key is checked against
every fact whose key contains it (supported if one has its value) and covers the first
not yet covered, so saying one goal twice never covers two. factcov's f1 domain does
this with `pit_lap` (`key_slots=("driver", "stop")`).

## The instance inside `read()`

`read(self, claim_type, match, item, instance)` gets the instance as a fourth argument
when it names it (a three-argument `read` works too): look up what the text names in
`instance.context`, as `lexicon(instance)` does.

See factcov's docs/adding-a-domain.md (the tutorial) and docs/plugin-reference.md.
'''

CLAIMS = '''"""What a text about an inventory can assert: one ClaimType per kind of fact."""

from factcov.comparators import Exact, NumericTolerance
from factcov.model import ClaimType

COLOURS = ("red", "green", "blue", "yellow")

CLAIM_TYPES = (
    ClaimType(
        name="count", description="How many of an item there are.", key_slots=("item",), value_kind="int",
        comparator=NumericTolerance(abs_tol=0), templates={{"en": "There are {{value}} {{item}}."}},
    ),
    ClaimType(
        name="colour", description="The colour of an item.", key_slots=("item",), value_kind="str",
        comparator=Exact(), choices=COLOURS, templates={{"en": "The {{item}} are {{value}}."}},
    ),
)
'''

ORACLE = '''"""The oracle: every fact of an instance, from the data in its context."""

from factcov.model import Fact


def facts_of(context: dict) -> list[Fact]:
    """One count and one colour fact per item of the inventory."""
    facts = []
    for row in context["items"]:
        facts.append(Fact(type="count", key={{"item": row["item"]}}, value=row["count"]))
        facts.append(Fact(type="colour", key={{"item": row["item"]}}, value=row["colour"]))
    return facts
'''

REALIZER = '''"""The realizer: a text stating exactly the facts it is given (the demo's systems and
check_domain's texts are written by it, and the extractor must read it back whole)."""

from factcov.model import Fact, Instance


def realize(facts: list[Fact], language: str, instance: Instance | None = None) -> str:
    """One sentence per item, its facts joined: 'There are 7 apples; the apples are red.'"""
    by_item: dict[str, list[str]] = {{}}
    for fact in facts:
        item = fact.key["item"]
        if fact.type == "count":
            said = f"there are {{fact.value}} {{item}}"
        else:
            said = f"the {{item}} are {{fact.value}}"
        by_item.setdefault(item, []).append(said)
    sentences = ("; ".join(parts) for parts in by_item.values())
    return " ".join(sentence[0].upper() + sentence[1:] + "." for sentence in sentences)
'''

EXTRACTOR = '''"""The extractor: a table of patterns per claim type, on factcov's building blocks.

Patterns are matched on lower-cased, accent-free text; a space matches any whitespace;
``{{item}}`` and ``{{number}}`` are slots (in this rf-string written with doubled braces,
which Python halves).
"""

from factcov.extractors.patterns import Lexicon, TableExtractor, parse_number
from factcov.language import fold

from {package}.claims import COLOURS

ITEM = r"(?P<item>{{item}})"
PATTERNS = {{
    "count": (
        rf"there (?:are|were|is) (?P<number>{{{{number}}}}) {{ITEM}}",
        rf"{{ITEM}}: (?P<number>{{{{number}}}})",
    ),
    "colour": (
        rf"(?:the )?{{ITEM}} (?:are|is|were) (?P<colour>{{'|'.join(COLOURS)}})",
    ),
}}


class PatternExtractor(TableExtractor):
    name = "{name}-patterns"
    description = "Counts and colours of the inventory's items."
    domains = ("{name}",)
    languages = ("en",)
    patterns = PATTERNS
    entity_slot = "item"
    prebuild = True  # a table of patterns loads no model: --jobs workers share one

    def lexicon(self, instance):
        return Lexicon({{fold(row["item"]): row["item"] for row in instance.context["items"]}})

    def read(self, claim_type, match, item, instance):
        # instance: the one the text is about (its context holds the data, if a claim needs it)
        if claim_type == "count":
            return {{"item": item}}, parse_number(match["number"], self.language)
        return {{"item": item}}, match["colour"]
'''

DOMAIN = '''"""The `{name}` domain: what factcov needs to score texts about an inventory."""

from collections.abc import Sequence
from importlib import metadata

from factcov.domain import Domain
from factcov.knowledge import Knowledge
from factcov.model import Fact, Instance

from {package} import demo, realizer
from {package}.claims import CLAIM_TYPES


class {cls}(Domain):
    name = "{name}"
    description = "Texts about an inventory: how many of each item, and its colour."
    version = metadata.version("factcov-{dist}")  # one version to bump: pyproject.toml's
    languages = ("en",)
    tasks = ("inventory",)
    claim_types = CLAIM_TYPES
    default_extractor = "{name}-patterns"

    def example_instances(self) -> list[Instance]:
        return demo.example_instances()

    def realize(self, facts: Sequence[Fact], language: str, instance: Instance | None = None) -> str:
        return realizer.realize(list(facts), language, instance)

    def knowledge(self, instance: Instance) -> Knowledge:
        """What claims are checked against: the instance's facts (the default). A domain
        adds facts here that a text may state but need not (checked, never required for
        recall), e.g. derived ones: give them claim types and return
        ``Knowledge([*instance.facts, *extra], self.claim_types)``."""
        return Knowledge(instance.facts, self.claim_types)
'''

DEMO = '''"""The example instances (check_domain's and the demo's) and the demo's systems."""

import json
from collections.abc import Sequence
from importlib.resources import files

from factcov.model import Instance


def example_instances() -> list[Instance]:
    lines = (files("{package}") / "data" / "instances.jsonl").read_text("utf-8").splitlines()
    return [Instance(**json.loads(line)) for line in lines if line.strip()]


def describe(instances: Sequence[Instance]) -> list[str]:
    """A line per instance: its id and items (what `factcov {name} stats` prints)."""
    return [f"{{i.id}}: {{len(i.facts)}} facts, items {{', '.join(row['item'] for row in i.context['items'])}}"
            for i in instances]
'''

COMMANDS = '''"""`factcov {name} ...`: the domain's own commands (a domain builds its data here)."""

from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(help="The {name} domain's commands.", no_args_is_help=True)
INSTANCES = typer.Option("--instances", "-i", help="An instances file.", dir_okay=False)


@app.command("stats")
def stats(instances: Annotated[Path, INSTANCES]) -> None:
    """Each instance's id, number of facts and items."""
    from factcov.api import read_instances

    from {package}.demo import describe

    for line in describe(read_instances(instances)):
        typer.echo(line)
'''

PLUGIN = '''"""The plugin module named by the entry point: hooks that register the domain's classes."""

from factcov import hookimpl

from {package}.domain import {cls}
from {package}.extractor import PatternExtractor


@hookimpl
def register_domains(register):
    register({cls})


@hookimpl
def register_extractors(register):
    register(PatternExtractor)


@hookimpl
def register_commands(app):
    from {package}.commands import app as commands

    app.add_typer(commands, name="{name}")
'''

TESTS = '''"""The domain's own tests: factcov's contract and the extractor on hand-written texts."""

import pytest
from factcov import plugins
from factcov.cli.app import run
from factcov.testing import check_domain

from {package}.oracle import facts_of


@pytest.fixture
def domain(monkeypatch):
    # Load this plugin from its entry point, as a user's factcov does.
    monkeypatch.setenv("FACTCOV_PLUGINS", "{name}")
    plugins.reset()
    try:
        yield plugins.get_domain("{name}")
    finally:
        plugins.unregister_plugin("{name}")  # later tests must not see it


def test_the_example_instances_hold_the_oracle_facts(domain):
    for instance in domain.example_instances():
        assert instance.facts == facts_of(instance.context)


def test_the_domain_passes_the_factcov_contract(domain):
    report = check_domain(domain)
    assert report.instances == 3 and report.checks > 0


def test_the_realizer_writes_one_sentence_per_item(domain):
    instance = domain.example_instances()[0]
    text = domain.realize(instance.facts, "en", instance)
    assert text.startswith("There are 7 apples; the apples are red. There are 12 pears;")


@pytest.mark.parametrize(("text", "expected"), [
    ("There are seven apples.", {{("count", "apples", 7)}}),
    ("Pears: 12. The pears are green.", {{("count", "pears", 12), ("colour", "pears", "green")}}),
    ("The apples are blue.", {{("colour", "apples", "blue")}}),
])
def test_the_extractor_reads(domain, text, expected):
    instance = domain.example_instances()[0]
    claims = plugins.get_extractor("{name}-patterns", "en").extract(text, instance)
    assert {{(c.type, c.key["item"], c.value) for c in claims}} == expected


def test_the_stats_command(domain, tmp_path, capsys):
    path = tmp_path / "instances.jsonl"
    path.write_text("".join(i.model_dump_json() + "\\n" for i in domain.example_instances()), encoding="utf-8")
    assert run(["{name}", "stats", "-i", str(path)]) == 0
    assert "{name}:0: 6 facts, items apples, pears, plums" in capsys.readouterr().out
'''

INSTANCES = [
    {"apples": (7, "red"), "pears": (12, "green"), "plums": (3, "blue")},
    {"lemons": (5, "yellow"), "limes": (9, "green")},
    {"cherries": (40, "red"), "blueberries": (25, "blue"), "apples": (2, "green"), "pears": (6, "yellow")},
]


def _instances(name: str) -> list[dict]:
    out = []
    for index, stock in enumerate(INSTANCES):
        items = [{"item": item, "count": count, "colour": colour} for item, (count, colour) in stock.items()]
        facts = []
        for row in items:
            facts.append({"type": "count", "key": {"item": row["item"]}, "value": row["count"]})
            facts.append({"type": "colour", "key": {"item": row["item"]}, "value": row["colour"]})
        out.append({
            "id": f"{name}:{index}", "domain": name, "task": "inventory", "language": "en",
            "prompt": "Describe the inventory.", "context": {"items": items}, "facts": facts,
        })
    return out


def write_domain_package(name: str, destination: Path) -> Path:
    """Write the package of domain ``name`` into ``destination/factcov-<name>``; return that folder."""
    if not NAME_PATTERN.fullmatch(name):
        raise InputError(f"a domain name is 2-31 lowercase letters, digits or '_' starting with a letter, got '{name}'")
    dist = name.replace("_", "-")
    package = f"factcov_{name}"
    cls = "".join(part.capitalize() for part in name.split("_")) + "Domain"
    root = destination / f"factcov-{dist}"
    if root.exists():
        raise InputError("already exists; choose another name or folder", path=root)
    values = {"name": name, "dist": dist, "package": package, "cls": cls}
    files = {
        "pyproject.toml": PYPROJECT,
        "README.md": README,
        f"{package}/__init__.py": '"""factcov domain plugin: {name}."""\n',
        f"{package}/claims.py": CLAIMS,
        f"{package}/oracle.py": ORACLE,
        f"{package}/realizer.py": REALIZER,
        f"{package}/extractor.py": EXTRACTOR,
        f"{package}/domain.py": DOMAIN,
        f"{package}/demo.py": DEMO,
        f"{package}/commands.py": COMMANDS,
        f"{package}/plugin.py": PLUGIN,
        f"tests/test_{name}.py": TESTS,
    }
    contents = {relative: template.format(**values) for relative, template in files.items()}
    contents[f"{package}/data/instances.jsonl"] = "".join(json.dumps(row) + "\n" for row in _instances(name))
    _write_tree_atomically(root, contents)
    return root


def _write_tree_atomically(root: Path, contents: dict[str, str]) -> None:
    """Write every file into a staging folder beside ``root`` and rename it to ``root`` at
    the end: a full disk or a kill leaves no half-written package (which blocked the retry
    with "already exists"), only a staging folder the next write sweeps."""
    from factcov import temporaries

    root.parent.mkdir(parents=True, exist_ok=True)
    temporaries.sweep(root.parent, root.name)
    staging, marker = temporaries.make_staging(root.parent, root.name)
    try:
        for relative, text in contents.items():
            path = staging / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        os.unlink(staging / temporaries.MARKER)
        from factcov.outdir import apply_umask

        apply_umask(staging, directory=True)
        if root.exists():  # made meanwhile: never merged into
            raise InputError("already exists; choose another name or folder", path=root)
        os.rename(staging, root)
    except BaseException:
        temporaries.remove_tree(staging)
        raise
    finally:
        os.close(marker)
