"""Schema migrations for the SQLite store, applied in order by ``bot.store``.

Each file is ``NNN_name.sql``: versions start at 1 and have no gaps. A migration runs in
one transaction together with its ``schema_version`` row, so it is applied exactly once.
Never edit a released migration; add the next number instead. Write one statement per
line end (the loader splits on complete statements), and rebuild a table (SQLite's
12-step recipe) rather than expecting ``PRAGMA foreign_keys`` to change inside it.
"""
