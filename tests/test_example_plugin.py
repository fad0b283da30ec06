"""The example third-party domain (examples/factcov-quali), installed with pip and reached
only through its entry point; and the tutorial docs/adding-a-domain.md, whose code is the
example's own files.
"""

from __future__ import annotations

import csv
import importlib.metadata
import json
import re
from pathlib import Path

import pytest

from factcov import plugins
from factcov.cli.app import run
from factcov.errors import InputError
from factcov.jsonl import write_jsonl_atomic
from factcov.model import Fact
from factcov.testing import check_domain
from factcov.verifier import Verifier

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "factcov-quali"
TUTORIAL = REPO / "docs" / "adding-a-domain.md"
INSTALL = "pip install ./examples/factcov-quali"


def installed_distribution() -> importlib.metadata.Distribution:
    try:
        return importlib.metadata.distribution("factcov-quali")
    except importlib.metadata.PackageNotFoundError:
        pytest.fail(f"the example plugin is not installed: run `{INSTALL}` from the repository root (CI does)")


@pytest.fixture
def quali(monkeypatch):
    """The `quali` domain, loaded the way a user's factcov loads it: from the entry point."""
    installed_distribution()
    monkeypatch.setenv("FACTCOV_PLUGINS", "quali")
    plugins.reset()
    try:
        yield plugins.get_domain("quali")
    finally:
        plugins.unregister_plugin("quali")  # later tests must not see it


@pytest.fixture
def bahrain_2023(quali):
    return next(i for i in quali.example_instances() if i.id == "quali:2023:1")


# --- (a) installation --------------------------------------------------------------


def test_example_is_installed_with_its_entry_point():
    entry_points = [ep for ep in installed_distribution().entry_points if ep.group == "factcov"]
    assert [(ep.name, ep.value) for ep in entry_points] == [("quali", "factcov_quali.plugin")]


def test_installed_example_is_the_source_in_the_repository():
    """A stale install would test old code: every installed module equals its source file."""
    import factcov_quali

    installed = Path(factcov_quali.__file__).parent
    sources = sorted((EXAMPLE / "factcov_quali").glob("*.py"))
    assert sources, "the example's sources are missing"
    for source in [*sources, EXAMPLE / "factcov_quali" / "data" / "instances.jsonl"]:
        copy = installed / source.relative_to(EXAMPLE / "factcov_quali")
        assert copy.is_file() and copy.read_bytes() == source.read_bytes(), (
            f"{copy} differs from {source}: re-run `{INSTALL}`"
        )


def test_example_is_not_a_builtin_and_loads_only_when_allowed():
    installed_distribution()
    assert not any("quali" in module for module in plugins.DEFAULT_PLUGINS)
    plugins.reset()  # conftest sets FACTCOV_PLUGINS="": installed plugins stay out
    try:
        plugins.load_plugins()
        assert "quali" not in plugins.domains.names()
    finally:
        plugins.reset()


# --- (b) through the command line and the contract tests ----------------------------


def test_factcov_domains_lists_the_plugin(quali, capsys):
    assert run(["domains"]) == 0
    out = capsys.readouterr().out
    assert "quali" in out and "quali-regex" in out and "qualifying_summary" in out
    assert plugins.domains.plugin_of("quali") == "quali"  # the entry point's name


def test_factcov_plugins_lists_it_with_the_distribution_version(quali, capsys):
    assert run(["plugins"]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if " quali " in line)
    assert importlib.metadata.version("factcov-quali") in row


def test_domain_passes_the_contract_checks(quali):
    report = check_domain(quali, max_perturbations=13)
    assert report.instances == 5 and report.perturbations == 5 * 13


def test_the_tutorials_hand_written_example_passes_and_a_wrong_one_fails(quali):
    from factcov.model import Claim
    from factcov.testing import Example

    instance = next(iter(quali.example_instances()))
    right = Example(instance, "Bottas took pole ahead of Hamilton.", [Claim(type="pole", value="BOT")])
    assert check_domain(quali, examples=[right]).examples == 1
    assert 'Example(instance, "Bottas took pole ahead of Hamilton.",' in TUTORIAL.read_text(encoding="utf-8")
    wrong = Example(instance, "Bottas took pole ahead of Hamilton.", [Claim(type="pole", value="HAM")])
    with pytest.raises(AssertionError, match='missing: pole\\(\\) = "HAM"'):
        check_domain(quali, [], examples=[wrong])


def test_a_wrong_pole_sitter_is_contradicted(quali, bahrain_2023):
    """The pole's value is a driver: the perturbation names another, the text is refuted."""
    import random

    pole = next(f for f in bahrain_2023.facts if f.type == "pole")
    wrong = quali.perturb(pole, random.Random(1))
    claims = plugins.get_extractor("quali-regex", "en").extract(quali.realize([wrong], "en", bahrain_2023), bahrain_2023)
    verdicts = Verifier().verify_all(claims, quali.knowledge(bahrain_2023))
    assert [(v.label, v.expected) for v in verdicts] == [("contradicted", "VER")]


def test_factcov_score_scores_the_example_systems(quali, tmp_path):
    instances = quali.demo_instances()
    write_jsonl_atomic(tmp_path / "instances.jsonl", instances)
    write_jsonl_atomic(tmp_path / "generations.jsonl", quali.demo_generations(instances))
    out = tmp_path / "out"
    code = run(["score", "-d", "quali", "-i", str(tmp_path / "instances.jsonl"),
                "-g", str(tmp_path / "generations.jsonl"), "-o", str(out), "-q", "--no-report"])
    assert code == 0
    assert {p.name for p in out.iterdir()} >= {"claims.parquet", "scores.parquet", "systems.csv", "summary.json"}
    with (out / "systems.csv").open() as handle:
        systems = {row["system"]: row for row in csv.DictReader(handle)}
    assert set(systems) == {"complete", "terse", "hasty"}
    assert float(systems["complete"]["precision"]) == float(systems["complete"]["recall"]) == 1.0
    # terse states the first two relevant facts of each instance (the default), all true
    assert all(len(i.facts) > 3 for i in instances)
    assert float(systems["terse"]["precision"]) == 1.0
    assert float(systems["terse"]["recall"]) == pytest.approx(sum(2 / len(i.facts) for i in instances) / 5)
    # hasty (quali's demo_noise) gets the two grid places P2 and P3 wrong and nothing else
    assert float(systems["hasty"]["precision"]) == pytest.approx(sum(1 - 2 / len(i.facts) for i in instances) / 5)
    summary = json.loads((out / "summary.json").read_text())
    assert "domain:quali@" in summary["signature"] and summary["extractor"] == "quali-regex"
    # the point of recall: the precise but terse system falls from the top by F1
    assert summary["rankings"]["by_f1"] == ["complete", "hasty", "terse"]
    assert summary["rankings"]["by_precision"].index("terse") < summary["rankings"]["by_precision"].index("hasty")



def test_a_demo_written_by_hand_for_factcov_0_1_still_runs(quali, tmp_path):
    """0.1 plugins wrote the demo trio themselves (quali's own demo did, with a 0.1-style
    ``perturb(f, rng)`` call); ``factcov demo`` still scores such an override unchanged."""
    import random

    from factcov.demo import run_demo
    from factcov.model import Generation

    class HandWrittenDemo(type(quali)):
        def demo_instances(self):
            return self.example_instances()

        def demo_generations(self, instances):  # verbatim from factcov-quali 0.1.0
            generations = []
            for instance in instances:
                facts = list(instance.facts)
                pole = [fact for fact in facts if fact.type == "pole"]
                rng = random.Random(instance.id)  # the same wrong places on every run
                hasty = [self.perturb(f, rng) if f.type == "qualifying_position" else f for f in facts]
                texts = {
                    "complete": self.realize(facts, "en", instance),
                    "terse": self.realize(pole, "en", instance),
                    "hasty": self.realize(hasty, "en", instance),
                }
                generations += [Generation(instance_id=instance.id, system=s, text=t) for s, t in texts.items()]
            return generations

    run_demo(HandWrittenDemo(), tmp_path / "demo")
    with (tmp_path / "demo" / "systems.csv").open() as handle:
        systems = {row["system"]: row for row in csv.DictReader(handle)}
    instances = quali.example_instances()
    assert float(systems["terse"]["recall"]) == pytest.approx(sum(1 / len(i.facts) for i in instances) / 5)
    assert float(systems["hasty"]["precision"]) < 1.0 == float(systems["complete"]["recall"])

# --- (c) the extractor on hand-written phrasings -----------------------------------

PHRASINGS = [
    ("Max Verstappen took pole.", {("pole", None, "VER")}),
    ("Pole position went to VER, with Perez second.", {("pole", None, "VER"), ("qualifying_position", "PER", 2)}),
    ("Verstappen's 21st pole came easily.", {("pole", None, "VER")}),
    ("Leclerc (P3) was the best Ferrari.", {("qualifying_position", "LEC", 3)}),
    ("Third place went to Leclerc.", {("qualifying_position", "LEC", 3)}),
    ("Hamilton qualified seventh and Sainz 4th.", {("qualifying_position", "HAM", 7), ("qualifying_position", "SAI", 4)}),
    ("Norris, Ocon and Hülkenberg were out in Q2.",
     {("session_reached", "NOR", "Q2"), ("session_reached", "OCO", "Q2"), ("session_reached", "HUL", "Q2")}),
    ("Stroll was eliminated in the first session.", {("session_reached", "STR", "Q1")}),
    ("Eliminated in Q1: Sargeant, Zhou and De Vries.",
     {("session_reached", "SAR", "Q1"), ("session_reached", "ZHO", "Q1"), ("session_reached", "DEV", "Q1")}),
    ("The opening session accounted for TSU and Bottas.",
     {("session_reached", "TSU", "Q1"), ("session_reached", "BOT", "Q1")}),
    ("Alonso made it into the top-ten shoot-out.", {("session_reached", "ALO", "Q3")}),
    ("Russell failed to make it out of Q2.", {("session_reached", "RUS", "Q2")}),
]
NOT_CLAIMS = [
    "Hamilton was a second slower than his team-mate.",
    "Verstappen was second-fastest in Q1.",
    "Times improved by a tenth per second run.",  # 'per' is not PER: codes are written in capitals
    "Norris made it out of Q1.",  # reaching Q2 says nothing of where he went out
]


def as_tuple(claim) -> tuple:
    return (claim.type, claim.key.get("driver"), claim.value)


@pytest.mark.parametrize(("text", "expected"), PHRASINGS, ids=[p[0][:40] for p in PHRASINGS])
def test_extractor_reads_phrasing(quali, bahrain_2023, text, expected):
    claims = plugins.get_extractor("quali-regex", "en").extract(text, bahrain_2023)
    assert {as_tuple(c) for c in claims} == expected
    for claim in claims:
        assert text[claim.span[0] : claim.span[1]] == claim.text and claim.extractor == "quali-regex"


@pytest.mark.parametrize("text", NOT_CLAIMS)
def test_extractor_reads_no_claim_from(quali, bahrain_2023, text):
    assert plugins.get_extractor("quali-regex", "en").extract(text, bahrain_2023) == []


def test_claims_about_drivers_outside_the_summary_are_checked(quali, bahrain_2023):
    """Knowledge holds every driver's place, so a true irrelevant claim is supported."""
    claims = plugins.get_extractor("quali-regex", "en").extract("Hamilton qualified seventh.", bahrain_2023)
    assert Verifier().verify_all(claims, quali.knowledge(bahrain_2023))[0].label == "supported"
    assert not any(f.key.get("driver") == "HAM" for f in bahrain_2023.facts)


# --- the oracle on the real Ergast tables --------------------------------------------


def test_committed_instances_are_what_the_builder_derives(quali, shared_data):
    from factcov_quali.build import build_instances

    assert build_instances(shared_data / "f1" / "ergast") == quali.example_instances()


@pytest.mark.parametrize(("instance_id", "driver", "session"), [
    ("quali:2018:16", "VER", "Q2"),  # through to Q2, set no time there (grid penalty)
    ("quali:2024:17", "GAS", "Q2"),  # disqualified: classified 20th, yet reached Q2
    ("quali:2023:1", "ALB", "Q2"),  # P15 without a Q2 lap: still out in Q2, not Q1
    ("quali:2023:1", "SAR", "Q1"),
    ("quali:2023:1", "HUL", "Q3"),
])
def test_session_reached_follows_the_classification(quali, instance_id, driver, session):
    instance = next(i for i in quali.example_instances() if i.id == instance_id)
    fact = Fact(type="session_reached", key={"driver": driver}, value=session)
    assert fact in quali.knowledge(instance).facts("session_reached")


def test_builder_names_file_line_and_field_of_a_bad_row(quali, tmp_path):
    from factcov_quali.build import build_instances

    (tmp_path / "races.csv").write_text("raceId,year,round,name\n1,2023,1,Bahrain Grand Prix\n")
    (tmp_path / "drivers.csv").write_text("driverId,code,forename,surname\n7,VER,Max,Verstappen\n")
    (tmp_path / "qualifying.csv").write_text("raceId,driverId,position,q1,q2,q3\n1,7,first,1:30.0,\\N,\\N\n")
    with pytest.raises(InputError) as error:
        build_instances(tmp_path, races=((2023, 1),))
    assert (error.value.line, error.value.field) == (2, "position")
    assert error.value.path.endswith("qualifying.csv")


# --- (d) the tutorial's code is the example's code ---------------------------------

QUOTED = re.compile(r'^```\w+ title="(?P<path>[^"]+)"\n(?P<code>.*?)^```$', re.MULTILINE | re.DOTALL)


def quoted_files() -> dict[str, str]:
    return {m["path"]: m["code"] for m in QUOTED.finditer(TUTORIAL.read_text(encoding="utf-8"))}


def test_tutorial_quotes_every_file_of_the_example():
    wanted = {str(p.relative_to(REPO)) for p in (EXAMPLE / "factcov_quali").glob("*.py")}
    assert wanted | {"examples/factcov-quali/pyproject.toml"} <= set(quoted_files())


@pytest.mark.parametrize("path", sorted(quoted_files()))
def test_tutorial_code_block_equals_the_file(path):
    assert quoted_files()[path] == (REPO / path).read_text(encoding="utf-8"), (
        f"docs/adding-a-domain.md quotes {path} but the file has changed: paste the file into the doc"
    )


def test_the_table_extractor_reads_a_long_text_in_linear_time(quali, bahrain_2023):
    """`quali-regex` is a TableExtractor (the template of a third-party extractor): its
    claims read again from overlapping phrases were dropped by comparing each with every
    claim kept, so 100 KB of text took 4.6 s against 0.32 s for 25 KB. n and 4n characters
    in this process: linear gives a ratio near 4, quadratic near 16."""
    import time

    extractor = plugins.get_extractor(quali.default_extractor, "en")
    realized = quali.realize(bahrain_2023.facts, "en", bahrain_2023) + " "

    def cpu(size: int) -> float:
        text = (realized * (size // len(realized) + 1))[:size]
        best = float("inf")
        for _ in range(2):
            started = time.process_time()
            claims = extractor.extract(text, bahrain_2023)
            best = min(best, time.process_time() - started)
        assert len(claims) > size // len(realized)  # every copy read
        return max(best, 0.005)

    ratio = cpu(100_000) / cpu(25_000)
    assert ratio < 8, ratio
