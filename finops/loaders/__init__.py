"""Readers for ITBench-Lite scenarios and FOCUS billing exports, into one cost table."""
