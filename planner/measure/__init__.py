"""Measurements from a built cluster: strict readers of what clusters print (nccl-tests, perftest,
training logs), the calibration of the collective model from them, and the acceptance of a
cluster against its plan. See ``docs/measure.md``.
"""
