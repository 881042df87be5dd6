"""File formats: the registry, decoding, and one package per format."""
