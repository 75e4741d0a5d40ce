"""One package per game: everything a game is (its replay engine, its simulator, its mathematics)."""
