# label: safe
# family: template
# sink-line: 17
# why: The Django template source is an f-string built only from Final literal constants; the article data goes through Context.
from typing import Final

from django.http import HttpRequest, HttpResponse
from django.template import Context, Template

HEADER: Final = "<header><h1>{{ article.title }}</h1></header>"
BODY: Final = "<article>{{ article.body|linebreaks }}</article>"
FOOTER: Final = "<footer>Posted by {{ article.author }}</footer>"


def show_article(request: HttpRequest) -> HttpResponse:
    article = {"title": request.GET.get("title", ""), "body": request.GET.get("body", ""), "author": "staff"}
    template = Template(f"{HEADER}{BODY}{FOOTER}")
    return HttpResponse(template.render(Context({"article": article})))
