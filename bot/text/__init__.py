"""Every user-facing text: ``catalogue`` (en/zh texts by key), ``events`` (the wording of
engine events and results), ``commands`` (the slash commands' Chinese names)."""
