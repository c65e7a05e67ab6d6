# label: safe
# family: logging
# sink-line: 19
# why: logger.exception uses a literal format and passes the untrusted filename and error as arguments.
import json
import logging
import sys

logger = logging.getLogger("loader")


def load_all(paths: list[str]) -> list[dict[str, object]]:
    docs: list[dict[str, object]] = []
    for path in paths:
        try:
            with open(path) as fh:
                docs.append(json.load(fh))
        except (OSError, ValueError) as err:
            logger.exception("could not load %s: %s", path, err)
    return docs


if __name__ == "__main__":
    print(len(load_all(sys.argv[1:])))
