"""The FastAPI service and browser app (needs the ``service`` extra)."""
