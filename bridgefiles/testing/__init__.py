"""For tests, benchmarks and fuzzing: seeded synthetic events and the fuzzing harness.
Nothing of the library imports this package."""
