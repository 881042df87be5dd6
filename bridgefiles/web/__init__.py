"""The upload service."""
