"""Rulesets: one module per document, each reading like its pages (the registry of
them all is `app.domain.formats`)."""
