"""Independent implementations of measures, kept in the tests as oracles for the engine."""
