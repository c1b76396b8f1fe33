"""gunicorn entry point: ``gunicorn services.rules.wsgi:app``."""

from services.rules.app import create_rules_app

app = create_rules_app()
