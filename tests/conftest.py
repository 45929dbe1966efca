"""Suite-wide settings: hypothesis without wall-clock deadlines (CI machines vary in speed)."""

from hypothesis import HealthCheck, settings

settings.register_profile("rollbook", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("rollbook")
