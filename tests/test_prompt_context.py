"""Prompts that fit a small model's context (issue 30): each domain's compact context keeps
every value the oracle states, and the prompt variants of the paper's study."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from factcov.inputs import load_instances
from factcov.model import Fact
from factcov.plugins import get_domain
from factcov.prompts import COVER_ALL, NEUTRAL, PromptTemplate, prompt_messages, resolve_variant
from tests.test_loop import F1_DEMO, WEATHER_DEMO

# Every token of any byte-level tokenizer (GPT's, Llama's, SmolLM2's) covers at least one byte:
# a prompt of at most this many UTF-8 bytes is at most this many tokens, whatever the model.
MAX_F1_PROMPT_TOKENS = 2000


def demo(domain: str):
    return list(load_instances(F1_DEMO if domain == "f1" else WEATHER_DEMO, get_domain(domain)).values())


def shown_values(fact: Fact) -> list[str]:
    """How each part of a fact's value is written in the prompt."""
    values = fact.value if isinstance(fact.value, list) else [fact.value]
    shown = []
    for value in values:
        if isinstance(value, bool):
            shown.append("yes" if value else "no")
        elif isinstance(value, float) and value.is_integer() and fact.type != "time_gained":
            shown.append(str(int(value)))
        else:
            shown.append(str(value))
    return shown


def appears(value: str, text: str) -> bool:
    return re.search(rf"(?<![\w.]){re.escape(value)}(?![\w]|\.\d)", text, flags=re.IGNORECASE) is not None


@pytest.mark.parametrize("domain", ["f1", "weather"])
def test_every_oracle_value_is_in_the_compact_prompt(domain: str) -> None:
    missing = []
    for instance in demo(domain):
        user = prompt_messages(instance)[1]["content"]
        assert "{" not in user  # not JSON: the domain's compact rendering
        for fact in instance.facts:
            if domain == "weather" and fact.type in ("sky", "condition", "precip_chance", "wind_speed"):
                continue  # derived by the oracle from words and ranges, checked below
            for value in shown_values(fact):
                if not appears(value, user):
                    missing.append((instance.id, fact.type, value))
    assert missing == []


def test_weather_prompt_keeps_the_fields_the_oracle_reads() -> None:
    for instance in demo("weather"):
        user = prompt_messages(instance)[1]["content"]
        context = instance.context
        assert f"Forecast: {context['shortForecast']}" in user
        assert f"Wind speed: {context['windSpeed']}" in user
        chance = (context.get("probabilityOfPrecipitation") or {}).get("value")
        assert (f"Chance of precipitation: {chance}%" in user) == (chance is not None)


def test_f1_prompts_fit_2000_tokens_and_name_only_the_drivers_involved() -> None:
    instances = demo("f1")
    for instance in instances:
        for variant in (NEUTRAL, COVER_ALL):
            size = sum(len(m["content"].encode()) for m in prompt_messages(instance, variant))
            assert size <= MAX_F1_PROMPT_TOKENS, (instance.id, size)
    undercut = next(i for i in instances if i.task == "undercut")
    user = prompt_messages(undercut)[1]["content"]
    involved = {undercut.context["focus"]["driver"], undercut.context["focus"]["rival"]}
    others = {d["code"] for d in undercut.context["race"]["drivers"]} - involved
    assert all(f"{code} = " in user for code in involved)
    assert not any(f"{code} = " in user for code in others)


def test_variants_differ_only_in_the_instruction() -> None:
    instance = demo("weather")[0]
    neutral, cover = prompt_messages(instance, NEUTRAL), prompt_messages(instance, COVER_ALL)
    assert neutral[1] == cover[1]
    assert "every fact" in cover[0]["content"] and "every fact" not in neutral[0]["content"]
    assert "short" not in neutral[0]["content"]  # the paper's neutral prompt has no length instruction


def test_a_template_file_fills_the_instance_fields(tmp_path: Path) -> None:
    from factcov.errors import InputError

    template = tmp_path / "mine.txt"
    template.write_text("Task {task} for {id} in {language}:\n{context}\n{{literal}}", encoding="utf-8")
    variant = resolve_variant(str(template))
    assert isinstance(variant, PromptTemplate) and variant.name == "file:mine.txt"
    instance = demo("weather")[0]
    user = prompt_messages(instance, variant)[1]["content"]
    assert user.startswith(f"Task period_forecast for {instance.id} in English:\nPeriod: ") and "{literal}" in user
    template.write_text("{prompt} {secret}", encoding="utf-8")
    with pytest.raises(InputError, match=r"unknown field \{secret\}"):
        resolve_variant(str(template))
    with pytest.raises(InputError, match="--prompt must be neutral or cover-all"):
        resolve_variant("cover_all")
