# label: vulnerable
# family: logging
# sink-line: 15
# why: Module-level logging.error gets a format string built from the job name in a user-submitted JSON job file, plus arguments, so '%' specifiers in the name are interpreted.
import json
import logging
import sys


def run_jobs(job_file: str) -> None:
    with open(job_file) as fh:
        jobs = json.load(fh)
    for index, job in enumerate(jobs):
        if job.get("disabled"):
            logging.error("job '%s' " % job["name"] + "skipped at position %d of %d", index, len(jobs))


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    run_jobs(sys.argv[1])
