# label: safe
# family: template
# sink-line: 11
# why: The heading tag is picked by if/else from two literals and %-formatted into a literal template, so the compiled source is fully literal.
import jinja2


def section_heading(title: str, prominent: bool) -> str:
    tag = "h1" if prominent else "h2"
    source = "<%s class='section-title'>{{ title }}</%s>" % (tag, tag)
    template = jinja2.Template(source)
    return template.render(title=title)


if __name__ == "__main__":
    print(section_heading("Overview", prominent=True))
    print(section_heading("<script>alert(1)</script>", prominent=False))
