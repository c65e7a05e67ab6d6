"""os: system() and popen() run their command through the shell."""

import os

from typing_extensions import LiteralString, assert_type


def accepted(name: LiteralString) -> None:
    os.system("ls -l")
    os.system(f"ls -l {name}")
    os.system("ls " + name)
    os.popen("ls -l")
    os.popen("ls -l", "r", -1)
    os.popen(f"ls {name}").read()


def rejected(user: str) -> None:
    os.system(user)  # E
    os.system(f"rm {user}")  # E
    os.system("rm " + user)  # E
    # A bytes command cannot be checked for literalness, so the shell sinks refuse it.
    os.system(b"ls")  # E
    os.popen(user)  # E
    os.popen(f"grep {user} log.txt")  # E


def return_types() -> None:
    assert_type(os.system("ls"), int)
    assert_type(os.popen("ls"), os._wrap_close)
    assert_type(os.popen("ls").read(), str)
