# label: safe
# family: markup
# sink-line: 10
# why: mark_safe is applied to a literal separator entity; the breadcrumb names are escaped separately before being joined.
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe


def breadcrumbs(names: list[str]) -> str:
    separator = mark_safe(" &rsaquo; ")
    return separator.join(str(conditional_escape(name)) for name in names)


if __name__ == "__main__":
    print(breadcrumbs(["Home", "Books", "<Python & You>"]))
