"""What reading a newer grammar than the host's costs: the measurement behind grammar.py.

For each candidate parser, whether it reads the constructs a 3.12-3.14 project uses (PEP 701
f-strings, PEP 695 type parameters, PEP 696 defaults, PEP 758 ``except A, B``, t-strings) and
how long it takes on a large body of real code (the standard library's own modules, 30 KLOC
by default; the fastest of three runs), against the host's ``ast.parse``.  Candidates that are
not installed are left out: install them into a scratch environment to compare them
(``pip install libcst parso``).

    python scripts/parser_choice.py [--lines 30000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import sys
import sysconfig
import time
from pathlib import Path
from typing import Any, Callable

from typing_literalstring.core import grammar

SAMPLES = {
    "PEP 701 quotes": 'd = {"k": 1}\nx = f"{d["k"]}"\n',
    "PEP 701 backslash": "x = f\"{'\\n'.join(['a'])}\"\n",
    "PEP 701 comment": 'x = f"{\n    1  # one\n}"\n',
    "PEP 695": "type A[T] = list[T]\ndef f[T](x: T) -> T:\n    return x\nclass C[T]: pass\n",
    "PEP 696": "def f[T = int]() -> None: pass\n",
    "PEP 758": "try:\n    pass\nexcept ValueError, TypeError:\n    pass\n",
    "PEP 750": 'name = "x"\nt = t"hi {name}"\n',
}


def _corpus(lines: int) -> str:
    """Real code: the standard library's modules, up to ``lines`` lines, that the host
    reads (so that every candidate parses the same text)."""
    parts: list[str] = []
    count = 0
    for path in sorted(Path(sysconfig.get_paths()["stdlib"]).glob("*.py")):
        text = path.read_text(encoding="utf-8", errors="replace")
        try:
            ast.parse(text)
        except SyntaxError:
            continue
        parts.append(text)
        count += text.count("\n")
        if count >= lines:
            break
    return "\n".join(parts)


def _candidates() -> dict[str, Callable[[str], bool]]:
    """Each parser: a function that parses a text and says whether it read it."""

    def host(text: str) -> bool:
        try:
            ast.parse(text)
        except SyntaxError:
            return False
        return True

    def ours(text: str) -> bool:
        """What check does: the host first, the tree-sitter rewrite where it refuses."""
        if host(text):
            return True
        rewritten = grammar.downlevel(text)
        return rewritten is not None and host(rewritten.text)

    found: dict[str, Callable[[str], bool]] = {f"ast (host {sys.version.split()[0]})": host}
    if grammar.available():
        parser = grammar._parser()  # pyright: ignore[reportPrivateUsage]
        assert parser is not None

        def tree_sitter(text: str) -> bool:
            has_error: bool = parser.parse(text.encode("utf-8")).root_node.has_error
            return not has_error

        def rewrite(text: str) -> bool:
            """The cost for a file in the newer grammar: tree-sitter, the rewrite, then ast."""
            rewritten = grammar.downlevel(text)
            return host(rewritten.text if rewritten is not None else text)

        found["tree-sitter alone"] = tree_sitter
        found["tree-sitter rewrite + ast (every file)"] = rewrite
        found["check: ast, else tree-sitter rewrite + ast"] = ours
    if importlib.util.find_spec("libcst") is not None:
        libcst: Any = importlib.import_module("libcst")

        def cst(text: str) -> bool:
            config = libcst.PartialParserConfig(python_version="3.12")
            try:
                libcst.parse_module(text, config=config)
            except Exception:  # libcst raises its own error types
                return False
            return True

        found["libcst"] = cst
    if importlib.util.find_spec("parso") is not None:
        parso: Any = importlib.import_module("parso")

        def parso_(text: str) -> bool:
            newest = parso.load_grammar(version="3.13")
            return not list(newest.iter_errors(newest.parse(text)))

        found["parso"] = parso_
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=30_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    corpus = _corpus(args.lines)
    kloc = corpus.count("\n") / 1000
    print(f"corpus: {kloc:.1f} KLOC of the standard library; samples: {', '.join(SAMPLES)}")
    baseline: float | None = None
    for name, parse in _candidates().items():
        reads = [label for label, text in SAMPLES.items() if parse(text)]
        times: list[float] = []
        ok = False
        for _ in range(args.repeat):  # the fastest of a few: the machine may be busy
            start = time.perf_counter()
            ok = parse(corpus)
            times.append(time.perf_counter() - start)
        elapsed = min(times)
        baseline = baseline or elapsed
        print(
            f"{name:45} reads {len(reads)}/{len(SAMPLES)} newer constructs; corpus "
            f"{'read' if ok else 'REFUSED'} in {elapsed:.2f} s ({elapsed / baseline:.1f}x the "
            f"host's ast, {elapsed / kloc * 10 * 1000:.0f} ms per 10 KLOC)"
        )
        missing = [label for label in SAMPLES if label not in reads]
        if missing:
            print(f"{'':45} not read: {', '.join(missing)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
