# label: safe
# family: logging
# sink-line: 18
# why: The f-string embeds user data but no formatting arguments are passed, and logging only applies % formatting when args are present.
import logging

logger = logging.getLogger(__name__)


class Request:
    def __init__(self, args: dict[str, str]) -> None:
        self.args = args


def search(request: Request) -> list[str]:
    term = request.args.get("q", "")
    results = [item for item in ("alpha", "beta", "gamma") if term in item]
    logger.info(f"search term={term!r} returned {len(results)} hits")
    return results
