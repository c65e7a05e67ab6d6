"""Where a log call's logger comes from, read from the project's source (impact_facts.py).

The standard logging module formats a message only when arguments follow it
(``LogRecord.getMessage``), so a message without arguments cannot lose its record or change
its format: but only on the standard module's loggers.  A project may have its own
(beets' ``StrFormatLogger`` formats every message with ``str.format``) or change the standard
ones (``logging.setLoggerClass``, ``logging.setLogRecordFactory``, a ``getMessage`` of its
own).  ``LogOrigins.of`` names where the receiver of a log call comes from:

- ``logging``: the standard module itself (``logging.info(...)``, the root logger);
- ``logging.getLogger()``, ``logging.Logger()``, ``logging.LoggerAdapter()``: one of its loggers;
- ``<module>.<name>()``: what a function or class of the project returns or makes, when its
  returns are not all standard loggers;
- ``param``: a parameter (the caller's logger); ``?``: nothing that could be followed;
- several of these joined by `` | `` when assignments disagree.

``LogOrigins.setup`` lists the places where the project changes the standard loggers.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from scripts.impact_source import resolve

if TYPE_CHECKING:
    from scripts.impact_source import Binding, Module, Project

STANDARD = "logging"
# What the standard module's functions and classes make, by their name in the module.
MAKERS = {
    "getLogger": "logging.getLogger()",
    "Logger": "logging.Logger()",
    "LoggerAdapter": "logging.LoggerAdapter()",
    "root": "logging.getLogger()",
}
STANDARD_LOGGERS = frozenset(MAKERS.values()) | {STANDARD}
# Calls and methods that change how every standard logger formats.
SETUP_CALLS = ("setLoggerClass", "setLogRecordFactory")
SETUP_METHODS = ("getMessage", "makeRecord")
MAX_DEPTH = 8
LOG_METHODS = ("debug", "info", "warning", "warn", "error", "exception", "critical", "fatal",
               "log")  # fmt: skip


class LogOrigins:
    def __init__(self, project: Project) -> None:
        self.project = project
        self.setup: list[str] = []
        for module in project.modules.values():
            for node in module.nodes:
                if isinstance(node, ast.Call):
                    name = getattr(node.func, "attr", getattr(node.func, "id", ""))
                    if name in SETUP_CALLS:
                        self.setup.append(f"{module.file}:{node.lineno} {name}")
                elif (
                    isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                    and node.name in SETUP_METHODS
                    and isinstance(module.parents.get(node), ast.ClassDef)
                ):
                    self.setup.append(f"{module.file}:{node.lineno} {node.name}")
        self.setup.sort()

    def of(self, module: Module, call: ast.Call) -> str:
        """Where the logger of the log call ``call`` comes from."""
        func = call.func
        if isinstance(func, ast.Attribute):
            return self.origin(module, func.value, 0)
        if isinstance(func, ast.Name):  # `from logging import info`, `debug = log.debug`
            found = self._name(module, func, 0)
            if found == f"{STANDARD}.{func.id}":
                return STANDARD
            logger, _, method = found.rpartition(".")
            return logger if method in LOG_METHODS and logger in STANDARD_LOGGERS else found
        return "?"

    def origin(self, module: Module, node: ast.expr, depth: int) -> str:
        if depth > MAX_DEPTH:
            return "?"
        if isinstance(node, ast.Name):
            return self._name(module, node, depth)
        if isinstance(node, ast.Attribute):
            return self._attribute(module, node, depth)
        if isinstance(node, ast.Call):
            made = self.origin(module, node.func, depth + 1)
            if made.startswith(f"{STANDARD}."):
                return MAKERS.get(made[len(STANDARD) + 1 :], made + "()")
            if made.endswith(".getChild") and made[: -len(".getChild")] in STANDARD_LOGGERS:
                return made[: -len(".getChild")]
            return made if made in ("?", "param") else made + "()"
        return "?"

    def _name(self, module: Module, node: ast.Name, depth: int) -> str:
        _, found = resolve(module, node, node.id)
        origins = {self._binding(module, node.id, b, depth) for b in found}
        return " | ".join(sorted(origins)) if origins else "?"

    def _binding(self, module: Module, name: str, binding: Binding, depth: int) -> str:
        node = binding.node
        if binding.kind == "parameter":
            return "param"
        if binding.kind == "value" and isinstance(node, ast.expr):
            return self.origin(module, node, depth + 1)
        if binding.kind == "definition" and isinstance(
            node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
        ):
            return self._definition(module, node, depth)
        if binding.kind == "import" and isinstance(node, ast.Import):
            if binding.alias == STANDARD and STANDARD not in self.project.by_name:
                return STANDARD
            return binding.alias if binding.alias in self.project.by_name else "?"
        if binding.kind == "import" and isinstance(node, ast.ImportFrom):
            source = self.project.imported_module(module, node)
            if source == STANDARD and STANDARD not in self.project.by_name:
                return f"{STANDARD}.{binding.alias}"
            target = self.project.by_name.get(source)
            if target is None:
                return "?"
            if f"{source}.{binding.alias}" in self.project.by_name:  # a submodule
                return f"{source}.{binding.alias}"
            _, found = resolve(target, target.tree, binding.alias)
            origins = {self._binding(target, binding.alias, b, depth + 1) for b in found}
            return " | ".join(sorted(origins)) if origins else "?"
        return "?"

    def _definition(
        self, module: Module, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef,
        depth: int,
    ) -> str:  # fmt: skip
        """A project function whose every ``return`` gives a standard logger stands for
        ``logging.getLogger``; any other function or class is named."""
        name = f"{module.name}.{node.name}"
        if isinstance(node, ast.ClassDef):
            return name
        returned = [
            n.value for n in ast.walk(node) if isinstance(n, ast.Return) and n.value is not None
        ]
        origins = {self.origin(module, value, depth + 1) for value in returned}
        if origins and origins <= STANDARD_LOGGERS - {STANDARD}:
            return f"{STANDARD}.getLogger" if len(origins) == 1 else name
        return name

    def _attribute(self, module: Module, node: ast.Attribute, depth: int) -> str:
        base = node.value
        if isinstance(base, ast.Name) and base.id in ("self", "cls"):
            if self.project.dynamic_attributes:
                return "?"
            assigned = self.project.attributes.get(node.attr, [])
            origins = {
                self.origin(m, value, depth + 1) if value is not None else "?"
                for m, value in assigned
            }
            return " | ".join(sorted(origins)) if origins else "?"
        inner = self.origin(module, base, depth + 1)
        if inner == STANDARD:
            return f"{STANDARD}.{node.attr}"
        if inner in self.project.by_name:  # a project module
            target = self.project.by_name[inner]
            _, found = resolve(target, target.tree, node.attr)
            origins = {self._binding(target, node.attr, b, depth + 1) for b in found}
            return " | ".join(sorted(origins)) if origins else "?"
        if inner in STANDARD_LOGGERS and node.attr in ("getChild", *LOG_METHODS):
            return f"{inner}.{node.attr}"
        return "?"
