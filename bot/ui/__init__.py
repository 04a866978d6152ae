"""The Discord side: the table message and its buttons, hand panels, the leaderboard,
and the pictures and texts they show."""
