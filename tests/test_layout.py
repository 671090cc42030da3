"""The package layout stays true: no import circles in generator/, and every
import points down the pipeline engine -> ai -> codegen -> targets -> cli.

Imports are read with ``ast`` (late imports inside functions included: they
are how circles used to hide), so nothing is executed.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "generator"
STAGES = ("engine", "ai", "codegen", "targets", "cli")  # the pipeline, top to bottom


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Module -> the modules of the package it imports (relative or absolute)."""
    files = {module_name(p, root): p for p in root.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")
                    anchor = anchor[: len(anchor) - node.level + 1]
                    base = ".".join(anchor + ([base] if base else []))
                # `from pkg import mod` imports the submodule when there is one
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in files else base for a in node.names]
            else:
                continue
            edges.update(t for t in targets if t in files and t != name)
        graph[name] = edges
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle as a list of modules (first == last), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        path.append(m)
        for n in sorted(graph.get(m, ())):
            if state.get(n) == 1:
                return path[path.index(n):] + [n]
            if n not in state and (found := visit(n)):
                return found
        path.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state and (found := visit(m)):
            return found
    return None


def stage_of(module: str) -> int | None:
    parts = module.split(".")
    return STAGES.index(parts[1]) if len(parts) > 1 and parts[1] in STAGES else None


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    """Every import from a stage to a later one (or from the root package into a stage)."""
    bad = []
    for m, edges in sorted(graph.items()):
        for n in sorted(edges):
            sm, sn = stage_of(m), stage_of(n)
            if sn is not None and (sm is None or sn > sm):
                bad.append(f"{m} imports {n}")
    return bad


def test_no_import_circle() -> None:
    assert find_cycle(import_graph()) is None


def test_imports_point_down_the_pipeline() -> None:
    assert upward_imports(import_graph()) == []


def test_every_module_is_in_a_stage_with_a_docstring() -> None:
    for p in ROOT.rglob("*.py"):
        name = module_name(p, ROOT)
        assert name == "generator" or stage_of(name) is not None, f"{name} is outside the stages {STAGES}"
    for stage in STAGES:
        doc = ast.get_docstring(ast.parse((ROOT / stage / "__init__.py").read_text()))
        assert doc and "import" in doc, f"generator/{stage}/__init__.py must say what it owns and may import"


def test_the_checks_catch_a_planted_circle_and_an_upward_import(tmp_path: Path) -> None:
    pkg = tmp_path / "generator"
    for stage in ("engine", "ai"):
        (pkg / stage).mkdir(parents=True)
        (pkg / stage / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "engine" / "rules.py").write_text("from . import state\n")
    (pkg / "engine" / "state.py").write_text("def f():\n    from .rules import X\n    from ..ai.players import Y\n")
    (pkg / "ai" / "players.py").write_text("from ..engine.state import f\n")
    graph = import_graph(pkg)
    assert find_cycle(graph) in (
        ["generator.engine.rules", "generator.engine.state", "generator.engine.rules"],
        ["generator.ai.players", "generator.engine.state", "generator.ai.players"],
    )
    assert upward_imports(graph) == ["generator.engine.state imports generator.ai.players"]
