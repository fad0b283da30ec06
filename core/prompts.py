"""What a model is asked: the prompt for an instance and the verifier's feedback, per language.

A plugin renders its own prompts through the ``render_prompt`` hook; without one the
default is a short system message in the instance's language and the instance's prompt
followed by its context: the domain's compact rendering (``Domain.prompt_context``), or
the context as JSON. Feedback phrases exist for en, es and pt; any other language gets
the English phrases with an instruction to answer in that language.

Prompt variants (``--prompt``), the paper's prompt study: ``neutral`` (the default: explain
using only the data, no length or coverage instruction) and ``cover-all`` (an explicit
instruction to state every fact the data supports); or a template file whose ``{prompt}``,
``{context}``, ``{language}``, ``{task}``, ``{id}`` and ``{domain}`` fields are filled per
instance (the system message stays the neutral one).
"""

from __future__ import annotations

import json
import string
from pathlib import Path

from factcov.model import Instance

LANGUAGE_NAMES = {"en": "English", "es": "Spanish", "pt": "Portuguese", "fr": "French", "de": "German",
                  "it": "Italian"}

NEUTRAL = "neutral"
COVER_ALL = "cover-all"
VARIANTS = (NEUTRAL, COVER_ALL)

SYSTEMS = {
    NEUTRAL: {
        "en": "You explain data. Use only the data you are given. Answer in English.",
        "es": "Explicas datos. Usa solo los datos que recibes. Responde en español.",
        "pt": "Você explica dados. Use apenas os dados recebidos. Responda em português.",
    },
    COVER_ALL: {
        "en": "You write precise explanations of data. Use only the data you are given, state numbers and "
        "names exactly as the data has them, and state every fact the data supports. Answer in English.",
        "es": "Escribes explicaciones precisas de datos. Usa solo los datos que recibes, da los números y "
        "nombres exactamente como están en los datos y menciona todos los hechos que los datos respaldan. "
        "Responde en español.",
        "pt": "Você escreve explicações precisas de dados. Use apenas os dados recebidos, dê os números e "
        "nomes exatamente como estão nos dados e mencione todos os fatos que os dados sustentam. "
        "Responda em português.",
    },
}
SYSTEM = SYSTEMS[NEUTRAL]
DATA_HEADER = {"en": "Data:", "es": "Datos:", "pt": "Dados:"}
JSON_HEADER = {"en": "Data (JSON):", "es": "Datos (JSON):", "pt": "Dados (JSON):"}

FEEDBACK = {
    "en": {
        "intro": "A checker compared your text with the data and found these problems:",
        "wrong": 'Wrong: you wrote "{quote}", but the data says: {truth}',
        "unverifiable": 'Not in the data (correct it or leave it out): "{quote}"',
        "missing": "Missing (add this): {fact}",
        "outro": "Rewrite the whole text with these corrections, using only the data. Reply with the text only.",
    },
    "es": {
        "intro": "Un verificador comparó tu texto con los datos y encontró estos problemas:",
        "wrong": 'Incorrecto: escribiste «{quote}», pero los datos dicen: {truth}',
        "unverifiable": 'No está en los datos (corrígelo u omítelo): «{quote}»',
        "missing": "Falta (añádelo): {fact}",
        "outro": "Reescribe el texto completo con estas correcciones, usando solo los datos. "
        "Responde solo con el texto.",
    },
    "pt": {
        "intro": "Um verificador comparou o seu texto com os dados e encontrou estes problemas:",
        "wrong": 'Errado: você escreveu «{quote}», mas os dados dizem: {truth}',
        "unverifiable": 'Não está nos dados (corrija ou omita): «{quote}»',
        "missing": "Falta (acrescente): {fact}",
        "outro": "Reescreva o texto inteiro com estas correções, usando apenas os dados. "
        "Responda apenas com o texto.",
    },
}


def phrases(language: str) -> dict[str, str]:
    if language in FEEDBACK:
        return FEEDBACK[language]
    english = dict(FEEDBACK["en"])
    name = LANGUAGE_NAMES.get(language, language)
    english["outro"] = english["outro"].replace("Reply with the text only.", f"Reply with the text only, in {name}.")
    return english


def context_text(instance: Instance) -> tuple[str, bool]:
    """(the context as the prompt shows it, whether it is the domain's compact rendering)."""
    from factcov.errors import UnknownNameError
    from factcov.plugins import get_domain

    try:
        compact = get_domain(instance.domain).prompt_context(instance)
    except UnknownNameError:
        compact = None
    if compact is not None:
        return compact, True
    return json.dumps(instance.context, ensure_ascii=False, sort_keys=True, separators=(",", ":")), False


def system_message(language: str, variant: str = NEUTRAL) -> str:
    systems = SYSTEMS.get(variant, SYSTEMS[NEUTRAL])
    return systems.get(language) or systems["en"].replace(
        "Answer in English.", f"Answer in {LANGUAGE_NAMES.get(language, language)}.")


def default_messages(instance: Instance, variant: str = NEUTRAL) -> list[dict[str, str]]:
    language = instance.language
    context, compact = context_text(instance)
    header = (DATA_HEADER if compact else JSON_HEADER).get(language, (DATA_HEADER if compact else JSON_HEADER)["en"])
    prompt = instance.prompt or f"{instance.task} ({instance.domain})"
    return [{"role": "system", "content": system_message(language, variant)},
            {"role": "user", "content": f"{prompt}\n\n{header}\n{context}"}]


class PromptTemplate:
    """A user-message template read from a file (``--prompt PATH``); its name in meta is ``file:NAME``."""

    FIELDS = ("prompt", "context", "language", "task", "id", "domain")

    def __init__(self, path: str | Path) -> None:
        from factcov.errors import InputError

        self.path = Path(path)
        try:
            self.text = self.path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise InputError(f"cannot read the prompt template: {error}", path=path) from None
        try:
            fields = {name for _, name, _, _ in string.Formatter().parse(self.text) if name is not None}
        except ValueError as error:
            raise InputError(f"not a valid template ({error}); write a literal brace as {{{{ or }}}}",
                             path=path) from None
        unknown = sorted(fields - set(self.FIELDS))
        if unknown:
            raise InputError(f"unknown field {{{unknown[0]}}}; a template may use "
                             + ", ".join(f"{{{f}}}" for f in self.FIELDS), path=path)
        self.name = f"file:{self.path.name}"

    def messages(self, instance: Instance) -> list[dict[str, str]]:
        values = {"prompt": instance.prompt or f"{instance.task} ({instance.domain})", "context": context_text(instance)[0],
                  "language": LANGUAGE_NAMES.get(instance.language, instance.language), "task": instance.task,
                  "id": instance.id, "domain": instance.domain}
        return [{"role": "system", "content": system_message(instance.language)},
                {"role": "user", "content": self.text.format_map(values)}]


def resolve_variant(value: str | None) -> str | PromptTemplate:
    """``--prompt``: a variant name, or a template file's path."""
    if value is None or value in VARIANTS:
        return value or NEUTRAL
    if Path(value).exists() or "/" in value or value.endswith(".txt"):
        return PromptTemplate(value)
    from factcov.errors import InputError

    raise InputError(f"--prompt must be {' or '.join(VARIANTS)} or a template file, got {value!r}")


def variant_name(variant: str | PromptTemplate) -> str:
    return variant.name if isinstance(variant, PromptTemplate) else variant


def prompt_messages(instance: Instance, variant: str | PromptTemplate = NEUTRAL) -> list[dict[str, str]]:
    """The messages for ``instance``: a plugin's ``render_prompt`` answer, else the variant's."""
    from factcov.plugins import load_plugins, pm

    load_plugins()
    rendered = pm.hook.render_prompt(domain=instance.domain, instance=instance)
    if rendered is None:
        if isinstance(variant, PromptTemplate):
            return variant.messages(instance)
        return default_messages(instance, variant)
    return [{"role": str(m["role"]), "content": str(m["content"])} for m in rendered]
