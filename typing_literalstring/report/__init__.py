"""How findings are shown: text, JSON and SARIF (``output``), and the baseline of accepted
findings (``baseline``)."""
