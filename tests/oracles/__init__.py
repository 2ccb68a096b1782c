"""Independent implementations the tests compare irscale against."""
