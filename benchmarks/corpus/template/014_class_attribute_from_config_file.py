# label: vulnerable
# family: template
# sink-line: 19
# why: The welcome template is read from a tenant-supplied INI file into an instance attribute and then compiled as Jinja source.
import configparser
import sys

from jinja2 import Environment


class TenantMailer:
    def __init__(self, config_path: str) -> None:
        parser = configparser.ConfigParser()
        parser.read(config_path, encoding="utf-8")
        self.welcome_source: str = parser.get("mail", "welcome", fallback="Welcome, {{ user }}!")
        self.env = Environment(autoescape=True)

    def welcome(self, user: str) -> str:
        template = self.env.from_string(self.welcome_source)
        return template.render(user=user)


if __name__ == "__main__":
    mailer = TenantMailer(sys.argv[1])
    print(mailer.welcome("new-user@example.com"))
