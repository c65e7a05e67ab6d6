# label: vulnerable
# family: logging
# sink-line: 17
# why: The job name from the queue message is inserted with str.format, then an elapsed-time argument is passed, so the job name is parsed as a %-format.
import json
import logging
import time

logger = logging.getLogger("jobs")


def run(raw_message: bytes) -> None:
    job = json.loads(raw_message)
    started = time.perf_counter()
    # ... do the work ...
    elapsed = time.perf_counter() - started
    logger.info("job {} finished in %.2fs".format(job["name"]), elapsed)
