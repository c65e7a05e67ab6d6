# label: vulnerable
# family: template
# sink-line: 14
# why: The ticket subject from the POST form is put into the Django template source with str.format, so template syntax in it is evaluated.
from django.http import HttpRequest, HttpResponse
from django.template import Context, Template
from django.urls import path


def ticket_confirmation(request: HttpRequest) -> HttpResponse:
    subject = request.POST.get("subject", "(no subject)")
    source = "<h3>Ticket received: {}</h3><p>We will reply to {{{{ email }}}}.</p>".format(subject)
    email = request.POST.get("email", "")
    html = Template(source).render(Context({"email": email}))
    return HttpResponse(html)


urlpatterns = [
    path("tickets/confirm/", ticket_confirmation, name="ticket-confirmation"),
]
