# label: safe
# family: template
# sink-line: 14
# why: The column name must be an identifier not starting with '_', so it can only form a plain variable lookup in the Django template (a checker cannot prove this).
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.template import Context, Template


def column_view(request: HttpRequest) -> HttpResponse:
    field = request.GET.get("field", "name")
    if not field.isidentifier() or field.startswith("_"):
        return HttpResponseBadRequest("bad field")
    rows = [{"name": "Ada", "email": "ada@example.org"}, {"name": "Linus", "email": "linus@example.org"}]
    template = Template("<ul>{% for row in rows %}<li>{{ row." + field + " }}</li>{% endfor %}</ul>")
    return HttpResponse(template.render(Context({"rows": rows})))
