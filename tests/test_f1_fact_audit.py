"""The whole-fact audit benchmark (issue 26, fourth round): the races it audits are named by
no earlier test, benchmark or doc, and every fact the oracle emits for them and every check
entry has a committed judgement with its evidence; none judged wrong."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))
spec = importlib.util.spec_from_file_location("f1_fact_audit", BENCHMARKS / "f1_fact_audit.py")
audit = importlib.util.module_from_spec(spec)
spec.loader.exec_module(audit)


def test_a_race_is_named_by_its_adjective_country_city_or_a_list_after_the_season() -> None:
    text = "… 2019 Monza … Hamilton in Baku 2018 … drawn: 2025 Bahrain, Japan and United States; race(f1, 2021, 6)"
    assert audit.named(text, 2019, 14, "Italian Grand Prix")
    assert audit.named(text, 2018, 4, "Azerbaijan Grand Prix")
    assert audit.named(text, 2025, 3, "Japanese Grand Prix")
    assert audit.named(text, 2025, 19, "United States Grand Prix")
    assert audit.named(text, 2021, 6, "Azerbaijan Grand Prix")
    assert not audit.named(text, 2019, 13, "Belgian Grand Prix")
    assert not audit.named(text, 2024, 16, "Italian Grand Prix")


def test_every_fact_and_entry_of_the_audited_races_is_judged_and_none_is_wrong(shared_data: Path) -> None:
    judged = audit.read_judgments()
    counts = audit.audit(shared_data / "f1", judged, listing=False)
    assert len(audit.AUDITED) == 8 and len({season for season, _ in audit.AUDITED}) == 8
    assert not [key for key in counts if key[2] == "unjudged"]
    assert not [key for key in counts if key[0] == "fact" and key[2] == "wrong"]
    assert sum(n for key, n in counts.items() if key[0] == "fact") >= 1400
    assert all(evidence.strip() for _, evidence in judged.values())
