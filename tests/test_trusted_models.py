"""factcov.trusted: a field added to Claim, Verdict or Fact is built and read as pydantic would, or
the builders refuse at import, naming the field; never a silent slow path or a wrong object."""

from __future__ import annotations

import pytest
from pydantic import field_validator

from factcov import trusted
from factcov.knowledge import Knowledge
from factcov.model import Claim, ClaimType, Fact, Verdict
from factcov.trusted import Template, fields_of
from factcov.verifier import Verifier

CLAIM_WRITTEN = ("type", "key", "value", "span", "text", "extractor")
VERDICT_WRITTEN = ("claim", "label", "fact", "matches", "expected")


def with_field(model, name: str, annotation, **field):
    """``model`` as it would be with one more field (a subclass: the same config and validators)."""
    namespace = {"__annotations__": {name: annotation}, "__module__": __name__}
    if "default" in field:
        namespace[name] = field["default"]
    elif "default_factory" in field:
        from pydantic import Field

        namespace[name] = Field(default_factory=field["default_factory"])
    return type(model.__name__, (model,), namespace)


def test_the_builders_make_what_pydantic_makes():
    claim_fields = dict(type="t", key={"k": "v"}, value=3, span=(0, 4), text="t k 3", extractor="x")
    claim = trusted.trusted_claim(*claim_fields.values())
    assert fields_of(claim) == fields_of(Claim.model_construct(**claim_fields))
    assert claim.model_fields_set == Claim.model_construct(**claim_fields).model_fields_set
    fact = Fact(type="t", key={"k": "v"}, value=3)
    for built, made in [
        (trusted.unverifiable_verdict(claim), Verdict(claim=claim, label="unverifiable")),
        (trusted.supported_verdict(claim, fact, (fact.id,)), Verdict(claim=claim, label="supported", fact=fact,
                                                                      matches=(fact.id,))),
        (trusted.contradicted_verdict(claim, fact, 4), Verdict(claim=claim, label="contradicted", fact=fact,
                                                               expected=4)),
    ]:
        assert fields_of(built) == fields_of(made) and built.model_fields_set == made.model_fields_set
        assert built.model_dump_json() == made.model_dump_json()


@pytest.mark.parametrize(("model", "written", "make"), [
    (Claim, CLAIM_WRITTEN, lambda m: m.model_construct(type="t", key={}, value=1, span=(0, 1), text="t", extractor="x")),
    (Verdict, VERDICT_WRITTEN, lambda m: m(claim=Claim(type="t", value=1), label="unverifiable")),
])
def test_a_new_field_with_a_default_is_built_with_its_default(model, written, make):
    grown = with_field(model, "confidence", float, default=0.5)
    template = Template(grown, written, validated=model is Verdict)
    made = make(grown)
    built = template.build({name: fields_of(made)[name] for name in written}, set(made.model_fields_set))
    assert type(built) is grown and built.confidence == 0.5
    assert fields_of(built) == fields_of(made) and built.model_dump_json() == made.model_dump_json()


@pytest.mark.parametrize(("model", "written"), [(Claim, CLAIM_WRITTEN), (Verdict, VERDICT_WRITTEN)])
@pytest.mark.parametrize("field", [dict(), dict(default_factory=list)])
def test_a_new_field_without_a_plain_default_fails_at_import_naming_it(model, written, field):
    grown = with_field(model, "confidence", list, **field)
    with pytest.raises(TypeError, match=rf"{model.__name__} cannot be built by factcov.trusted: confidence has no"):
        Template(grown, written)


def test_a_validator_on_the_verdict_fails_loudly():
    """The verdict builders stand in for Verdict(...): a validator they would skip is refused."""
    namespace = {"__module__": __name__, "label_known": field_validator("label")(classmethod(lambda cls, v: v))}
    checked = type("Verdict", (Verdict,), namespace)
    with pytest.raises(TypeError, match="validators"):
        Template(checked, VERDICT_WRITTEN, validated=True)


def test_a_field_the_builders_write_must_exist():
    with pytest.raises(TypeError, match="confidence is written by the builders but is not a field"):
        Template(Claim, (*CLAIM_WRITTEN, "confidence"))


def test_a_fact_with_a_new_field_is_verified_as_before():
    """Facts are only read (``fields_of``: value and the cached id): a new field changes no verdict."""
    grown = with_field(Fact, "source", str, default="ergast")
    types = [ClaimType(name="count", description="how many", key_slots=("item",))]
    plain = [Fact(type="count", key={"item": f"i{i}"}, value=i) for i in range(5)]
    more = [grown(type="count", key={"item": f"i{i}"}, value=i) for i in range(5)]
    claims = [Claim(type="count", key={"item": f"i{i}"}, value=i + (i % 2)) for i in range(6)]
    before = Verifier().verify_all(claims, Knowledge(plain, types))
    after = Verifier().verify_all(claims, Knowledge(more, types))
    assert [(v.label, v.matches, v.expected) for v in before] == [(v.label, v.matches, v.expected) for v in after]
    assert {v.label for v in after} == {"supported", "contradicted", "unverifiable"}
