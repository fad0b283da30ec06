"""The f1 regex path end to end (extract + verify + score with Evaluator): generations/s
per language, on realized texts and on hand-varied texts.

Instances: every instance of the first --rounds rounds of --season (built from
../shared/data/f1). Realized texts: the silver-template realizer on all facts.
Hand-varied texts: the same facts in other wordings (below, written for this benchmark,
not the realizer's), so the figures also show how much of a differently worded text the
grammar reads (mean recall and precision).

    python benchmarks/f1_regex.py [--season 2021] [--rounds 4] [--repeat 3]
    python benchmarks/f1_regex.py --baseline 4e89082   # the same figures on that commit's code, same run

Rates are texts per CPU second of this process (``time.process_time``, which other jobs on
a shared machine do not inflate). "cold" is a fresh ``Evaluator``'s first pass (knowledge
built, extractors compiled); the others the best of --repeat passes of a warm one; "µs
read" is the extractor alone on the same texts (best of --repeat), "µs rest" the warm
pass's remainder per text (verification and scoring).
    python benchmarks/f1_regex.py --whole     # realized texts of all 175 races: every one P = R = 1?
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
import zlib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

COMPOUND = {
    "en": {"SOFT": "softs", "MEDIUM": "mediums", "HARD": "hards", "INTERMEDIATE": "inters", "WET": "full wets"},
    "es": {"SOFT": "blandos", "MEDIUM": "medios", "HARD": "duros", "INTERMEDIATE": "intermedios", "WET": "de lluvia"},
    "pt": {"SOFT": "macios", "MEDIUM": "médios", "HARD": "duros", "INTERMEDIATE": "intermediários", "WET": "de chuva"},
}
SEQ = {
    "en": {"SOFT": "soft", "MEDIUM": "medium", "HARD": "hard", "INTERMEDIATE": "inter", "WET": "wet"},
    "es": {"SOFT": "blando", "MEDIUM": "medio", "HARD": "duro", "INTERMEDIATE": "intermedio", "WET": "wets"},
    "pt": {"SOFT": "macio", "MEDIUM": "médio", "HARD": "duro", "INTERMEDIATE": "intermediário", "WET": "wets"},
}
ORD = {"en": ["", "1st", "2nd", "3rd"] + [f"{n}th" for n in range(4, 21)],
       "es": [""] + [f"{n}.º" for n in range(1, 21)], "pt": [""] + [f"{n}º" for n in range(1, 21)]}


def surname(context: dict, code: str) -> str:
    for driver in context["race"]["drivers"]:
        if driver["code"] == code:
            return driver["name"].split()[-1]
    return code


def varied(instance, rng: random.Random) -> str:
    """The instance's facts in wordings of their own (a person's variety, not the realizer's)."""
    lang, ctx = instance.language, instance.context
    by_type: dict[str, list] = {}
    for fact in instance.facts:
        by_type.setdefault(fact.type, []).append(fact)
    out = []
    for fact in by_type.get("winner", []):
        d = surname(ctx, fact.value)
        out.append(rng.choice({"en": [f"Victory went to {d}.", f"{d} took the win."],
                               "es": [f"La victoria fue para {d}.", f"{d} se llevó la victoria."],
                               "pt": [f"A vitória foi de {d}.", f"{d} venceu."]}[lang]))
    for fact in by_type.get("stop_count", []):
        d, n = surname(ctx, fact.key["driver"]), fact.value
        out.append({"en": f"{d} ran a {n}-stop race.", "es": f"{d} hizo una carrera a {n} paradas.",
                    "pt": f"{d} fez uma corrida de {n} paradas."}[lang])
    focus = instance.id.split(":")[4] if instance.task == "tyre_strategy" else None
    laps = [f.value for f in by_type.get("pit_lap", []) if f.key["driver"] == focus]
    if laps:
        d = surname(ctx, focus)
        joined = {"en": " and ", "es": " y ", "pt": " e "}[lang].join(str(x) for x in laps)
        plural = "s" if len(laps) > 1 else ""
        out.append({"en": f"{d} boxed on lap{plural} {joined}.",
                    "es": f"{d} paró en la{plural} vuelta{plural} {joined}.",
                    "pt": f"{d} parou na{plural} volta{plural} {joined}."}[lang])
    else:
        for fact in by_type.get("pit_lap", []):
            d = surname(ctx, fact.key["driver"])
            out.append({"en": f"{d} came in on lap {fact.value}.", "es": f"{d} entró a boxes en la vuelta {fact.value}.",
                        "pt": f"{d} foi aos boxes na volta {fact.value}."}[lang])
    stints = by_type.get("stint_compound", [])
    if len(stints) == 1:
        d, c = surname(ctx, stints[0].key["driver"]), COMPOUND[lang][stints[0].value]
        out.append({"en": f"{d} ran the whole race on {c}.", "es": f"{d} hizo toda la carrera con {c}.",
                    "pt": f"{d} fez a corrida inteira com {c}."}[lang])
    if len(stints) > 1:
        d = surname(ctx, stints[0].key["driver"])
        seq = "-".join(SEQ[lang][f.value] for f in stints)
        out.append({"en": f"{d} went {seq}.", "es": f"{d} usó la secuencia {seq}.", "pt": f"{d} usou a sequência {seq}."}[lang])
    for fact in by_type.get("final_position", []):
        d, n = surname(ctx, fact.key["driver"]), fact.value
        out.append(rng.choice({"en": [f"{d} came home {ORD['en'][n]}.", f"{d} finished P{n}."],
                               "es": [f"{d} acabó {ORD['es'][n]}.", f"{d} cruzó la meta en la posición {n}."],
                               "pt": [f"{d} chegou em {ORD['pt'][n]}.", f"{d} cruzou a linha em P{n}."]}[lang]))
    for fact in by_type.get("retired", []):
        d = surname(ctx, fact.key["driver"])
        out.append({"en": f"{d} did not finish.", "es": f"{d} no terminó.", "pt": f"{d} não terminou."}[lang]
                   if fact.value else {"en": f"{d} saw the chequered flag.", "es": f"{d} llegó a meta.",
                                       "pt": f"{d} recebeu a bandeirada."}[lang])
    for kind in ("undercut", "overcut"):
        for fact in by_type.get(kind, []):
            d, r = surname(ctx, fact.key["driver"]), surname(ctx, fact.key["rival"])
            ok = {"en": "paid off" if fact.value else "failed", "es": "dio resultado" if fact.value else "fracasó",
                  "pt": "deu certo" if fact.value else "falhou"}[lang]
            out.append({"en": f"The {kind} by {d} against {r} {ok}.", "es": f"El {kind} de {d} contra {r} {ok}.",
                        "pt": f"O {kind} de {d} contra {r} {ok}."}[lang])
    for fact in by_type.get("time_gained", []):
        d, v = surname(ctx, fact.key["driver"]), fact.value
        s = f"{abs(v):.1f}" if lang == "en" else f"{abs(v):.1f}".replace(".", ",")
        verb = {"en": ("gained", "lost"), "es": ("recortó", "perdió"), "pt": ("ganhou", "perdeu")}[lang][v < 0]
        out.append({"en": f"{d} {verb} about {s} s.", "es": f"{d} {verb} unos {s} segundos.",
                    "pt": f"{d} {verb} cerca de {s} segundos."}[lang])
    for fact in by_type.get("defense", []):
        d, a = surname(ctx, fact.key["driver"]), surname(ctx, fact.key["attacker"])
        out.append({"en": f"{a} was stuck behind {d} for {fact.value} laps.",
                    "es": f"{a} quedó atascado detrás de {d} durante {fact.value} vueltas.",
                    "pt": f"{a} ficou preso atrás de {d} por {fact.value} voltas."}[lang])
    for fact in by_type.get("neutralization", []):
        a, b = fact.value
        name = {"SC": {"en": "safety car", "es": "coche de seguridad", "pt": "safety car"},
                "VSC": {"en": "VSC", "es": "VSC", "pt": "VSC"},
                "RED": {"en": "red flag", "es": "bandera roja", "pt": "bandeira vermelha"}}[fact.key["kind"]][lang]
        out.append({"en": f"A {name} period covered laps {a}-{b}.", "es": f"Hubo {name} entre las vueltas {a} y {b}.",
                    "pt": f"Houve {name} entre as voltas {a} e {b}."}[lang])
    return " ".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data" / "f1")
    parser.add_argument("--season", type=int, default=2021)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=3, help="timed passes (best is kept)")
    parser.add_argument("--whole", action="store_true", help="realized texts of the whole benchmark, once")
    parser.add_argument("--baseline", help="also measure this commit's code, in the same run")
    parser.add_argument("--json", action="store_true", help="print the rates as one JSON line")
    args = parser.parse_args()
    if args.whole:
        whole(args.data)
        return
    from baseline import measure_baseline

    before = measure_baseline(args.baseline, __file__)
    after = measure(args)
    if args.json:
        print(json.dumps(after))
    if before is not None:
        from baseline import print_side_by_side

        print_side_by_side(before, after, args.baseline, "texts/s")


def measure(args: argparse.Namespace) -> dict[str, float]:

    from factcov.domains.f1.instances import race_instances
    from factcov.domains.f1.source import race
    from factcov.evaluate import Evaluator
    from factcov.model import Generation
    from factcov.plugins import get_domain

    domain = get_domain("f1")
    instances = [i for r in range(1, args.rounds + 1) for i in race_instances(race(args.data, args.season, r))]
    evaluator = Evaluator(domain)
    rates: dict[str, float] = {}
    out = sys.stderr if args.json else sys.stdout
    print(f"{len(instances)} instances ({args.season} rounds 1-{args.rounds}); best of {args.repeat} passes",
          file=out)
    print(f"{'lang':4} {'texts':>6} {'kind':8} {'gen/s':>8} {'cold':>8} {'P':>6} {'R':>6} {'µs read':>9} "
          f"{'µs rest':>9}", file=out)  # per text: extraction alone, and verification + scoring
    for language in ("en", "es", "pt"):
        chosen = [i for i in instances if i.language == language]
        for kind in ("realized", "varied"):
            pairs = []
            for instance in chosen:
                rng = random.Random(zlib.crc32(instance.id.encode()))
                text = domain.realize(instance.facts, language, instance) if kind == "realized" else varied(instance, rng)
                pairs.append((instance, Generation(instance_id=instance.id, system=kind, text=text)))
            fresh = Evaluator(domain)  # every race's knowledge built, as in a real run
            fresh.extractor_for(language)
            start = time.process_time()
            fresh.evaluate(pairs)
            cold = time.process_time() - start
            best = float("inf")
            for _ in range(args.repeat):
                start = time.process_time()
                results = evaluator.evaluate(pairs)
                best = min(best, time.process_time() - start)
            extractor = evaluator.extractor_for(language)  # the same texts read alone: extraction's share
            alone = float("inf")
            for _ in range(args.repeat):
                start = time.process_time()
                for instance, generation in pairs:
                    extractor.extract(generation.text, instance)
                alone = min(alone, time.process_time() - start)
            metrics = [r.score.metrics(evaluator.policy) for r in results]
            p = statistics.mean(m["precision"] for m in metrics if m["precision"] is not None)
            r = statistics.mean(m["recall"] for m in metrics if m["recall"] is not None)
            rates[f"{language} {kind}"] = len(pairs) / best
            rates[f"{language} {kind} cold"] = len(pairs) / cold
            rates[f"{language} {kind} extraction alone"] = len(pairs) / alone
            print(f"{language:4} {len(pairs):6d} {kind:8} {len(pairs) / best:8,.0f} {len(pairs) / cold:8,.0f} "
                  f"{p:6.3f} {r:6.3f} {alone / len(pairs) * 1e6:9.0f} {(best - alone) / len(pairs) * 1e6:9.0f}",
                  file=out)
    return rates


def whole(data: Path) -> None:
    """Realize every instance of the whole benchmark and score it (one pass)."""
    from factcov.domains.f1.build import iter_race_instances
    from factcov.evaluate import Evaluator
    from factcov.model import Generation
    from factcov.plugins import get_domain

    domain = get_domain("f1")
    evaluator = Evaluator(domain)
    total = perfect = 0
    start = time.perf_counter()
    for batch in iter_race_instances(sorted((data / "laps").glob("*.csv.gz")), data / "ergast"):
        pairs = [(i, Generation(instance_id=i.id, system="complete", text=domain.realize(i.facts, i.language, i)))
                 for i in batch]
        for result in evaluator.evaluate(pairs):
            metrics = result.score.metrics(evaluator.policy)
            total += 1
            perfect += metrics["precision"] == 1.0 and metrics["recall"] == 1.0
    seconds = time.perf_counter() - start
    print(f"{total} realized instances, {perfect} with P = R = 1; {seconds:.0f} s including the build")


if __name__ == "__main__":
    main()
