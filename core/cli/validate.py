"""`factcov validate perturb|agreement|human|errors`: is the metric worth trusting?"""

from __future__ import annotations

import json
from pathlib import Path

import typer

from factcov.cli import options
from factcov.cli.console import console as _console
from factcov.cli.console import fmt as _fmt
from factcov.cli.console import interval as _ci
from factcov.limits import MAX_BOOTSTRAP

validate_app = typer.Typer(
    help="Validate the metric: controlled perturbations, agreement of two scorings, human judgments, annotated errors.",
    no_args_is_help=True,
)


def register(app: typer.Typer) -> None:
    app.add_typer(validate_app, name="validate")


@validate_app.command("perturb")
def perturb(
    domain: str = options.DOMAIN,
    instances: Path | None = typer.Option(
        None, "--instances", "-i", dir_okay=False, help="Instances JSONL; default: the domain's example instances."
    ),
    extractor: str | None = options.EXTRACTOR,
    extractor_option: list[str] | None = options.EXTRACTOR_OPTIONS,
    seed: int = typer.Option(0, "--seed", min=0, help="Seed of the perturbations."),
    k: int | None = typer.Option(None, "--k", min=1, help="Facts dropped/corrupted/repeated per text; default a third."),
    max_instances: int = typer.Option(50, "--max-instances", min=1, help="Perturb at most this many instances."),
    as_json: bool = typer.Option(False, "--json", help="Print the checks as JSON instead of a table."),
    write_gold: Path | None = typer.Option(
        None, "--write-gold", file_okay=False,
        help="Also write DIR/instances.jsonl, generations.jsonl and errors.jsonl (corrupted spans) for `validate errors`.",
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No table: only the exit code and, on failure, one line."),
) -> None:
    """Damage complete, correct texts in known ways; exit 1 if a metric moves the wrong way."""
    from factcov.errors import GateFailed, InputError
    from factcov.inputs import load_instances
    from factcov.plugins import get_domain
    from factcov.validation.perturb import run_perturbations

    plugin = get_domain(domain)
    chosen = list(load_instances(instances, plugin).values()) if instances is not None else None
    outcome = run_perturbations(plugin, chosen, extractor=extractor, seed=seed, k=k, max_instances=max_instances,
                                extractor_options=options.parse_extractor_options(extractor_option, extractor, domain))
    if not outcome.instances:
        raise InputError(f"domain '{domain}' gave no instance with facts to perturb", path=instances)
    if write_gold is not None:
        from factcov.validation.corrupted_gold import write_gold as write_gold_files

        written = write_gold_files(plugin, chosen if chosen is not None else plugin.example_instances(), write_gold,
                                   seed=seed, k=k, max_instances=max_instances)
        if not quiet:
            typer.echo(f"wrote {written['errors']} gold errors in {written['generations']} texts of "
                       f"{written['instances']} instances to {write_gold}", err=True)
    if as_json and not quiet:
        typer.echo(json.dumps({
            "domain": outcome.domain, "extractor": outcome.extractor, "seed": outcome.seed,
            "instances": outcome.instances, "summary": outcome.summary(), "unperturbable": outcome.unperturbable,
            "violations": [vars(v) for v in outcome.violations],
        }, indent=2))
    elif not quiet:
        _print_perturbations(outcome)
    if outcome.violations:
        first = outcome.violations[0]
        raise GateFailed(
            f"{len(outcome.violations)} perturbation check(s) moved the wrong way; first: {first.instance_id} "
            f"{first.kind}: {first.metric} expected {first.expected}, {_fmt(first.before)} -> {_fmt(first.after)}"
        )


def _print_perturbations(outcome) -> None:
    from rich.markup import escape
    from rich.table import Table

    table = Table(title=f"perturbations of {outcome.domain} ({outcome.instances} instances, "
                  f"extractor {outcome.extractor}, seed {outcome.seed})")
    for column in ("perturbation", "metric", "expected", "before", "after", "checks", "violations"):
        table.add_column(column, justify="left" if column in ("perturbation", "metric", "expected") else "right")
    for row in outcome.summary():
        bad = row["violations"] > 0
        table.add_row(
            row["perturbation"], row["metric"], row["expected"], _fmt(row["before"]), _fmt(row["after"]),
            str(row["checks"]), f"[bold red]{row['violations']}[/]" if bad else "0",
        )
    console = _console()
    console.print(table)
    console.print("baseline: 'before' is the ideal 1, 'after' what the realized complete text scored; "
                  "later rows compare with that text.", style="dim", highlight=False)
    for why in outcome.unperturbable.values():
        console.print(f"not corrupted (override Domain.perturb or give the claim type choices): {why}",
                      markup=False, highlight=False)
    for check in outcome.violations[:10]:
        console.print(
            f"[red]✗[/] {escape(check.instance_id)} {check.kind} ({escape(check.detail)}): {check.metric} expected "
            f"{check.expected}, {_fmt(check.before)} → {_fmt(check.after)}", highlight=False,
        )
    if len(outcome.violations) > 10:
        console.print(f"… and {len(outcome.violations) - 10} more (--json lists them all)", highlight=False)


@validate_app.command("agreement")
def agreement(
    results_a: Path = typer.Argument(..., help="OUTDIR of the first scoring.", file_okay=False),
    results_b: Path = typer.Argument(..., help="OUTDIR of the second scoring (same generations).", file_okay=False),
    metric: str = typer.Option("f1", "--metric", "-m", help="precision, recall, f1 or a metric of the runs' domain."),
    top: int = typer.Option(10, "--top", min=0, help="How many most-disagreeing generations to list."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of tables."),
) -> None:
    """How much two scorings of the same generations agree (e.g. two extractors)."""
    from factcov.validation.agreement import compare_scorings

    result = compare_scorings(results_a, results_b, metric=metric, top=top)
    if as_json:
        typer.echo(json.dumps(result, indent=2, ensure_ascii=False))
        return
    _print_agreement(result)


def _print_agreement(result: dict) -> None:
    from rich.markup import escape
    from rich.table import Table

    console = _console()
    console.print(
        f"A: {result['a']['path']} ({result['a']['extractor']})   B: {result['b']['path']} ({result['b']['extractor']})\n"
        f"{result['n_generations']} shared generations, {result['n_systems']} systems; metric {result['metric']}",
        markup=False, highlight=False,
    )
    head = Table(title="agreement")
    for column in ("level", "statistic", "precision", "recall", "f1"):
        head.add_column(column)
    head.add_row("system", "Spearman", *(_fmt(result["system_spearman"][m]) for m in ("precision", "recall", "f1")))
    head.add_row("system", "Kendall", *(_fmt(result["system_kendall"][m]) for m in ("precision", "recall", "f1")))
    head.add_row("generation", "Pearson", *(_fmt(result["instance_pearson"][m]) for m in ("precision", "recall", "f1")))
    console.print(head)
    types = Table(title="per claim type (pooled over shared generations)")
    for column in ("type", "claims A", "claims B", "precision A", "precision B", "recall A", "recall B",
                   "Pearson claims/text"):
        types.add_column(column, justify="left" if column == "type" else "right")
    for row in result["by_type"]:
        types.add_row(escape(row["type"]), str(row["claims_a"]), str(row["claims_b"]), _fmt(row["precision_a"]),
                      _fmt(row["precision_b"]), _fmt(row["recall_a"]), _fmt(row["recall_b"]),
                      _fmt(row["claims_pearson"]))
    console.print(types)
    worst = Table(title=f"largest disagreements ({result['metric']})")
    for column in ("instance", "system", "A", "B", "|A−B|", "text"):
        worst.add_column(column, overflow="fold")
    for row in result["disagreements"]:
        # Names and texts are data: escaped so "[...]" in them is shown, not read as markup.
        worst.add_row(escape(row["instance_id"]), escape(row["system"]), _fmt(row["a"]), _fmt(row["b"]),
                      _fmt(row["difference"]), escape(row["text"][:160]))
    console.print(worst)


@validate_app.command("human")
def human(
    scores: Path = typer.Option(..., "--scores", help="OUTDIR of a factcov score run.", file_okay=False),
    human_file: Path = typer.Option(..., "--human", help="Human judgments: WebNLG JSON or CSV.", dir_okay=False),
    format: str = typer.Option("auto", "--format", help="webnlg, csv or auto (by extension)."),
    metric: list[str] | None = typer.Option(
        None, "--metric", "-m",
        help="precision, recall, f1 (default), weighted_f1 or a metric of the run's domain (repeatable).",
    ),
    pairwise: bool = typer.Option(
        False, "--pairwise",
        help="--human holds pairwise preferences (instance_id,system_a,system_b and -2..2 labels, positive: A "
             "better): Pearson and Spearman of score differences with them.",
    ),
    criterion: list[str] | None = typer.Option(None, "--criterion", "-c", help="Human criterion (repeatable); default all."),
    bootstrap: int = typer.Option(1000, "--bootstrap", min=0, max=MAX_BOOTSTRAP, help="Bootstrap resamples."),
    seed: int = typer.Option(0, "--seed", min=0, help="Seed of the bootstrap."),
    positive: str | None = typer.Option(
        None, "--positive", help="Binary labels: the positive one (default: the label that reads positive)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table."),
) -> None:
    """Correlation of factcov scores with human judgments, system and segment level, with CIs.

    A CSV with a `label` column (instead of `score`) holds binary or categorical labels:
    then the ROC AUC of the metric for each label is reported, beside Spearman's rho.
    With --pairwise, a CSV of pairs of answers with people's preference: Pearson and
    Spearman of the metric's differences with the preferences."""
    from factcov.errors import InputError
    from factcov.validation.human import correlate_run
    from factcov.validation.labels import discriminate_run, is_label_file
    from factcov.validation.pairwise import correlate_pairs_run, is_pairwise_file

    if bootstrap < 0:
        raise InputError(f"--bootstrap must be 0 or more, got {bootstrap}")
    metrics = list(dict.fromkeys(metric or ["f1"]))
    if pairwise:
        if format not in ("auto", "csv"):
            raise InputError(f"--pairwise reads a CSV; --format {format} does not apply", field="format")
        paired = correlate_pairs_run(scores, human_file, metrics=metrics, criteria=criterion, n_boot=bootstrap,
                                     seed=seed)
        if as_json:
            typer.echo(json.dumps(paired, indent=2))
        else:
            _print_pairs(paired, bootstrap, seed)
        return
    if format in ("auto", "csv") and human_file.is_file() and is_pairwise_file(human_file):
        raise InputError("this CSV holds pairs (system_a, system_b): add --pairwise", path=human_file)
    if format in ("auto", "csv") and human_file.is_file() and is_label_file(human_file):
        labelled = [row for name in metrics for row in discriminate_run(
            scores, human_file, metric=name, criteria=criterion, positive=positive, n_boot=bootstrap, seed=seed)]
        if as_json:
            typer.echo(json.dumps(labelled, indent=2))
        else:
            _print_labels(labelled, metrics, bootstrap, seed)
        return
    results = [row for name in metrics for row in correlate_run(
        scores, human_file, format=format, metric=name, criteria=criterion, n_boot=bootstrap, seed=seed)]
    if as_json:
        typer.echo(json.dumps(results, indent=2))
        return
    from rich.markup import escape
    from rich.table import Table

    table = Table(title=f"{', '.join(metrics)} vs human judgments ({bootstrap} bootstrap resamples, seed {seed})")
    for column in ("metric", "criterion", "level", "n", "Spearman", "95% CI", "Kendall", "95% CI "):
        table.add_column(column, justify="left" if column in ("metric", "criterion", "level") else "right")
    for row in results:
        table.add_row(escape(row["metric"]), escape(row["criterion"]), row["level"], str(row["n"]),
                      _fmt(row["spearman"]), _ci(row["spearman_ci"]), _fmt(row["kendall"]), _ci(row["kendall_ci"]))
    _console().print(table)


def _print_pairs(results: list[dict], bootstrap: int, seed: int) -> None:
    from rich.markup import escape
    from rich.table import Table

    table = Table(title=f"score differences vs pairwise preferences ({bootstrap} bootstrap resamples, seed {seed})",
                  caption="an undefined score on either side: the median difference; accuracy: pairs people "
                          "did not tie, metric ties half")
    for column in ("metric", "criterion", "pairs", "undefined", "Pearson", "95% CI", "Spearman", "95% CI ",
                   "accuracy"):
        table.add_column(column, justify="left" if column in ("metric", "criterion") else "right")
    for row in results:
        table.add_row(escape(row["metric"]), escape(row["criterion"]), str(row["n_pairs"]), str(row["n_undefined"]),
                      _fmt(row["pearson"]), _ci(row["pearson_ci"]), _fmt(row["spearman"]), _ci(row["spearman_ci"]),
                      _fmt(row["accuracy"]))
    _console().print(table)
    unscored = max((row["n_unscored"] for row in results), default=0)
    if unscored:
        _console().print(f"{unscored} judged pair(s) name a system or instance the run did not score: left out",
                         style="yellow", highlight=False)


def _print_labels(results: list[dict], metrics: list[str], bootstrap: int, seed: int) -> None:
    from rich.markup import escape
    from rich.table import Table

    table = Table(title=f"{', '.join(metrics)} against human labels: ROC AUC ({bootstrap} bootstrap resamples, "
                  f"seed {seed})")
    for column in ("metric", "criterion", "label", "n", "AUC", "95% CI", "Spearman"):
        table.add_column(column, justify="left" if column in ("metric", "criterion", "label") else "right")
    for row in results:
        head = (escape(row["metric"]), escape(row["criterion"]))
        if row["kind"] == "binary":
            table.add_row(*head, escape(f"{row['positive']} (positive)"), str(row["n"]),
                          _fmt(row["auc"]), _ci(row["auc_ci"]), _fmt(row["spearman"]))
            continue
        for label, value in row["per_label"].items():
            table.add_row(*head, escape(f"{label} vs rest"), str(row["labels"][label]),
                          _fmt(value["auc"]), _ci(value["auc_ci"]), "—")
        table.add_row(*head, "mean", str(row["n"]), _fmt(row["auc"]), "—", "—")
    _console().print(table)


@validate_app.command("errors")
def errors(
    domain: str = options.DOMAIN,
    instances: Path = options.INSTANCES,
    generations: Path = options.GENERATIONS,
    gold: Path = typer.Option(..., "--gold", help="Gold error spans: JSONL, or the shared task's CSV.", dir_okay=False),
    gold_format: str = typer.Option("auto", "--gold-format", help="auto (by extension), jsonl or csv."),
    tokens: str = typer.Option("whitespace", "--tokens", help="Tokenization of JSONL token spans: whitespace or words."),
    span: str = typer.Option("value", "--span", help="Claim span matched: 'value' or 'statement'."),
    flag: list[str] | None = typer.Option(
        None, "--flag", help="Verdicts that flag an error (repeatable); default contradicted."
    ),
    system: str | None = typer.Option(
        None, "--system", help="Check only this system's generations (e.g. the one a shared-task CSV annotates)."
    ),
    extractor: str | None = options.EXTRACTOR,
    extractor_option: list[str] | None = options.EXTRACTOR_OPTIONS,
    misses: int = typer.Option(10, "--misses", min=0, help="How many missed errors to list (with their cause)."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of tables."),
) -> None:
    """Recall and precision of flagged claims against annotated error spans, lenient and strict."""
    from factcov.errors import InputError
    from factcov.validation.errors import validate_errors

    if span not in ("value", "statement"):
        raise InputError(f"--span must be 'value' or 'statement', got '{span}'")
    if tokens not in ("whitespace", "words"):
        raise InputError(f"--tokens must be 'whitespace' or 'words', got '{tokens}'")
    flagged = tuple(flag or ("contradicted",))
    for label in flagged:
        if label not in ("contradicted", "unverifiable"):
            raise InputError(f"--flag must be 'contradicted' or 'unverifiable', got '{label}'")
    outcome, signature = validate_errors(
        domain, instances, generations, gold, extractor=extractor,
        extractor_options=options.parse_extractor_options(extractor_option, extractor, domain),
        span=span, flagged=flagged, gold_format=gold_format, tokenization=tokens, system=system,  # type: ignore[arg-type]
    )
    result = {"signature": signature, **outcome.as_dict()}
    if as_json:
        typer.echo(json.dumps(result, indent=2, ensure_ascii=False))
        return
    _print_errors(result, misses)


def _print_errors(result: dict, misses: int) -> None:
    from rich.markup import escape
    from rich.table import Table

    from factcov.validation.errors import CAUSES

    console = _console()
    console.print(f"{result['signature']}\n{result['generations']} generations, span '{result['span']}', "
                  f"flagged: {', '.join(result['flagged'])}; out-of-scope claims (never flagged): "
                  f"{result['out_of_scope_claims']}", markup=False, highlight=False)
    head = Table(title="errors found (lenient: any overlap; strict: merged claims, one-to-one)")
    for column in ("matching", "errors", "recalled", "recall", "flagged claims", "correct", "precision"):
        head.add_column(column, justify="left" if column == "matching" else "right")
    for mode in ("lenient", "strict"):
        row = result[mode]
        head.add_row(mode, str(row["errors"]), str(row["recalled"]), _fmt(row["recall"]), str(row["predictions"]),
                     str(row["correct_predictions"]), _fmt(row["precision"]))
    console.print(head)
    short = {"no claim read": "no claim", "claim supported": "supported", "unverifiable": "unverif.",
             "out of scope": "out of scope", "taken by another error": "taken"}
    types = Table(title="per error type: recall, and why the strict matching missed the rest",
                  caption="missed because: no claim read there · a claim there was supported · unverifiable · "
                          "out of the oracle's scope · its claim was taken by another error (strict)")
    types.add_column("type", overflow="fold", min_width=12)
    for column in ("errors", "R lenient", "R strict", *(short[c] for c in CAUSES)):
        types.add_column(column, justify="right")
    for type_, row in result["strict"]["by_type"].items():
        lenient = result["lenient"]["by_type"][type_]
        types.add_row(escape(type_), str(row["errors"]), _fmt(lenient["recall"]), _fmt(row["recall"]),
                      *(str(row["missed"][cause]) for cause in CAUSES))
    console.print(types)
    alarms = [f"{escape(t)} {row['correct']}/{row['flagged']}" for t, row in result["precision_by_claim_type"].items()]
    if alarms:
        console.print("flagged claims on an error, by claim type (lenient): " + ", ".join(alarms), highlight=False)
    if result["flagged_without_span"]:
        console.print(f"{result['flagged_without_span']} flagged claim(s) have no span and cannot match an error",
                      style="yellow", highlight=False)
    for miss in result["misses"][:misses]:
        console.print(f"[red]✗[/] {escape(miss['instance_id'])} {escape(miss['system'])} {escape(miss['type'])} "
                      f"{escape(repr(miss['text']))}: {miss['cause']}", highlight=False)
