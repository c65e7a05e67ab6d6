# label: safe
# family: markup
# sink-line: 15
# why: The SVG icon markup is an f-string made only of Final literal constants, so no outside value reaches mark_safe.
from typing import Final

from django.utils.safestring import SafeString, mark_safe

ICON_CLASS: Final = "icon icon-sm"
SPRITE_URL: Final = "/static/sprite.svg"


def icon(warning: bool) -> SafeString:
    if warning:
        return mark_safe(f"<svg class='{ICON_CLASS}'><use href='{SPRITE_URL}#warning'></use></svg>")
    return mark_safe(f"<svg class='{ICON_CLASS}'><use href='{SPRITE_URL}#info'></use></svg>")


if __name__ == "__main__":
    print(icon(True))
