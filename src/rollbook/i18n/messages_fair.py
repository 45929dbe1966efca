"""English msgids for the codes of provably fair dice (SPEC F-1 to F-6): refusals of a seed,
client seed or dice list, and the findings of ``rollbook.fair.check_log``. Translated by the
``core.po`` catalogues."""

from __future__ import annotations

from rollbook.i18n import N_, Nn_

FAIR_MESSAGES: dict[str, str] = {
    "bad_seed": N_("A server seed is 32 bytes, not {length}."),
    "bad_seed_hex": N_("A seed is 64 hexadecimal digits (32 bytes); {length} characters were given."),
    "client_seed_not_text": N_("A client seed must be plain text that can be written in UTF-8."),
    "client_seed_too_long": N_("A client seed has at most {most} characters; this one has {given}."),
    "bad_dice_list": N_(
        "Dice are written like 5d10 or 2d6,1d8 (2 to 1000 sides, at most 1000 dice), not {value}."
    ),
    "fair_cannot_replay": N_("The dice of this roll cannot be rebuilt from its request."),
    "seed_commit_malformed": N_(
        "The seed commitment is not an hmac-sha256-v1 commitment of 64 lowercase hexadecimal digits."
    ),
    "seed_commit_repeated": N_("Seed {commitment} was already committed in entry {first}."),
    "seed_commit_while_active": N_(
        "A new seed is committed while seed {active} is still in use (not revealed)."
    ),
    # {field}: the receipt's fields that are missing or not of their form (F-5 to F-8), as the log names them
    "seed_reveal_malformed": N_("The seed reveal entry is incomplete or malformed: {field}."),
    "seed_reveal_uncommitted": N_("Seed {commitment} is revealed but was never committed before."),
    "seed_reveal_mismatch": N_("The revealed seed does not hash to its commitment {commitment}."),
    "seed_revealed_twice": N_("Seed {commitment} was already revealed in entry {first}."),
    "seed_abandon_not_in_use": N_("Seed {commitment} is abandoned but is not a seed in use."),
    "seed_abandon_malformed": N_(
        "The seed abandon entry is incomplete or malformed (its algorithm, commitment, stream, counts or cause)."
    ),
    "fair_used_after_abandon": N_("Seed {commitment} was used after it was abandoned in entry {abandoned}."),
    "client_seed_entry_malformed": N_(
        "The client seed entry names no member, or its client seed is not text of at most {most} characters."
    ),
    "fair_record_malformed": N_("The fairness record is incomplete or malformed."),
    "fair_record_missing": N_("The roll has no fairness record although seed {commitment} was in use."),
    "fair_unknown_algorithm": N_("The roll names the algorithm {algorithm}, not hmac-sha256-v1."),
    "fair_uncommitted": N_("Seed {commitment} was not committed in the log before this roll used it."),
    "fair_used_after_reveal": N_("Seed {commitment} was used after it was revealed in entry {revealed}."),
    "fair_not_current": N_("Seed {commitment} was used while seed {current} was the one in use."),
    "fair_nonce_reused": N_("Nonce {nonce} of seed {commitment} was already used in entry {first}."),
    "fair_nonce_order": N_("Nonce {nonce} comes after nonce {previous}: nonces only go up."),
    "fair_nonce_missing": Nn_(
        "Seed {commitment}: nonce {nonces} never appears in the log.",
        "Seed {commitment}: nonces {nonces} never appear in the log.",
        "count",
    ),
    "fair_quoted_draw_differs": N_(
        "The follow-up repeats nonce {nonce} of entry {first} with other dice or another client seed."
    ),
    "fair_client_seed_differs": N_(
        "Client seed {used} was used, but member {member} had set {expected} in entry {set_in}."
    ),
    "fair_client_seed_not_default": N_(
        "Client seed {used} was used, but member {member} had set none (the default is empty)."
    ),
    "fair_faces_differ": N_(
        "The faces {faces} differ from the faces recomputed from the revealed seed: {expected}."
    ),
    "fair_seed_not_verifiable": N_(
        "The revealed seed does not match commitment {commitment}, so these faces cannot be verified."
    ),
    # F-7, F-8
    "seed_reveal_stream_differs": N_(
        "Seed {commitment} was committed in the {committed} stream but is revealed as the {stream} stream's."
    ),
    "fair_stream_differs": N_(
        "The roll names the {stream} stream, but seed {commitment} is the {committed} stream's."
    ),
    "fair_wrong_stream": N_(
        "A {visibility} roll drew from the {stream} stream (seed {commitment}): hidden rolls draw from the hidden stream, visible ones from the public stream."
    ),
    "fair_rolls_missing": N_(
        "Seed {commitment} served the nonces up to {last} ({rolls} in all), but the log holds them up to {found_last} ({found} in all): a roll is missing."
    ),
    "fair_rolls_beyond_reveal": N_(
        "Seed {commitment} served the nonces up to {last} ({rolls} in all), but the log holds them up to {found_last} ({found} in all)."
    ),
}
