"""Facts from Foundry VTT's Simple Worldbuilding system: its template.json (foundryvtt/worldbuilding,
template.json at 977fb4b76b12f705c46a6703a1dbda2f0a3a3d10), which gives each actor and item type's
`system` keys and the shape of each."""

from __future__ import annotations

#: Actor.types
ACTOR_TYPES = ("character",)
#: Actor.character: each key of an actor's `system`, and the JSON type of its value.
CHARACTER_SYSTEM = {"biography": str, "health": dict, "power": dict, "attributes": dict, "groups": dict}
#: health and power: a resource, {value, min, max} numbers.
RESOURCE_KEYS = ("value", "min", "max")
#: Item.types
ITEM_TYPES = ("item",)
#: Item.item: each key of an item's `system`, and the JSON type of its value (quantity and weight numbers).
ITEM_SYSTEM = {
    "description": str,
    "quantity": (int, float),
    "weight": (int, float),
    "attributes": dict,
    "groups": dict,
}
