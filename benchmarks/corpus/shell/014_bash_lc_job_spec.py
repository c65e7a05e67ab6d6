# label: vulnerable
# family: shell
# sink-line: 14
# why: The conversion job is parsed with json.loads (Any) and its client-supplied 'source_url' and 'format' fields are embedded in a 'bash -lc' script, so a value containing ';' runs extra commands.
import json
import subprocess
from typing import Any


def run_job(raw_spec: str) -> int:
    spec: Any = json.loads(raw_spec)
    workdir = "/var/spool/convert/" + str(int(spec["id"]))
    script = "curl -sSf " + spec["source_url"] + " -o in.bin && convert in.bin " + spec["format"] + ":out"
    proc = subprocess.Popen(["bash", "-lc", script], cwd=workdir)
    return proc.wait()


def poll_queue(queue_file: str) -> None:
    with open(queue_file) as fh:
        for line in fh:
            if line.strip():
                print("exit", run_job(line))
