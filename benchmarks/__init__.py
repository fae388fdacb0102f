"""Benchmarks run by ``python -m benchmarks`` (``make bench``); never part of ``make test``."""
