"""`factcov domains` and `factcov plugins`: what is installed."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    app.command("domains")(domains)
    app.command("plugins")(plugins)


def domains(
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Also list each claim type's key slots, value kind, comparator and world."),
) -> None:
    """List domains with their claim types, languages and extractors."""
    from rich.console import Console
    from rich.table import Table

    from factcov.plugins import domains as domain_registry
    from factcov.plugins import extractors_for, load_plugins

    load_plugins()
    table = Table(title="factcov domains", show_lines=True)
    for column in ("domain", "plugin", "languages", "tasks", "claim types", "extractors"):
        table.add_column(column, no_wrap=column == "extractors")
    # each domain's and extractor's listing: declared by its plugin beside a lazy
    # registration (nothing imported), else read off its class
    for name in domain_registry.names():
        domain = domain_registry.listing(name)
        names = extractors_for(name)
        types = ", ".join(domain["claim_types"])
        extractors_text = ", ".join(
            f"{e} (default)" if e == domain["default_extractor"] else e for e in names
        )
        table.add_row(
            f"{name}\n{domain['description']}",
            f"{domain_registry.plugin_of(name)}\n{domain['version']}",
            ", ".join(domain["languages"]),
            ", ".join(domain["tasks"]),
            types,
            extractors_text,
        )
    console = Console()
    if not console.is_terminal:  # piped or captured: no wrapping of names people grep for
        console = Console(width=240)
    console.print(table)
    if verbose:
        for name in domain_registry.names():
            console.print(claim_type_table(name, domain_registry.get(name).claim_types))


def claim_type_table(domain: str, claim_types: list) -> object:
    """One row per claim type: key slots, value kind, comparator and world."""
    from rich.markup import escape
    from rich.table import Table

    table = Table(title=f"claim types of {domain}")
    for column in ("claim type", "key slots", "value", "comparator", "world"):
        table.add_column(column)
    for ct in claim_types:  # escaped: rich reads "[...]" in a comparator's text as a style tag
        table.add_row(ct.name, ", ".join(ct.key_slots) or "-", ct.value_kind, escape(ct.comparator.describe()),
                      "closed" if ct.closed_world else "open")
    return table


def plugins() -> None:
    """List loaded plugins with their versions and the hooks they implement."""
    from rich.console import Console
    from rich.table import Table

    from factcov.plugins import plugin_infos

    table = Table(title="factcov plugins")
    for column in ("plugin", "version", "built-in", "hooks"):
        table.add_column(column)
    for info in plugin_infos():
        table.add_row(info.name, info.version or "(factcov)", "yes" if info.builtin else "no", ", ".join(info.hooks))
    Console().print(table)
