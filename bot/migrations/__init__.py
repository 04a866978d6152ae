"""Schema migrations, one set per dialect, applied in order by ``bot/store/migrations.py``.

``sqlite/NNN_name.sql`` and ``postgres/NNN_name.sql`` describe the same schema: the same
versions and names, the same tables, columns, keys and checks, each in its own dialect
(``tests/bot/test_store.py`` checks that both sets match and that both databases hold the
same columns). Versions start at 1 and have no gaps. A migration runs in one transaction
together with its ``schema_version`` row, so it is applied exactly once. Never edit a
released migration; add the next number to both sets instead.

SQLite: write one statement per line end (the loader splits on complete statements), and
rebuild a table (SQLite's 12-step recipe) rather than expecting ``PRAGMA foreign_keys`` to
change inside it. PostgreSQL: the file runs as one script.
"""
