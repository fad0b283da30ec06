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
