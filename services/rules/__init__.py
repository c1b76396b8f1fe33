"""The stateless rules service: the engine over HTTP."""
