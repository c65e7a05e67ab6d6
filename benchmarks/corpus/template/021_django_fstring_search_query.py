# label: vulnerable
# family: template
# sink-line: 13
# why: The search query from request.GET is placed into the Django template source with an f-string, letting a visitor inject template tags.
from django.http import HttpRequest, HttpResponse
from django.template import Context, Template
from django.urls import path


def search_results(request: HttpRequest) -> HttpResponse:
    query = request.GET.get("q", "")
    results = ["alpha", "beta"]
    template = Template(f"<h2>Results for {query}</h2><ul>{{% for r in results %}}<li>{{{{ r }}}}</li>{{% endfor %}}</ul>")
    return HttpResponse(template.render(Context({"results": results})))


urlpatterns = [
    path("search/", search_results, name="search-results"),
]
