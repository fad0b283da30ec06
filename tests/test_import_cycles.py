"""No two factcov modules import each other at import time (issue 10 broke runner<->distributed,
rag/domain<->rag/scoring and weather/domain<->weather/demo): a cycle makes import order matter
and hides which module owns what. Imports inside functions and under TYPE_CHECKING do not count."""

import ast
import graphlib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGES = {"core": "factcov", "domains": "factcov.domains", "extractors": "factcov.extractors"}


def modules() -> dict[str, Path]:
    found = {}
    for folder, package in PACKAGES.items():
        for path in (REPO / folder).rglob("*.py"):
            parts = [p for p in path.relative_to(REPO / folder).with_suffix("").parts if p != "__init__"]
            found[".".join([package, *parts])] = path
    return found


def import_time_imports(tree: ast.Module) -> set[str]:
    """Every module named by an import run when the module is imported: the top level and
    the branches of top-level if/try, except ``if TYPE_CHECKING:``."""
    names: set[str] = set()

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.If):
                if "TYPE_CHECKING" not in ast.unparse(node.test):
                    visit(node.body)
                visit(node.orelse)
            elif isinstance(node, ast.Try):
                visit(node.body + node.orelse + node.finalbody + [s for h in node.handlers for s in h.body])
            elif isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module)
                names.update(f"{node.module}.{alias.name}" for alias in node.names)  # a submodule imported by name

    visit(tree.body)
    return names


def import_graph() -> dict[str, set[str]]:
    found = modules()
    return {
        name: {other for other in import_time_imports(ast.parse(path.read_text("utf-8"))) if other in found and other != name}
        for name, path in found.items()
    }


def test_the_graph_sees_the_imports_it_should():
    graph = import_graph()
    assert "factcov.domains.weather.demo" in graph["factcov.domains.weather.domain"]
    assert "factcov.domains.rag.scoring" in graph["factcov.domains.rag.domain"]
    assert "factcov.distributed" not in graph["factcov.runner"]  # imported inside a function only


def test_no_import_cycle_between_factcov_modules():
    try:
        graphlib.TopologicalSorter(import_graph()).prepare()
    except graphlib.CycleError as error:
        pytest.fail(f"import cycle: {' -> '.join(error.args[1])}")


# --- layering (issue 28): which package may import which, imports inside functions included -------------

# The command line's face: what factcov's commands (and the domains' own, through factcov.commands) run on.
COMMAND_LAYER = ("factcov.cli", "factcov.commands")
# What plugin authors test with: it runs the validations' perturbations over an extractor.
TEST_KIT = ("factcov.testing", "factcov.pytest_plugin")


def every_import(tree: ast.Module) -> set[str]:
    """Every module an import statement names, wherever it stands (in a function too)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def within(module: str, packages: tuple[str, ...]) -> bool:
    return any(module == package or module.startswith(package + ".") for package in packages)


def layer(module: str) -> str:
    """The package a module belongs to for layering: each domain, extractors, the validations, the
    command line (with factcov.commands), the test kit, and the engine (the rest of factcov, report included)."""
    if module.startswith("factcov.domains."):
        return ".".join(module.split(".")[:3])
    for name, packages in (("commands", COMMAND_LAYER), ("test kit", TEST_KIT), ("validation", ("factcov.validation",)),
                           ("extractors", ("factcov.extractors",))):
        if within(module, packages):
            return name
    return "engine"


def layer_graph() -> dict[str, set[str]]:
    found = modules()
    graph: dict[str, set[str]] = {}
    for name, path in found.items():
        for other in every_import(ast.parse(path.read_text("utf-8"))):
            if other in found and layer(other) != layer(name):
                graph.setdefault(layer(name), set()).add(layer(other))
    return graph


def test_the_layers_see_the_imports_they_should():
    graph = layer_graph()
    assert "engine" in graph["commands"] and "validation" in graph["commands"]
    assert "engine" in graph["factcov.domains.f1"] and "extractors" in graph["factcov.domains.f1"]
    assert layer("factcov.commands") == layer("factcov.cli.app") == "commands"
    assert layer("factcov.report.render") == layer("factcov.runner") == "engine"


def test_no_domain_imports_the_command_line():
    """Domains get options, console, config and gates from factcov.commands; factcov.cli imports the
    domains' commands, so a domain importing it would tie the two both ways."""
    offenders = sorted(
        f"{name} imports {other}"
        for name, path in modules().items() if name.startswith("factcov.domains.")
        for other in every_import(ast.parse(path.read_text("utf-8"))) if within(other, ("factcov.cli",))
    )
    assert not offenders, "\n".join(offenders)


def test_the_engine_imports_neither_the_command_line_nor_the_validations():
    """runner, generate, refine show progress through factcov.progress; aggregate and compare take their
    statistics from factcov.statistics. Nothing the commands are built on imports the commands."""
    offenders = sorted(
        f"{name} imports {other}"
        for name, path in modules().items() if layer(name) in ("engine", "extractors")
        for other in every_import(ast.parse(path.read_text("utf-8")))
        if within(other, ("factcov.validation", *COMMAND_LAYER, *TEST_KIT))
    )
    assert not offenders, "\n".join(offenders)


def test_no_cycle_between_layers():
    try:
        graphlib.TopologicalSorter(layer_graph()).prepare()
    except graphlib.CycleError as error:
        pytest.fail(f"package cycle: {' -> '.join(error.args[1])}")


# --- every built-in domain the same shape (issue 28) ----------------------------------------------------

DOMAIN_FILES = ("domain.py", "claims.py", "oracle.py", "extractor.py", "realizer.py", "commands.py", "demo.py")


@pytest.mark.parametrize("domain", [
    "f1",
    "weather",
    "rag",
])
def test_every_domain_has_the_same_files(domain):
    folder = REPO / "domains" / domain
    missing = [name for name in DOMAIN_FILES if not (folder / name).is_file()]
    assert not missing, f"domains/{domain} lacks {', '.join(missing)}"


def test_every_domain_folder_is_checked_for_its_shape():
    folders = {p.name for p in (REPO / "domains").iterdir() if (p / "__init__.py").is_file()}
    assert folders == {"f1", "weather", "rag"}, "a new built-in domain: add it to test_every_domain_has_the_same_files"
