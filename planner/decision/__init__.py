"""Which design does the customer's work for the least money, and how sure that is.

- :mod:`planner.decision.bands`: the model's error per family, fitted to the validation suite's
  residuals (``validation/error_bands.yaml``, written by ``make validation``);
- :mod:`planner.decision.outcome`: cost per outcome of each design on a workload mix (USD per
  million trained or served tokens), or the price per GPU-hour when there is no workload;
- :mod:`planner.decision.draws`: the seeded Monte Carlo over model error and prices, and the
  probability that each design is the cheapest;
- :mod:`planner.decision.sentence`: the recommendation sentence (English template, Chinese in
  ``locales/zh/LC_MESSAGES/engine_decision.po``).

The equations and their sources are in ``docs/model.md``, "Decisions: cost per outcome".
"""
