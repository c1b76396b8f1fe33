"""Tapete's common code: the rules engine, the games, the match log and shared schemas."""
