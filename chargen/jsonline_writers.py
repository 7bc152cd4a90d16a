"""The JSONL line writers of chargen.jsonline, written out by `python -m chargen.jsonline`: do not
edit (tests/test_jsonline.py checks this is what chargen.jsonline writes today)."""

from typing import Any

from chargen.jsonline import _EIGHT, _doc, _finite, _float, _int, _key, _raw, _str, _remembering
from chargen.model import ArmorLine, Carried, Character, Characteristics, Combat, DamageIncrease, Gear, Heritage, MagicRanked, Modifier, Points, Ranked, ShieldLine, UnarmedLine, WeaponLine


def write_Points(value: Any) -> str:
    v0 = value.total
    v1 = value.maximum
    return ''.join(["\"total\":", (_int[v0] if v0.__class__ is int else _raw(v0)), ",\"maximum\":", (_int[v1] if v1.__class__ is int else _raw(v1))]).join('{}')


def _made_Carried(value: Any) -> str:
    v0 = value.name
    v1 = value.rank
    v2 = value.increase
    return ''.join(["\"name\":", (_str(v0) if v0.__class__ is str else _raw(v0)), (",\"rank\":" + ('null' if v1 is None else (_int[v1] if v1.__class__ is int else _raw(v1))) if v1 is not None and v1 != [] else ''), (",\"increase\":" + ('null' if v2 is None else (_str(v2) if v2.__class__ is str else _raw(v2))) if v2 is not None and v2 != [] else '')]).join('{}')


write_Carried = _remembering(_made_Carried)


def write_Gear(value: Any) -> str:
    v0 = value.name
    v1 = value.weight
    v2 = value.count
    return ''.join(["\"name\":", (_str(v0) if v0.__class__ is str else _raw(v0)), (",\"weight\":" + (_int[v1] if v1.__class__ is int else ((_float(v1) if _finite(v1) else _raw(v1)) if v1.__class__ is float else _raw(v1))) if v1 is not None and v1 != [] else ''), ",\"count\":", (_int[v2] if v2.__class__ is int else _raw(v2))]).join('{}')


def _made_Ranked(value: Any) -> str:
    v0 = value.name
    v1 = value.rank
    return ''.join(["\"name\":", (_str(v0) if v0.__class__ is str else _raw(v0)), ",\"rank\":", (_int[v1] if v1.__class__ is int else _raw(v1))]).join('{}')


write_Ranked = _remembering(_made_Ranked)


def _made_MagicRanked(value: Any) -> str:
    v0 = value.name
    v1 = value.rank
    v2 = value.kind
    return ''.join(["\"name\":", (_str(v0) if v0.__class__ is str else _raw(v0)), ",\"rank\":", (_int[v1] if v1.__class__ is int else _raw(v1)), ",\"kind\":", (_str(v2) if v2.__class__ is str else _raw(v2))]).join('{}')


write_MagicRanked = _remembering(_made_MagicRanked)


def write_Characteristics(value: Any) -> str:
    optional = value.optional
    if optional.__class__ is not dict or any([code in optional for code in _EIGHT]):
        return _doc(value)
    text = ''.join(['{', "\"PS\":", (_int[value.PS] if value.PS.__class__ is int else _raw(value.PS)), ",\"MD\":", (_int[value.MD] if value.MD.__class__ is int else _raw(value.MD)), ",\"AG\":", (_int[value.AG] if value.AG.__class__ is int else _raw(value.AG)), ",\"EN\":", (_int[value.EN] if value.EN.__class__ is int else _raw(value.EN)), ",\"MA\":", (_int[value.MA] if value.MA.__class__ is int else _raw(value.MA)), ",\"WP\":", (_int[value.WP] if value.WP.__class__ is int else _raw(value.WP)), ",\"FT\":", (_int[value.FT] if value.FT.__class__ is int else _raw(value.FT)), ",\"PC\":", (_int[value.PC] if value.PC.__class__ is int else _raw(value.PC))])
    return text + (',' + ','.join([(_str(k0) if k0.__class__ is str else _key(k0)) + ':' + (_int[e0] if e0.__class__ is int else _raw(e0)) for k0, e0 in optional.items()]).join('{}')[1:] if optional else '}')


def _made_Modifier(value: Any) -> str:
    v0 = value.race
    v1 = value.gender
    return ''.join(["\"race\":", (_int[v0] if v0.__class__ is int else _raw(v0)), ",\"gender\":", (_int[v1] if v1.__class__ is int else _raw(v1))]).join('{}')


write_Modifier = _remembering(_made_Modifier)


def write_Heritage(value: Any) -> str:
    v0 = value.social_status
    v1 = value.money_multiplier
    v2 = value.birth_order
    v3 = value.sibling_rank
    return ''.join(["\"social_status\":", (_str(v0) if v0.__class__ is str else _raw(v0)), ",\"money_multiplier\":", (_int[v1] if v1.__class__ is int else _raw(v1)), ",\"birth_order\":", (_str(v2) if v2.__class__ is str else _raw(v2)), (",\"sibling_rank\":" + ('null' if v3 is None else (_str(v3) if v3.__class__ is str else _raw(v3))) if v3 is not None and v3 != [] else '')]).join('{}')


def write_UnarmedLine(value: Any) -> str:
    v0 = value.rank
    v1 = value.strike_chance
    v2 = value.damage
    v3 = value.initiative
    v4 = value.endurance_damage
    v5 = value.grievous_injury
    return '{' + ''.join([(",\"rank\":" + ('null' if v0 is None else (_int[v0] if v0.__class__ is int else _raw(v0))) if v0 is not None and v0 != [] else ''), ",\"strike_chance\":", (_int[v1] if v1.__class__ is int else _raw(v1)), ",\"damage\":", (_str(v2) if v2.__class__ is str else _raw(v2)), ",\"initiative\":", (_int[v3] if v3.__class__ is int else _raw(v3)), ",\"endurance_damage\":", ('null' if v4 is None else (_str(v4) if v4.__class__ is str else _raw(v4))), ",\"grievous_injury\":", ('null' if v5 is None else (_str(v5) if v5.__class__ is str else _raw(v5)))])[1:] + '}'


def write_DamageIncrease(value: Any) -> str:
    v0 = value.system
    v1 = value.bonus
    v2 = value.breaks_on
    v3 = value.strike_chance_cap
    v4 = value.thrown_damage
    return ''.join(["\"system\":", (_str(v0) if v0.__class__ is str else _raw(v0)), ",\"bonus\":", (_int[v1] if v1.__class__ is int else _raw(v1)), (",\"breaks_on\":" + ('null' if v2 is None else (_str(v2) if v2.__class__ is str else _raw(v2))) if v2 is not None and v2 != [] else ''), (",\"strike_chance_cap\":" + ('null' if v3 is None else (_int[v3] if v3.__class__ is int else _raw(v3))) if v3 is not None and v3 != [] else ''), (",\"thrown_damage\":" + ('null' if v4 is None else (_str(v4) if v4.__class__ is str else _raw(v4))) if v4 is not None and v4 != [] else '')]).join('{}')


def write_WeaponLine(value: Any) -> str:
    v0 = value.name
    v1 = value.rank
    v2 = value.strike_chance
    v3 = value.damage
    v4 = value.damage_modifier
    v5 = value.two_handed_damage
    v6 = value.initiative
    v7 = value.endurance_damage
    v8 = value.grievous_injury
    v9 = value.increase
    return ''.join(["\"name\":", (_str(v0) if v0.__class__ is str else _raw(v0)), ",\"rank\":", ('null' if v1 is None else (_int[v1] if v1.__class__ is int else _raw(v1))), ",\"strike_chance\":", (_int[v2] if v2.__class__ is int else _raw(v2)), ",\"damage\":", (_str(v3) if v3.__class__ is str else _raw(v3)), ",\"damage_modifier\":", ('null' if v4 is None else (_int[v4] if v4.__class__ is int else _raw(v4))), (",\"two_handed_damage\":" + ('null' if v5 is None else (_str(v5) if v5.__class__ is str else _raw(v5))) if v5 is not None and v5 != [] else ''), ",\"initiative\":", (_int[v6] if v6.__class__ is int else _raw(v6)), ",\"endurance_damage\":", ('null' if v7 is None else (_str(v7) if v7.__class__ is str else _raw(v7))), ",\"grievous_injury\":", ('null' if v8 is None else (_str(v8) if v8.__class__ is str else _raw(v8))), (",\"increase\":" + ('null' if v9 is None else write_DamageIncrease(v9)) if v9 is not None and v9 != [] else '')]).join('{}')


def _made_ArmorLine(value: Any) -> str:
    v0 = value.name
    v1 = value.protection
    v2 = value.agility_loss
    v3 = value.stealth_adjustment
    v4 = value.weight
    return ''.join(["\"name\":", (_str(v0) if v0.__class__ is str else _raw(v0)), ",\"protection\":", (_int[v1] if v1.__class__ is int else _raw(v1)), ",\"agility_loss\":", (_int[v2] if v2.__class__ is int else _raw(v2)), ",\"stealth_adjustment\":", (_int[v3] if v3.__class__ is int else _raw(v3)), ",\"weight\":", (_int[v4] if v4.__class__ is int else ((_float(v4) if _finite(v4) else _raw(v4)) if v4.__class__ is float else _raw(v4)))]).join('{}')


write_ArmorLine = _remembering(_made_ArmorLine)


def write_ShieldLine(value: Any) -> str:
    v0 = value.name
    v1 = value.rank
    v2 = value.defense_per_rank
    v3 = value.manual_dexterity_loss
    return ''.join(["\"name\":", (_str(v0) if v0.__class__ is str else _raw(v0)), ",\"rank\":", ('null' if v1 is None else (_int[v1] if v1.__class__ is int else _raw(v1))), ",\"defense_per_rank\":", (_int[v2] if v2.__class__ is int else _raw(v2)), ",\"manual_dexterity_loss\":", (_int[v3] if v3.__class__ is int else _raw(v3))]).join('{}')


def write_Combat(value: Any) -> str:
    v0 = value.modified_agility
    v1 = value.modified_manual_dexterity
    v2 = value.defense
    v3 = value.defense_postures
    v4 = value.tmr
    v5 = value.sprint_tmr
    v6 = value.initiative
    v7 = value.unarmed
    v8 = value.weapons
    v9 = value.armor
    v10 = value.shield
    v11 = value.stun_threshold
    v12 = value.stun_recovery
    v13 = value.breakage_check
    return ''.join(["\"modified_agility\":", (_int[v0] if v0.__class__ is int else _raw(v0)), ",\"modified_manual_dexterity\":", (_int[v1] if v1.__class__ is int else _raw(v1)), ",\"defense\":", ('null' if v2 is None else (_int[v2] if v2.__class__ is int else _raw(v2))), (",\"defense_postures\":" + ('null' if v3 is None else ','.join([(_str(k0) if k0.__class__ is str else _key(k0)) + ':' + ('null' if e0 is None else (_int[e0] if e0.__class__ is int else _raw(e0))) for k0, e0 in v3.items()]).join('{}')) if v3 is not None and v3 != [] else ''), ",\"tmr\":", (_int[v4] if v4.__class__ is int else _raw(v4)), (",\"sprint_tmr\":" + ('null' if v5 is None else (_int[v5] if v5.__class__ is int else _raw(v5))) if v5 is not None and v5 != [] else ''), ",\"initiative\":", (_int[v6] if v6.__class__ is int else _raw(v6)), ",\"unarmed\":", write_UnarmedLine(v7), ",\"weapons\":", ','.join([write_WeaponLine(e0) for e0 in v8]).join('[]'), (",\"armor\":" + ('null' if v9 is None else write_ArmorLine(v9)) if v9 is not None and v9 != [] else ''), (",\"shield\":" + ('null' if v10 is None else write_ShieldLine(v10)) if v10 is not None and v10 != [] else ''), ",\"stun_threshold\":", (_int[v11] if v11.__class__ is int else _raw(v11)), ",\"stun_recovery\":", (_int[v12] if v12.__class__ is int else _raw(v12)), ",\"breakage_check\":", (_int[v13] if v13.__class__ is int else _raw(v13))]).join('{}')


def write_Character(value: Any) -> str:
    v0 = value.schema_version
    v1 = value.name
    v2 = value.player
    v3 = value.campaign
    v4 = value.seed
    v5 = value.rules
    v6 = value.archetype
    v7 = value.gender
    v8 = value.race
    v9 = value.race_attempts
    v10 = value.race_type
    v11 = value.hand
    v12 = value.aspect
    v13 = value.points
    v14 = value.allocation
    v15 = value.optional
    v16 = value.rolls
    v17 = value.weapons
    v18 = value.armor
    v19 = value.shield
    v20 = value.unarmed_rank
    v21 = value.equipment_given
    v22 = value.equipment
    v23 = value.skills
    v24 = value.languages
    v25 = value.college
    v26 = value.spells
    v27 = value.abilities_given
    v28 = value.characteristics
    v29 = value.modifiers
    v30 = value.tmr
    v31 = value.experience_multiplier
    v32 = value.life_span
    v33 = value.starting_age
    v34 = value.racial_talents
    v35 = value.heritage
    v36 = value.experience_points
    v37 = value.starting_silver
    v38 = value.silver_pennies
    v39 = value.combat
    v40 = value.experience_bank
    v41 = value.notes
    return ''.join(["\"schema_version\":", (_int[v0] if v0.__class__ is int else _raw(v0)), ",\"name\":", (_str(v1) if v1.__class__ is str else _raw(v1)), (",\"player\":" + ('null' if v2 is None else (_str(v2) if v2.__class__ is str else _raw(v2))) if v2 is not None and v2 != [] else ''), (",\"campaign\":" + ('null' if v3 is None else (_str(v3) if v3.__class__ is str else _raw(v3))) if v3 is not None and v3 != [] else ''), (",\"seed\":" + ('null' if v4 is None else (_int[v4] if v4.__class__ is int else _raw(v4))) if v4 is not None and v4 != [] else ''), (",\"rules\":" + ','.join([','.join([(_str(k1) if k1.__class__ is str else _key(k1)) + ':' + (_str(e1) if e1.__class__ is str else _raw(e1)) for k1, e1 in e0.items()]).join('{}') for e0 in v5]).join('[]') if v5 is not None and v5 != [] else ''), (",\"archetype\":" + ('null' if v6 is None else (_str(v6) if v6.__class__ is str else _raw(v6))) if v6 is not None and v6 != [] else ''), ",\"gender\":", (_str(v7) if v7.__class__ is str else _raw(v7)), ",\"race\":", (_str(v8) if v8.__class__ is str else _raw(v8)), (",\"race_attempts\":" + ('null' if v9 is None else ','.join([(_str(e0) if e0.__class__ is str else _raw(e0)) for e0 in v9]).join('[]')) if v9 is not None and v9 != [] else ''), (",\"race_type\":" + ('null' if v10 is None else (_str(v10) if v10.__class__ is str else _raw(v10))) if v10 is not None and v10 != [] else ''), ",\"hand\":", (_str(v11) if v11.__class__ is str else _raw(v11)), ",\"aspect\":", (_str(v12) if v12.__class__ is str else _raw(v12)), ",\"points\":", write_Points(v13), ",\"allocation\":", ','.join([(_str(k0) if k0.__class__ is str else _key(k0)) + ':' + (_int[e0] if e0.__class__ is int else _raw(e0)) for k0, e0 in v14.items()]).join('{}'), (",\"optional\":" + ','.join([(_str(e0) if e0.__class__ is str else _raw(e0)) for e0 in v15]).join('[]') if v15 is not None and v15 != [] else ''), ",\"rolls\":", ','.join([(_str(k0) if k0.__class__ is str else _key(k0)) + ':' + (_int[e0] if e0.__class__ is int else (','.join([(_int[e1] if e1.__class__ is int else _doc(e1)) for e1 in e0]).join('[]') if e0.__class__ is list else _doc(e0))) for k0, e0 in v16.items()]).join('{}'), (",\"weapons\":" + ','.join([write_Carried(e0) for e0 in v17]).join('[]') if v17 is not None and v17 != [] else ''), (",\"armor\":" + ('null' if v18 is None else (_str(v18) if v18.__class__ is str else _raw(v18))) if v18 is not None and v18 != [] else ''), (",\"shield\":" + ('null' if v19 is None else write_Carried(v19)) if v19 is not None and v19 != [] else ''), (",\"unarmed_rank\":" + ('null' if v20 is None else (_int[v20] if v20.__class__ is int else _raw(v20))) if v20 is not None and v20 != [] else ''), ",\"equipment_given\":", ('true' if v21 is True else 'false' if v21 is False else _raw(v21)), (",\"equipment\":" + ','.join([write_Gear(e0) for e0 in v22]).join('[]') if v22 is not None and v22 != [] else ''), (",\"skills\":" + ','.join([write_Ranked(e0) for e0 in v23]).join('[]') if v23 is not None and v23 != [] else ''), (",\"languages\":" + ','.join([write_Ranked(e0) for e0 in v24]).join('[]') if v24 is not None and v24 != [] else ''), (",\"college\":" + ('null' if v25 is None else (_str(v25) if v25.__class__ is str else _raw(v25))) if v25 is not None and v25 != [] else ''), (",\"spells\":" + ','.join([write_MagicRanked(e0) for e0 in v26]).join('[]') if v26 is not None and v26 != [] else ''), (",\"abilities_given\":" + ('null' if v27 is None else ('true' if v27 is True else 'false' if v27 is False else _raw(v27))) if v27 is not None and v27 != [] else ''), ",\"characteristics\":", write_Characteristics(v28), ",\"modifiers\":", ','.join([(_str(k0) if k0.__class__ is str else _key(k0)) + ':' + write_Modifier(e0) for k0, e0 in v29.items()]).join('{}'), ",\"tmr\":", (_int[v30] if v30.__class__ is int else _raw(v30)), ",\"experience_multiplier\":", (_float(v31) if v31.__class__ is float and _finite(v31) else _raw(v31)), (",\"life_span\":" + ('null' if v32 is None else (_str(v32) if v32.__class__ is str else _raw(v32))) if v32 is not None and v32 != [] else ''), (",\"starting_age\":" + ('null' if v33 is None else (_str(v33) if v33.__class__ is str else _raw(v33))) if v33 is not None and v33 != [] else ''), (",\"racial_talents\":" + ','.join([(_str(e0) if e0.__class__ is str else _raw(e0)) for e0 in v34]).join('[]') if v34 is not None and v34 != [] else ''), ",\"heritage\":", write_Heritage(v35), ",\"experience_points\":", (_int[v36] if v36.__class__ is int else _raw(v36)), ",\"starting_silver\":", (_int[v37] if v37.__class__ is int else _raw(v37)), ",\"silver_pennies\":", (_int[v38] if v38.__class__ is int else _raw(v38)), ",\"combat\":", write_Combat(v39), (",\"experience_bank\":" + ('null' if v40 is None else (_int[v40] if v40.__class__ is int else _raw(v40))) if v40 is not None and v40 != [] else ''), (",\"notes\":" + ','.join([(_str(e0) if e0.__class__ is str else _raw(e0)) for e0 in v41]).join('[]') if v41 is not None and v41 != [] else '')]).join('{}')


KINDS = (Points, Carried, Gear, Ranked, MagicRanked, Characteristics, Modifier, Heritage, UnarmedLine, DamageIncrease, WeaponLine, ArmorLine, ShieldLine, Combat, Character)
WRITERS = {Points: write_Points, Carried: write_Carried, Gear: write_Gear, Ranked: write_Ranked, MagicRanked: write_MagicRanked, Characteristics: write_Characteristics, Modifier: write_Modifier, Heritage: write_Heritage, UnarmedLine: write_UnarmedLine, DamageIncrease: write_DamageIncrease, WeaponLine: write_WeaponLine, ArmorLine: write_ArmorLine, ShieldLine: write_ShieldLine, Combat: write_Combat, Character: write_Character}
FINGERPRINT = "ea4348a11af41f25"
