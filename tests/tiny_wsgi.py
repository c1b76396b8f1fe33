"""The smallest WSGI app: 200 for every path. For tests of gunicorn's own settings, where
loading a real service would only cost time."""


def app(environ, start_response):
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [b"ok"]
