"""Bots and turn timers: a feed dispatcher, rq jobs and rq workers (docs/bots.md)."""
