"""subprocess: with shell=True (or a shell flag whose value is unknown) the command is a shell
script and must be literal; without the shell, arguments are not parsed and any value is fine.
The return types keep all of typeshed's precision in both cases.
"""

import subprocess
from typing import Any, List, Tuple

from typing_extensions import LiteralString, assert_type


def accepted(user: str, user_args: List[str], name: LiteralString, flag: bool) -> None:
    subprocess.run(["ls", "-l", user])
    subprocess.run(user)
    subprocess.run(user_args, shell=False)
    subprocess.run("ls -l", shell=True)
    subprocess.run(["ls -l"], shell=True)
    subprocess.run(f"ls -l {name}", shell=True)
    subprocess.run("ls " + name, shell=True, check=True)
    subprocess.run("ls", shell=flag)
    subprocess.run("ls", shell=True, text=True, capture_output=True)
    subprocess.call(["ls", user])
    subprocess.call("ls", shell=True)
    subprocess.check_call(["ls", user])
    subprocess.check_call("ls", shell=True)
    subprocess.check_output(["ls", user])
    subprocess.check_output("ls", shell=True)
    subprocess.Popen(["ls", user])
    subprocess.Popen("ls", shell=True)
    subprocess.getoutput("ls -l")
    subprocess.getstatusoutput(f"ls {name}")


def rejected(user: str, user_args: List[str], flag: bool) -> None:
    subprocess.run(f"echo {user}", shell=True)  # E
    subprocess.run("echo " + user, shell=True)  # E
    subprocess.run("echo %s" % user, shell=True)  # E
    subprocess.run("echo {}".format(user), shell=True)  # E
    subprocess.run(user, shell=True, text=True)  # E
    subprocess.run(user, shell=flag)  # E
    subprocess.run(user_args, shell=True)  # E
    subprocess.run(["echo", user], shell=True)  # E
    # A bytes command cannot be checked for literalness, so the shell sinks refuse it.
    subprocess.run(b"ls", shell=True)  # E
    subprocess.call(user, shell=True)  # E
    subprocess.check_call(user, shell=True)  # E
    subprocess.check_output(user, shell=True)  # E
    subprocess.check_output(user, shell=True, text=True)  # E
    subprocess.Popen(user, shell=True)  # E
    subprocess.Popen(user, shell=True, text=True)  # E
    subprocess.getoutput(user)  # E
    subprocess.getstatusoutput(f"ls {user}")  # E


def return_types(flag: bool) -> None:
    assert_type(subprocess.run(["ls"]), subprocess.CompletedProcess[bytes])
    assert_type(subprocess.run(["ls"], text=True), subprocess.CompletedProcess[str])
    assert_type(subprocess.run(["ls"], encoding="utf-8"), subprocess.CompletedProcess[str])
    assert_type(subprocess.run(["ls"], universal_newlines=True), subprocess.CompletedProcess[str])
    assert_type(subprocess.run(["ls"], text=flag), subprocess.CompletedProcess[Any])
    assert_type(subprocess.run("ls", shell=True), subprocess.CompletedProcess[bytes])
    assert_type(subprocess.run("ls", shell=True, text=True), subprocess.CompletedProcess[str])
    assert_type(subprocess.run("ls", shell=flag, text=True), subprocess.CompletedProcess[str])
    assert_type(subprocess.run("ls", shell=True, text=flag), subprocess.CompletedProcess[Any])
    assert_type(subprocess.call("ls", shell=True), int)
    assert_type(subprocess.check_call("ls", shell=True), int)
    assert_type(subprocess.check_output(["ls"]), bytes)
    assert_type(subprocess.check_output("ls", shell=True), bytes)
    assert_type(subprocess.check_output("ls", shell=True, text=True), str)
    assert_type(subprocess.Popen(["ls"]), "subprocess.Popen[bytes]")
    assert_type(subprocess.Popen("ls", shell=True), "subprocess.Popen[bytes]")
    assert_type(subprocess.Popen("ls", shell=True, text=True), "subprocess.Popen[str]")
    assert_type(subprocess.getoutput("ls"), str)
    assert_type(subprocess.getstatusoutput("ls"), Tuple[int, str])
