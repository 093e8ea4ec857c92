"""Skiff's host-side helpers inside Pyodide: running scripts, the REPL and the test runner.

Not part of the `paddle` API; the TypeScript host (frontend/python/host.ts) calls these with
plain strings and numbers.
"""
