"""The stand-in for the project's interpreter (``core.interpreter.stand_in``).

Run as a script by our own interpreter, isolated (``python -I stand_in.py ANSWERS PYTHON
ARGS...``), in place of the project's interpreter ``PYTHON`` when a checker starts it: prints
the recorded answer when ``ARGS`` is a question recorded in ``ANSWERS`` (a JSON object: the
arguments joined by NUL -> the output), else runs ``PYTHON ARGS...`` itself, so that a
question we do not know still gets the real answer.  Standard library only: a script run by
its path, with no package on its sys.path.
"""

from __future__ import annotations

import json
import os
import sys


def main(argv: list[str]) -> int:
    answers_file, python, *arguments = argv
    with open(answers_file, encoding="utf-8") as answers:
        known: dict[str, str] = json.load(answers)
    answer = known.get("\0".join(arguments))
    if answer is None:
        os.execv(python, [python, *arguments])  # does not return
    sys.stdout.buffer.write(answer.encode("utf-8"))  # whatever the locale: mypy decodes UTF-8
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
