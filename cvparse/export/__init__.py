"""Exporters: documents and parse results to files people and tools read."""
