"""TriPeaks rules, solver and hints in plain Python (no Django), so they are fast and reusable."""
