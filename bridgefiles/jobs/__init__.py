"""Whole jobs over inputs: ``bf.convert`` (read, check, score, write), checking an output
against what was written, and the validation report of whole inputs."""
