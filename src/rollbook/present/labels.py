"""English msgids for what the pages name: traits, sheet fields, action and change kinds, choices.

Every text here is a msgid of the ``web`` catalogue (``N_`` marks it for extraction); the pages
translate it with the reader's language. A name missing here falls back to its id made readable
("animal_ken" -> "Animal ken"), still passed through the catalogues.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from rollbook.i18n import N_, translate
from rollbook.i18n.messages import SYSTEM_NAMES
from rollbook.play import systems
from rollbook.present.words import own_words

TRAITS = {
    # Attributes (V20 and V5)
    "strength": N_("Strength"),
    "dexterity": N_("Dexterity"),
    "stamina": N_("Stamina"),
    "charisma": N_("Charisma"),
    "manipulation": N_("Manipulation"),
    "appearance": N_("Appearance"),
    "composure": N_("Composure"),
    "perception": N_("Perception"),
    "intelligence": N_("Intelligence"),
    "wits": N_("Wits"),
    "resolve": N_("Resolve"),
    # V20 Talents, Skills, Knowledges and V5 Skills
    "alertness": N_("Alertness"),
    "athletics": N_("Athletics"),
    "awareness": N_("Awareness"),
    "brawl": N_("Brawl"),
    "empathy": N_("Empathy"),
    "expression": N_("Expression"),
    "intimidation": N_("Intimidation"),
    "leadership": N_("Leadership"),
    "streetwise": N_("Streetwise"),
    "subterfuge": N_("Subterfuge"),
    "animal_ken": N_("Animal Ken"),
    "crafts": N_("Crafts"),
    "craft": N_("Craft"),
    "drive": N_("Drive"),
    "etiquette": N_("Etiquette"),
    "firearms": N_("Firearms"),
    "larceny": N_("Larceny"),
    "melee": N_("Melee"),
    "performance": N_("Performance"),
    "stealth": N_("Stealth"),
    "survival": N_("Survival"),
    "academics": N_("Academics"),
    "computer": N_("Computer"),
    "finance": N_("Finance"),
    "investigation": N_("Investigation"),
    "law": N_("Law"),
    "medicine": N_("Medicine"),
    "occult": N_("Occult"),
    "politics": N_("Politics"),
    "science": N_("Science"),
    "technology": N_("Technology"),
    "insight": N_("Insight"),
    "persuasion": N_("Persuasion"),
    # Disciplines
    "animalism": N_("Animalism"),
    "auspex": N_("Auspex"),
    "blood_sorcery": N_("Blood Sorcery"),
    "celerity": N_("Celerity"),
    "dominate": N_("Dominate"),
    "fortitude": N_("Fortitude"),
    "obfuscate": N_("Obfuscate"),
    "oblivion": N_("Oblivion"),
    "potence": N_("Potence"),
    "presence": N_("Presence"),
    "protean": N_("Protean"),
    "thaumaturgy": N_("Thaumaturgy"),
    "dementation": N_("Dementation"),
    "obtenebration": N_("Obtenebration"),
    "quietus": N_("Quietus"),
    "serpentis": N_("Serpentis"),
    "vicissitude": N_("Vicissitude"),
    "chimerstry": N_("Chimerstry"),
    "necromancy": N_("Necromancy"),
    "thin_blood_alchemy": N_("Thin-Blood Alchemy"),
    # Virtues and other traits
    "conscience": N_("Conscience"),
    "self_control": N_("Self-Control"),
    "courage": N_("Courage"),
    "humanity": N_("Humanity"),
    "willpower": N_("Willpower"),
    "blood_potency": N_("Blood Potency"),
    "humanity_third": N_("a third of Humanity"),
    "empty_humanity_boxes": N_("empty Humanity boxes"),
    # Tiers
    "arcanes": N_("Arcanes"),
    "dodge": N_("Dodge"),
    "two_weapons": N_("Two Weapons"),
    "endurance": N_("Endurance"),
    # body locations (Tiers armour)
    "head": N_("Head"),
    "torso": N_("Torso"),
    "arms": N_("Arms"),
    "legs": N_("Legs"),
}

# Fields of sheets, actions and changes (form labels).
FIELDS = {
    "hidden": N_("Hidden roll"),
    "name": N_("Name"),
    "pick": N_("The character of the file"),  # import: one of a file holding several (docs/import.md)
    "player": N_("Player"),
    "concept": N_("Concept"),
    "clan": N_("Clan"),
    "sire": N_("Sire"),
    "predator": N_("Predator type"),
    "ambition": N_("Ambition"),
    "desire": N_("Desire"),
    "nature": N_("Nature"),
    "demeanor": N_("Demeanor"),
    "notes": N_("Notes"),
    "creature": N_("Creature"),
    "generation": N_("Generation"),
    "hunger": N_("Hunger"),
    "blood_potency": N_("Blood Potency"),
    "humanity": N_("Humanity"),
    "stains": N_("Stains"),
    "attribute": N_("Attribute"),
    "second_attribute": N_("Second attribute"),
    "skill": N_("Skill"),
    "ability": N_("Ability"),
    "discipline": N_("Discipline"),
    "specialty": N_("Specialty"),
    "difficulty": N_("Difficulty"),
    "required": N_("Successes required"),
    "modifier": N_("Dice modifier"),
    "willpower": N_("Spend Willpower (+1 automatic success)"),
    "auto_successes": N_("Automatic successes from powers"),
    "knowledge_allowed": N_("The Storyteller allows an untrained Knowledge"),
    "blood_surge": N_("Blood Surge"),
    "serves_compulsion": N_("The action serves the compulsion"),  # seed 001 (catalogue: v5)
    "slake": N_("Hunger slaked"),  # feeding (catalogue: v5)
    "power": N_("Power"),
    "kill": N_("The vessel is drained to death"),
    "halve": N_("Halve superficial Health damage (a vampire)"),
    "discipline_level": N_("Level of the Discipline (Blood Potency reroll)"),
    "mend": N_("Mend superficial Health"),
    "virtue": N_("Virtue"),
    "damage": N_("Damage"),
    "damage_type": N_("Damage type"),
    "amount": N_("Amount"),
    "resource": N_("Resource"),
    "track": N_("Track"),
    "superficial": N_("Superficial damage"),
    "aggravated": N_("Aggravated damage"),
    "levels": N_("Health levels"),
    "heal": N_("Heal"),
    "trait": N_("Trait"),
    "weapon": N_("Weapon"),
    "aimed_at_head": N_("Aimed at the head"),
    "second_weapon": N_("Second weapon"),
    "bullets": N_("Bullets fired"),
    "attack_tier": N_("Attack tier"),
    "location": N_("Body location"),
    "spell": N_("Spell"),
    "action": N_("Declared action"),
    "level": N_("Level"),
    "bonus": N_("Bonus"),
    "malus": N_("Malus"),
    "advantage": N_("Advantage"),
    "disadvantage": N_("Disadvantage"),
    "task": N_("Task"),
    "card": N_("Card"),
    "cards": N_("Cards"),
    "dice": N_("Dice"),
    "threshold": N_("Threshold"),
    "effect": N_("Effect"),
    "consumable": N_("Used up when played"),
    "text": N_("What it does"),
    "turn_spent": N_("Turn spent"),
    "clan_disciplines": N_("Clan Disciplines"),
    "attack": N_("Attack"),
    "defense": N_("Defense"),
    # the fields of a list's rows (a weapon), named in the form and in the log of edits
    "kind": N_("Kind"),
    "capacity": N_("Magazine capacity"),
    "loaded": N_("Rounds loaded"),
    "spare": N_("Spare rounds"),
}

# Kinds of rolls (actions) and of changes; a system's own words for one are its (``SystemWords.KINDS``).
KINDS = {
    "test": N_("Test: Attribute + Ability"),
    "rouse": N_("Rouse check"),
    "willpower": N_("Willpower roll"),
    "remorse": N_("Remorse roll"),
    "power": N_("Use a power"),  # a listed Discipline power, rolled and paid (catalogue: v5)
    "frenzy": N_("Resist frenzy"),
    "virtue": N_("Virtue roll"),
    "soak": N_("Soak roll"),
    "skill": N_("Skill roll"),
    "dodge": N_("Dodge"),
    "spell": N_("Cast a spell"),
    "check": N_("Check"),
    "opposed": N_("Opposed roll"),
    # changes
    "spend_willpower": N_("Spend Willpower"),
    "spend_blood": N_("Spend blood"),
    "damage": N_("Take damage"),
    "restore": N_("Restore"),
    "hunger": N_("Change Hunger"),
    "stains": N_("Add stains"),
    "feed": N_("Feed"),  # catalogue: v5
    "award_experience": N_("Award experience"),
    "spend_experience": N_("Spend experience"),
    "reload": N_("Reload"),
    "new_turn": N_("New turn"),
    "reroll": N_("Willpower reroll"),
    "reveal": N_("Reveal"),
    "grant_card": N_("Grant a card"),
    "remove_card": N_("Remove a card"),
}

# Choices inside enums.
CHOICES = {
    "firearm": N_("Firearm"),
    "hand_to_hand": N_("Hand to hand"),
    "ammunition": N_("Ammunition"),
    "vampire": N_("Vampire"),
    "thin_blood": N_("Thin-blood"),
    "ghoul": N_("Ghoul"),
    "mortal": N_("Mortal"),
    "superficial": N_("superficial"),
    "aggravated": N_("aggravated"),
    "bashing": N_("bashing"),
    "lethal": N_("lethal"),
    "health": N_("Health"),
    "willpower": N_("Willpower"),
    "blood": N_("Blood"),
    "essence": N_("Essence"),
    "wounds": N_("Wounds"),
    "strict": N_("Strict"),
    "casual": N_("Casual"),
    "normal": N_("normal"),
    "absurd": N_("absurd"),
    "trivial": N_("trivial"),
    "storyteller": N_("Storyteller"),
    "player": N_("Player"),
    "win": N_("a win"),
    "clean": N_("a win without a Messy Critical"),
    "crit": N_("a critical"),
    "advantage": N_("advantage"),
    "bonus": N_("bonus"),
    "extra": N_("extra effect"),
}

SYSTEMS = SYSTEM_NAMES  # declared once, where a refusal naming a system reads them too

# Pool modifiers named in receipts.
SOURCES = {
    "bonus": N_("bonus"),
    "malus": N_("malus"),
    "weapon": N_("weapon"),
    "card": N_("card"),
    "specialty": N_("specialty"),
    "blood_surge": N_("Blood Surge"),
    "compulsion": N_("compulsion"),  # seed 001 (catalogue: v5)
    "modifier": N_("modifier"),
    "attack_successes": N_("attack successes beyond the first"),  # V20-17
}

# Resources named in effects ("willpower.superficial": 0 -> 1).
RESOURCES = {
    "willpower": N_("Willpower"),
    "willpower.superficial": N_("Willpower (superficial damage)"),
    "willpower.aggravated": N_("Willpower (aggravated damage)"),
    "willpower.max": N_("Willpower boxes"),
    "health.superficial": N_("Health (superficial damage)"),
    "health.aggravated": N_("Health (aggravated damage)"),
    "health.max": N_("Health boxes"),
    "health.bashing": N_("Health (bashing)"),
    "health.lethal": N_("Health (lethal)"),
    "hunger": N_("Hunger"),
    "humanity": N_("Humanity"),
    "stains": N_("Stains"),
    "blood": N_("Blood pool"),
    "blood.current": N_("Blood pool"),
    "experience": N_("Experience available"),
    "essence": N_("Essence"),
    "wounds": N_("Wound level"),
    "wounds.level": N_("Wound level"),
    "blood_potency": N_("Blood Potency"),
    "turn_spent": N_("Turn spent"),
    "ammunition.loaded": N_("Rounds loaded"),
    "ammunition.spare": N_("Spare rounds"),
    "essence.max": N_("Maximum Essence"),
}

FLAGS = {
    "hunger_frenzy_risk": N_("Hunger 5: feed or risk hunger frenzy"),
    "halved": N_("Superficial damage halved (a vampire)"),  # catalogue: v5
    "impaired": N_("Impaired: the track is full"),
    "track_full": N_("The track is full of aggravated damage"),
    "track_overflow": N_("Damage beyond the track"),
    "health_overflow": N_("Damage beyond the health track"),
    "incapacitated": N_("Incapacitated"),
    "wound_overflow": N_("Damage beyond the wound track"),
    "wound_track_full": N_("The wound track is full"),
    "magazine_empty": N_("The magazine is empty"),
}


class _Disciplines(Mapping[str, tuple[str, ...]]):
    """The Disciplines each game knows (offered as suggestions; a homebrew name is still accepted), by
    system id, as its words declare them (``present.words``: ``DISCIPLINES``); a game without any is not in it."""

    def __getitem__(self, system: str) -> tuple[str, ...]:
        own = own_words(system)
        if own is None or not own.DISCIPLINES:
            raise KeyError(system)
        return tuple(own.DISCIPLINES)

    def __iter__(self) -> Iterator[str]:
        return (system for system in systems.system_ids() if system in self)

    def __len__(self) -> int:
        return sum(1 for _ in self)


DISCIPLINES: Mapping[str, tuple[str, ...]] = _Disciplines()


def readable(identifier: str) -> str:
    return identifier.replace("_", " ").capitalize()


def trait(name: str, lang: str, names: Mapping[str, str] | None = None) -> str:
    """A trait in the reader's language; a homebrew one by the name it was typed with (the sheet's
    ``names``: "egouts" -> "Égouts", in every language), else its id made readable."""
    if name in TRAITS:
        return translate(TRAITS[name], lang)
    if names and isinstance(names.get(name), str):
        return names[name]
    return translate(readable(name), lang)


def field(name: str, lang: str, title: str | None = None) -> str:
    return translate(FIELDS.get(name) or title or readable(name), lang)


def field_param(path: str, lang: str) -> str:
    """The ``field`` of a problem ("damage", "card.name", "attributes.strength", "weapons.1.bonus") as
    the form labels it, in the reader's language (the API keeps the id)."""
    parts = [p for p in str(path).split(".") if p and not p.isdigit()]
    last = parts[-1] if parts else str(path)
    if last not in FIELDS and last in TRAITS:
        return trait(last, lang)
    return field(last, lang)


def kind(system: str, name: str, lang: str) -> str:
    """A kind of roll or change in words: the system's own (its words' ``KINDS``), else the package's."""
    own = own_words(system)
    return translate(
        (own.KINDS.get(name) if own is not None else None) or KINDS.get(name) or readable(name), lang
    )


def choice(value: str, lang: str, field_name: str | None = None) -> str:
    named_trait = field_name in ("attribute", "second_attribute", "virtue", "location", "trait")
    if named_trait or (value in TRAITS and value not in CHOICES):
        return trait(value, lang)
    return translate(CHOICES.get(value) or readable(value), lang)


def resource(path: str, lang: str, names: Mapping[str, str] | None = None) -> str:
    if path in RESOURCES:
        return translate(RESOURCES[path], lang)
    head, _, rest = path.partition(".")
    if (
        head in ("attributes", "skills", "talents", "knowledges", "disciplines", "virtues", "specialties")
        and rest
    ):
        return trait(rest, lang, names)
    return trait(path.replace(".", "_"), lang, names)


def system_name(system: str, lang: str) -> str:
    return translate(SYSTEMS.get(system, system), lang)


# What a refusal "only the Storyteller may do this (…)" names (``storyteller_only``'s ``action``).
ACTIONS = {
    "reveal": N_("reveal a hidden roll"),
    "grant": N_("grant an ask"),
    "refuse": N_("refuse an ask"),
    "new_invitation": N_("make a new invitation"),
    "open_scene": N_("open a scene"),
    "close_scene": N_("close the scene"),
    "advance_turn": N_("start the next turn"),
    "new_turn": N_("start the next turn"),
    "declare_actions": N_("declare actions"),
    "standing_grant": N_("grant a standing edge"),
    "standing_end": N_("end a standing grant"),
    "update_chronicle": N_("change the chronicle's settings"),
    "rotate_seed": N_("change the server seed"),
    "abandon_seed": N_("give up an unreadable server seed"),
    "quick_rolls": N_("allow or forbid quick rolls"),
    "quick_roll": N_("a quick roll, now that the Storyteller forbids them"),
    "remove_character": N_("remove a character"),
    "remove_member": N_("remove a member"),
    "hidden": N_("a hidden roll"),
    "difficulty": N_("set a difficulty"),
    "owner": N_("give a character to a player"),
}


def action(name: str, lang: str, system: str = "") -> str:
    """A refused action in words (``ACTIONS``, else the kind of roll or change it names)."""
    if name in ACTIONS:
        return translate(ACTIONS[name], lang)
    return kind(system, name, lang)


# --- discipline powers (play.powers_data: English names, msgids of the ``powers`` catalogue) ---------


def power(system: str, discipline: str, power_id: str, lang: str) -> str:
    """A known power in the reader's language ("sense_the_unseen" -> "Percevoir l'invisible")."""
    from rollbook.play.powers import known

    listed = known(system).get(discipline, {}).get(power_id)
    return translate(listed[1], lang) if listed else readable(power_id)
