"""Formats other systems use for deals and results: dealing machines, archives, USEBIO."""
