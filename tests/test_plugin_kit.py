"""What a third-party plugin author trips on, said where it happens (docs/plugin-reference.md).

Found by writing a new domain from the docs alone: a realize override without the
``instance`` parameter, a claim type without templates, a domain without
``default_extractor``, an extractor reading claims its domain cannot verify, and a bug
inside the plugin's own extractor during ``factcov score``.
"""

from __future__ import annotations

import json
import random
import re
import textwrap

import pytest

from factcov import plugins
from factcov.cli.app import run
from factcov.errors import PluginError, UnknownNameError
from factcov.extractor import Extractor
from factcov.model import Claim, ClaimType, Fact, Instance
from factcov.testing import check_domain
from tests.test_plugins import make_distribution


@pytest.fixture
def entry_points_dir(tmp_path, monkeypatch):
    """A folder on sys.path for distributions; the plugins they add are gone afterwards."""
    monkeypatch.syspath_prepend(str(tmp_path))
    plugins.reset()
    yield tmp_path
    for name in ("nodefault", "boom"):
        plugins.unregister_plugin(name)
    plugins.reset()


def _mini_instances(n: int = 2) -> list[Instance]:
    return [Instance(id=f"m{i}", domain="mini", task="count", language="en",
                     facts=[Fact(type="count", key={"item": "apples"}, value=3 + i),
                            Fact(type="colour", key={"item": "apples"}, value="red")]) for i in range(n)]


def test_a_realize_written_without_the_instance_warns_and_still_works(mini_plugin):
    # concepts.md once named it realize(facts, language): such a domain must not crash.
    with pytest.warns(DeprecationWarning, match=r"realize\(facts, language\) is deprecated"):
        class Legacy(mini_plugin.MiniDomain):
            def realize(self, facts, language):
                return " ".join(self.realize_fact(f, language) for f in facts)

    instances = _mini_instances()
    assert Legacy().realize(instances[0].facts, "en", instances[0]) == "apples: 3. apples are red."
    assert check_domain(Legacy(), instances).checks > 0


def test_a_claim_type_without_a_template_says_how_to_realize_it(mini_plugin):
    bare = ClaimType(name="weight", description="kg", key_slots=("item",), value_kind="int")

    class NoTemplate(mini_plugin.MiniDomain):
        claim_types = (*mini_plugin.CLAIM_TYPES, bare)

    with pytest.raises(PluginError) as raised:
        NoTemplate().realize([Fact(type="weight", key={"item": "apples"}, value=2)], "en")
    message = str(raised.value)
    assert "cannot realize a weight fact in 'en'" in message and "templates={'en':" in message
    assert "override NoTemplate.realize" in message


def test_a_domain_without_default_extractor_is_refused_naming_its_plugin(entry_points_dir, monkeypatch):
    make_distribution(entry_points_dir, "nodefault_dist", "0.1", "nodefault", "nodefault_factcov_plugin", """
        from factcov import hookimpl
        from factcov.domain import Domain

        class Quiet(Domain):
            name = "quiet"

        @hookimpl
        def register_domains(register):
            register(Quiet)
    """)
    monkeypatch.setenv("FACTCOV_PLUGINS", "nodefault")
    with pytest.warns(RuntimeWarning, match="registered domain 'quiet'.*without `default_extractor`"):
        plugins.load_plugins()
    # Asked for later, the domain's absence names the plugin that failed and why.
    with pytest.raises(UnknownNameError, match="unknown domain 'quiet'.*failed to load: 'nodefault'.*default_extractor"):
        plugins.get_domain("quiet")
    monkeypatch.setenv("FACTCOV_STRICT_PLUGINS", "1")
    plugins.reset()
    with pytest.raises(PluginError, match="without `default_extractor`"):
        plugins.load_plugins()


def test_an_unknown_name_reads_name_first_then_what_it_belongs_to():
    error = UnknownNameError("extractor for domain 'football'", "quali-regex", ["football-regex", "llm"])
    assert str(error) == "unknown extractor 'quali-regex' for domain 'football'; available: football-regex, llm"
    assert str(UnknownNameError("domain", "x", [])) == "unknown domain 'x'; available: (none registered)"


@pytest.mark.parametrize(("claim", "message"), [
    (Claim(type="weight", key={"item": "apples"}, value=3), "has no claim type 'weight' (claim types: count, colour"),
    (Claim(type="count", key={"fruit": "apples"}, value=3), "claim type 'count' has no key slot(s) fruit (key slots: item)"),
    (Claim(type="count", key={"item": "apples"}, value="3"), "claim type 'count' has value_kind 'int', the extractor gave a str"),
])
def test_check_domain_names_a_claim_the_domain_cannot_verify(mini_plugin, claim, message):
    # Such a claim would only be counted unverifiable: P<1 with no hint why.
    class Slipping(mini_plugin.MiniExtractor):
        name = "slipping"

        def extract(self, text, instance):
            return [*super().extract(text, instance), claim]

    plugins.extractors.add(Slipping, "mini")
    with pytest.raises(AssertionError, match=f"extractor read .*{re.escape(message)}"):
        check_domain(plugins.get_domain("mini"), _mini_instances(1), extractor="slipping")


BOOM_PLUGIN = """
    from factcov import hookimpl
    from factcov.domain import Domain
    from tests.mini_domain import CLAIM_TYPES, MiniExtractor


    class Boom(Domain):
        name = "boom"
        claim_types = CLAIM_TYPES
        default_extractor = "boom-regex"


    class BoomExtractor(MiniExtractor):
        name = "boom-regex"
        domains = ("boom",)

        def extract(self, text, instance):
            if "BOOM" in text:
                return instance.context["lineups"]  # the plugin's own bug
            return super().extract(text, instance)


    @hookimpl
    def register_domains(register):
        register(Boom)


    @hookimpl
    def register_extractors(register):
        register(BoomExtractor)
"""


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_bug_in_a_plugins_extractor_names_the_plugin_the_line_and_the_instance(
    entry_points_dir, monkeypatch, tmp_path, capsys, jobs,
):
    make_distribution(entry_points_dir, "boom_dist", "0.1", "boom", "boom_factcov_plugin", textwrap.dedent(BOOM_PLUGIN))
    monkeypatch.setenv("FACTCOV_PLUGINS", "boom")
    instances = tmp_path / "instances.jsonl"
    instances.write_text("".join(
        json.dumps({"id": f"b{i}", "domain": "boom", "task": "count", "language": "en",
                    "facts": [{"type": "count", "key": {"item": "apples"}, "value": 3}]}) + "\n" for i in range(3)))
    generations = tmp_path / "generations.jsonl"
    generations.write_text("".join(json.dumps({"instance_id": f"b{i}", "system": "s", "text": text}) + "\n"
                                   for i, text in enumerate(["apples: 3.", "apples: 4.", "BOOM"])))
    out = tmp_path / "out"
    assert run(["score", "-d", "boom", "-i", str(instances), "-g", str(generations), "-o", str(out), "-q",
                "--jobs", jobs]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and not (out / "summary.json").exists()
    assert "error in plugin 'boom' (boom_factcov_plugin.py:" in err and "in extract): KeyError: 'lineups'" in err
    assert "extractor 'boom-regex' reading instance 'b2'" in err and "report it to the plugin's authors" in err


def test_an_error_outside_any_plugin_is_still_factcovs_internal_error():
    from factcov.cli.blame import describe_unexpected

    try:
        random.Random(0).choice([])
    except IndexError as error:
        assert describe_unexpected(error).startswith("internal error: IndexError")


def test_the_extractor_base_notes_which_extractor_failed_on_which_instance():
    class Broken(Extractor):
        name = "broken"

        def extract(self, text, instance):
            raise ValueError("nope")

    instance = _mini_instances(1)[0]
    with pytest.raises(ValueError) as raised:
        Broken().extract_batch(["x"], [instance])
    assert raised.value.__notes__ == ["extractor 'broken' reading instance 'm0'"]


@pytest.mark.slow
def test_the_command_line_warns_about_a_broken_plugin_in_one_line(entry_points_dir):
    import os
    import subprocess
    import sys

    make_distribution(entry_points_dir, "broken_dist", "0.1", "brokenline", "brokenline_factcov_plugin",
                      "raise ImportError('needs a library that is not installed')\n")
    env = {**os.environ, "PYTHONPATH": str(entry_points_dir), "FACTCOV_PLUGINS": "brokenline"}
    done = subprocess.run([sys.executable, "-c", "from factcov.cli.app import run; raise SystemExit(run(['demo', 'nope']))"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "factcov: warning: plugin 'brokenline' failed to load and was skipped: ImportError: needs a library that is "
        "not installed",
        "factcov: error: unknown domain 'nope'; available: f1, rag, weather; plugin(s) that failed to load: "
        "'brokenline': ImportError: needs a library that is not installed",
    ]


@pytest.mark.parametrize(("patterns", "message"), [
    ({"count": (r"(?P<item>{item}): (?P<number>{number})", r"it ended level")},
     r"patterns['count'] has a pattern without the entity group (?P<item>...) or (?P<items>...): 'it ended level'"),
    ({"weight": (r"(?P<item>{item}) weigh (?P<number>{number})",)}, "has claim type 'weight', which domain 'mini'"),
])
def test_check_domain_checks_a_table_extractors_patterns_first(mini_plugin, patterns, message):
    from factcov.extractors.patterns import Lexicon, TableExtractor

    class Table(TableExtractor):
        name = "mini-table"
        domains = ("mini",)
        entity_slot = "item"

        def lexicon(self, instance):
            return Lexicon({"apples": "apples"})

        def read(self, claim_type, match, item):
            return {"item": item}, int(match["number"])

    Table.patterns = patterns
    plugins.extractors.add(Table, "mini")
    with pytest.raises(AssertionError, match=re.escape(message)):
        check_domain(plugins.get_domain("mini"), _mini_instances(1), extractor="mini-table")


@pytest.mark.parametrize(("registered", "message"), [
    ("Quiet()", r"registered a Quiet object as a domain: register the class itself, register\(Quiet\)"),
    ("dict", r"registered builtins.dict as a domain: it must subclass factcov.domain.Domain"),
])
def test_registering_something_other_than_a_domain_class_names_the_plugin(entry_points_dir, monkeypatch,
                                                                          registered, message):
    make_distribution(entry_points_dir, "nodefault_dist", "0.1", "nodefault", f"object_plugin_{len(registered)}", f"""
        from factcov import hookimpl
        from factcov.domain import Domain

        class Quiet(Domain):
            name = "quiet"
            default_extractor = "llm"

        @hookimpl
        def register_domains(register):
            register({registered})
    """)
    monkeypatch.setenv("FACTCOV_PLUGINS", "nodefault")
    with pytest.warns(RuntimeWarning, match=message):
        plugins.load_plugins()


def test_a_claim_type_that_declares_no_value_kind_is_not_checked_for_it(mini_plugin):
    # As instance files: a plugin that never said what its values are keeps working.
    loose = ClaimType(name="tally", description="a count, kind not declared", key_slots=("item",))

    class Loose(mini_plugin.MiniDomain):
        claim_types = (*mini_plugin.CLAIM_TYPES, loose)

    class Tallying(mini_plugin.MiniExtractor):
        name = "tallying"

        def extract(self, text, instance):
            return [*super().extract(text, instance), Claim(type="tally", key={"item": "apples"}, value=3)]

    plugins.extractors.add(Tallying, "mini")
    with pytest.raises(AssertionError) as raised:  # it fails the contract (P<1), not the kind check
        check_domain(Loose(), _mini_instances(1), extractor="tallying")
    assert "value_kind" not in str(raised.value)
