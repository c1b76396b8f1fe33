"""Tapete's HTTP services: rules, lobby and history; each a thin Flask app over shared code."""
