"""gunicorn entry point: ``gunicorn services.rules.wsgi:app``."""

from services.http import gunicorn_app
from services.rules.app import create_rules_app

app = gunicorn_app(create_rules_app)
