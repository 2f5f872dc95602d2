"""The benchmarks are scripts that measure and write records when run: pytest never imports them
(``pytest benchmarks`` would otherwise run every one of them, on whatever state the checkout is in)."""

collect_ignore_glob = ["*.py"]
