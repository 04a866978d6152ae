"""Stats and server settings: ``settings`` (a server's defaults for new tables),
``counting`` (hands into totals and ratings), ``queries`` (leaderboards, stats,
history), ``export`` (a finished match as a document, and its replay)."""
