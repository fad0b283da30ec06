"""Canonical entity names: two mentions of one entity compare equal, different ones do not."""

import pytest

from factcov.extractors.normalize import canonical_entity, fold_aliases


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("The Apple Inc.", "apple"),
        ("Estádio_Municipal", "estadio municipal"),
        ("the 13th of October 1964", "1964-10-13"),
        ("October 13, 1964", "13 Oct 1964"),
        ("10 am", "10:00"),
        ("7 p.m.", "19:00"),
        ("12 euros", "€12"),
        ("12,000", "12000"),
        ("twelve", "12"),
        ("5600.0", "5600"),
        ("Lotus_Eaters_(band)", "Lotus Eaters"),
        ("Alan B. Miller Hall", "alan b miller hall"),
        ("College of William & Mary", "College of William and Mary"),
    ],
)
def test_variants_of_one_entity_share_a_canonical_name(a, b):
    assert canonical_entity(a) == canonical_entity(b)


@pytest.mark.parametrize(("a", "b"), [("3 May 2025", "5 May 2024"), ("10 am", "10 pm"), ("12 euros", "12 dollars"),
                                      ("Paris", "France")])
def test_different_entities_stay_different(a, b):
    assert canonical_entity(a) != canonical_entity(b)


def test_dates_are_iso_and_money_has_a_currency_code():
    assert canonical_entity("May 1950") == "1950-05"
    assert canonical_entity("£3.50") == "3.5 GBP"


def test_alias_table_maps_a_variant_onto_one_name():
    aliases = fold_aliases({"Big Apple": "New York City"})
    assert canonical_entity("the Big Apple", aliases) == canonical_entity("New York City")
