# label: safe
# family: shell
# sink-line: 23
# why: The helper is annotated to return LiteralString and returns only literal command strings selected by a boolean.
from __future__ import annotations

import subprocess
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing_extensions import LiteralString


def compress_command(fast: bool) -> LiteralString:
    if fast:
        return "gzip -1 -k"
    return "xz -9 -k"


def compress_logs(fast: bool) -> None:
    cmd = compress_command(fast) + " /var/log/app/*.log"
    subprocess.check_call(cmd, shell=True)


if __name__ == "__main__":
    compress_logs("--fast" in sys.argv)
