"""Facts from Foundry VTT's Simple Worldbuilding system: its template.json (foundryvtt/worldbuilding,
template.json at 977fb4b76b12f705c46a6703a1dbda2f0a3a3d10), which gives each actor type's `system` keys and
the shape of each."""

from __future__ import annotations

#: Actor.types
ACTOR_TYPES = ("character",)
#: Actor.character: each key of an actor's `system`, and the JSON type of its value.
CHARACTER_SYSTEM = {"biography": str, "health": dict, "power": dict, "attributes": dict, "groups": dict}
#: health and power: a resource, {value, min, max} numbers.
RESOURCE_KEYS = ("value", "min", "max")
