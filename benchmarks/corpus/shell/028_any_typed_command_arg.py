# label: vulnerable
# family: shell
# sink-line: 11
# why: The Any-typed 'branch' field from the webhook payload is placed into a shell command string.
import json
import subprocess
from typing import Any


def checkout(repo: str, branch: Any) -> None:
    subprocess.run(f"cd {repo} && git fetch origin && git checkout {branch}", shell=True, check=True)


def on_push_webhook(body: bytes) -> str:
    event: dict[str, Any] = json.loads(body)
    ref = event["ref"]
    if ref.startswith("refs/heads/"):
        checkout("/srv/preview", ref.removeprefix("refs/heads/"))
        return "ok"
    return "ignored"
