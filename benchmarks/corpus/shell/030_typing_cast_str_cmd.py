# label: vulnerable
# family: shell
# sink-line: 16
# why: typing.cast(str, ...) merely relabels the form value, which is still attacker-controlled when passed to os.popen.
import os
from typing import Any, cast


class Request:
    def __init__(self, form: dict[str, Any]) -> None:
        self.form = form


def whois(request: Request) -> str:
    domain = cast(str, request.form.get("domain"))
    with os.popen("whois " + domain) as pipe:
        text = pipe.read()
    return text[:4000]
