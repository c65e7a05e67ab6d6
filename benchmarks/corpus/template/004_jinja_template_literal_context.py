# label: safe
# family: template
# sink-line: 11
# why: jinja2.Template is built from a literal source; the command-line recipient and amount only enter as render() context values.
import argparse

import jinja2


def receipt(recipient: str, amount: str) -> str:
    template = jinja2.Template("Receipt for {{ recipient }}\nAmount paid: {{ amount }}\nThank you!\n")
    return template.render(recipient=recipient, amount=amount)


def main() -> None:
    parser = argparse.ArgumentParser(description="Print a payment receipt")
    parser.add_argument("recipient")
    parser.add_argument("amount")
    ns = parser.parse_args()
    print(receipt(ns.recipient, ns.amount))


if __name__ == "__main__":
    main()
