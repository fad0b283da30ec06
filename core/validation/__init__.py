"""Is the metric worth trusting? Checks that need no new data and checks against people.

- ``perturb``: damage complete, correct texts in known ways; each metric must move the
  expected way (``factcov validate perturb``).
- ``agreement``: two scorings of the same generations side by side (``factcov validate agreement``).
- ``human``: human judgments (WebNLG 2020, CSV), their correlation with a metric, and the
  agreement between annotators (``factcov validate human``).
"""
