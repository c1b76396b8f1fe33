"""The lobby service: players, matches, seats, bots and actions over the match log."""
