"""What a model is asked: the prompt for an instance and the verifier's feedback, per language.

A plugin renders its own prompts through the ``render_prompt`` hook; without one the
default is a short system message in the instance's language and the instance's prompt
followed by its context as JSON. Feedback phrases exist for en, es and pt; any other
language gets the English phrases with an instruction to answer in that language.
"""

from __future__ import annotations

import json

from factcov.model import Instance

LANGUAGE_NAMES = {"en": "English", "es": "Spanish", "pt": "Portuguese", "fr": "French", "de": "German",
                  "it": "Italian"}

SYSTEM = {
    "en": "You write short, precise explanations of data. Use only the data you are given, state "
    "numbers and names exactly as the data has them, and cover every fact that matters. Answer in English.",
    "es": "Escribes explicaciones breves y precisas de datos. Usa solo los datos que recibes, da los "
    "números y nombres exactamente como están en los datos y cubre todos los hechos relevantes. "
    "Responde en español.",
    "pt": "Você escreve explicações curtas e precisas de dados. Use apenas os dados recebidos, dê os "
    "números e nomes exatamente como estão nos dados e cubra todos os fatos relevantes. Responda em português.",
}
DATA_HEADER = {"en": "Data (JSON):", "es": "Datos (JSON):", "pt": "Dados (JSON):"}

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


def default_messages(instance: Instance) -> list[dict[str, str]]:
    language = instance.language
    system = SYSTEM.get(language) or SYSTEM["en"].replace(
        "Answer in English.", f"Answer in {LANGUAGE_NAMES.get(language, language)}.")
    header = DATA_HEADER.get(language, DATA_HEADER["en"])
    context = json.dumps(instance.context, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    prompt = instance.prompt or f"{instance.task} ({instance.domain})"
    return [{"role": "system", "content": system}, {"role": "user", "content": f"{prompt}\n\n{header}\n{context}"}]


def prompt_messages(instance: Instance) -> list[dict[str, str]]:
    """The messages for ``instance``: a plugin's ``render_prompt`` answer, else the default."""
    from factcov.plugins import load_plugins, pm

    load_plugins()
    rendered = pm.hook.render_prompt(domain=instance.domain, instance=instance)
    if rendered is None:
        return default_messages(instance)
    return [{"role": str(m["role"]), "content": str(m["content"])} for m in rendered]
