"""Shared test settings."""

from hypothesis import HealthCheck, settings

# ``filter_too_much``: many property tests draw a whole position and keep only those that
# reach the case they test (``assume``); several throw away three draws in five
# (``--hypothesis-show-statistics``), still reach their ``max_examples``, and at that rate
# the health check failed a passing test now and then, which a CI run must never do.
settings.register_profile(
    "project", deadline=None, max_examples=25,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
settings.load_profile("project")
