# label: vulnerable
# family: shell
# sink-line: 16
# why: The list is two displays joined with +, and the second holds a convert command with user file names.
import subprocess


class Upload:
    def __init__(self, filename: str) -> None:
        self.filename = filename


def thumbnail(upload: Upload) -> None:
    src = f"/srv/uploads/{upload.filename}"
    dst = f"/srv/thumbs/{upload.filename}"
    subprocess.run(["sh", "-c"] + [f"convert {src} -resize 128x128 {dst}"], check=True)
