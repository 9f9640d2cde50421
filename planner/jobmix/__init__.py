"""Job streams and the scheduling simulation of a shared GPU cluster (the job-mix simulation).

:mod:`planner.jobmix.jobs` (synthetic streams fitted to a published trace, the product's trace CSV),
:mod:`planner.jobmix.trace_formats` (published trace tables: Helios, Alibaba 2023),
:mod:`planner.jobmix.trace_fit` (the fit of the generator to a trace study's published figures),
:mod:`planner.jobmix.simulate` (the discrete-event simulation). It sits below
:mod:`planner.tenancy` (which places tenants on a plan's fabric and hands the simulator its
servers and leaf groups) and below :mod:`planner.validation` (which checks the simulator against
the trace study).
"""
