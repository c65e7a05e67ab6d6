# label: vulnerable
# family: markup
# sink-line: 15
# why: The button label from the query string is stored on a widget instance and rendered into mark_safe HTML without escaping.
from django.http import HttpRequest, HttpResponse
from django.utils.safestring import SafeString, mark_safe


class ActionButton:
    def __init__(self, label: str, action: str) -> None:
        self.label = label
        self.action = action

    def render(self) -> SafeString:
        return mark_safe(f"<button type='submit' formaction='/do/{self.action}'>{self.label}</button>")


def confirm_page(request: HttpRequest) -> HttpResponse:
    button = ActionButton(request.GET.get("label", "OK"), "confirm")
    return HttpResponse("<form>" + button.render() + "</form>")
