"""aifp: AI functional-programming project helper (example package, standard library only).

Run the MCP server with ``python -m aifp --root=DIR``.
"""
__version__ = "0.9.0"
