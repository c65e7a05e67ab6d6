# label: safe
# family: shell
# sink-line: 14
# why: The shell=True f-string interpolates only module-level literal constants.
import subprocess
from typing import Final

GIT: Final = "/usr/bin/git"
REMOTE: Final = "origin"
MAIN_BRANCH: Final = "main"


def sync_checkout(repo_dir: str) -> None:
    subprocess.run(
        f"{GIT} fetch {REMOTE} && {GIT} reset --hard {REMOTE}/{MAIN_BRANCH}",
        shell=True,
        check=True,
        cwd=repo_dir,
    )


if __name__ == "__main__":
    sync_checkout("/srv/app")
