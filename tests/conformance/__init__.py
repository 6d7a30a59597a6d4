"""Independent conformance scenarios: table logs written from RULINGS.md and TABLE-LOG.md."""
