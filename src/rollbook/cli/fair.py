"""`rollbook fair`: provably fair dice by hand (SPEC F-1 to F-8).

``faces`` recomputes one roll's faces from the revealed seed, the chronicle, the client seed and the
nonce (F-4; ``--stream`` names the receipt's stream, F-7: the faces do not depend on it, the seed
does); ``commitment`` prints a seed's commitment (F-1); ``verify`` checks the fairness of a whole
JSON Lines export (F-6 … F-8) with ``rollbook.fair.check_log``.
"""

from __future__ import annotations

import json
from pathlib import Path

import typer

from rollbook import settings
from rollbook.cli.base import app, fail, read_text_argument
from rollbook.dice import commitment_of
from rollbook.fair import (
    MISMATCH,
    PENDING,
    PUBLIC,
    STREAMS,
    VERIFIED,
    check_client_seed,
    check_log,
    describe,
    faces_for,
    parse_dice_list,
    parse_seed,
)
from rollbook.i18n import counted, languages_text, normalize

fair_app = typer.Typer(
    help="Provably fair dice: recompute a roll's faces, check a seed or a whole export.", no_args_is_help=True
)
app.add_typer(fair_app, name="fair")

SeedOption = typer.Option(..., "--seed", help="The revealed server seed: 64 hexadecimal digits.")


@fair_app.command("faces")
def faces(
    seed: str = SeedOption,
    chronicle: int = typer.Option(..., "--chronicle", help="The chronicle id."),
    client: str = typer.Option(
        "", "--client", help="The client seed of the member who rolled (default: empty)."
    ),
    nonce: int = typer.Option(..., "--nonce", help="The roll's nonce (from its receipt)."),
    dice: str = typer.Option(..., "--dice", help="The dice in the order drawn: 5d10, 2d6,1d8, d20 …"),
    commitment: str | None = typer.Option(
        None, "--commitment", help="The commitment logged before the roll: the seed must hash to it."
    ),
    expect: str | None = typer.Option(
        None,
        "--expect",
        help="The faces the receipt shows (e.g. 3,7,2,10,8): compared with the recomputed ones.",
    ),
    stream: str = typer.Option(
        PUBLIC,
        "--stream",
        help='The stream the receipt\'s "fair" names: public (default) or hidden (F-7). '
        "Take the seed revealed for that stream's commitment.",
    ),
    as_json: bool = typer.Option(False, "--json", help="One JSON object instead of the faces."),
) -> None:
    """Recompute the faces of one roll (F-4, hmac-sha256-v1), for a player checking by hand.

    Prints the faces, space-separated. With --commitment or --expect, exit 1 when the seed does not
    match the commitment or the faces differ."""
    if stream not in STREAMS:
        fail(f"--stream is public or hidden, not {stream!r}")
    seed_bytes = parse_seed(seed)
    sizes = parse_dice_list(dice)
    recomputed = faces_for(seed_bytes, chronicle, check_client_seed(client), nonce, sizes)
    expected = _faces_list(expect) if expect is not None else None
    seed_commitment = commitment_of(seed_bytes)
    seed_ok = commitment is None or seed_commitment == commitment.strip().lower()
    faces_ok = expected is None or list(recomputed) == expected
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "algorithm": "hmac-sha256-v1",
                    "commitment": seed_commitment,
                    "chronicle": chronicle,
                    "client_seed": client,
                    "nonce": nonce,
                    "stream": stream,
                    "sizes": list(sizes),
                    "faces": list(recomputed),
                    "seed_matches": seed_ok if commitment else None,
                    "faces_match": faces_ok if expected is not None else None,
                },
                ensure_ascii=False,
            )
        )
    else:
        typer.echo(" ".join(str(face) for face in recomputed))
    if not seed_ok and commitment is not None:
        typer.echo(
            f"rollbook: the seed's commitment is {seed_commitment}, not {commitment.strip()}", err=True
        )
    if not faces_ok and expected is not None:
        typer.echo(f"rollbook: the receipt shows {' '.join(map(str, expected))}: the faces differ", err=True)
    raise typer.Exit(0 if seed_ok and faces_ok else 1)


def _faces_list(text: str) -> list[int]:
    parts = [part for part in text.replace(",", " ").split() if part]
    if not parts or not all(part.isdigit() for part in parts):
        fail(f"--expect takes the faces as whole numbers, e.g. 3,7,2,10,8 (not {text!r})")
    return [int(part) for part in parts]


@fair_app.command("commitment")
def commitment(seed: str = SeedOption) -> None:
    """Print a seed's commitment (F-1): the lowercase hex SHA-256 of its 32 bytes."""
    typer.echo(commitment_of(parse_seed(seed)))


@fair_app.command("verify")
def verify(
    file: Path = typer.Argument(
        ..., help="A JSON Lines export of a chronicle's log ('-' for standard input)."
    ),
    every: bool = typer.Option(False, "--every", help="One line per roll, not only the problems."),
    lang: str | None = typer.Option(
        None, "--lang", help=f"{languages_text()} (default: from the environment's locale)."
    ),
) -> None:
    """Check the fairness of a whole export (F-1 to F-8): each revealed seed against its commitment,
    commitments before use (one seed in use per stream, hidden rolls from the hidden stream), nonces,
    each reveal's count of rolls, client seeds, and every face under a revealed seed.

    Rolls under a seed not revealed yet are pending, not verified. Exit 0 when no problem is found,
    1 with one line per problem. The hash chain itself is `rollbook log verify`'s."""
    language = normalize(lang) if lang else settings.current().language
    text = read_text_argument(file)
    entries = []
    for line in text.splitlines():
        if line.strip():
            try:
                entries.append(json.loads(line))
            except json.JSONDecodeError:
                entries.append(None)
    report = check_log(entries)
    if every:
        for draw in report.draws:
            where = f"entry {draw.seq}" + (f", reroll {draw.reroll + 1}" if draw.reroll is not None else "")
            shown = " ".join(map(str, draw.faces))
            seed = (draw.commitment or "?")[:12]
            stream = "" if draw.stream == PUBLIC else f"{draw.stream} stream, "
            typer.echo(f"{where}: {draw.status} ({stream}seed {seed}…, nonce {draw.nonce}, faces {shown})")
    for problem in report.problems:
        typer.echo(describe(problem, language))
    counts = report.counts()
    verdict = "clean" if report.clean else counted(len(report.problems), "problem", "problems")
    hidden = (
        f", {counted(report.redacted, 'hidden entry', 'hidden entries')} not readable"
        if report.redacted
        else ""
    )
    typer.echo(
        f"rollbook: {counts[VERIFIED]} verified, {counts[PENDING]} pending (seed not revealed yet), "
        f"{counts[MISMATCH]} mismatched, {counts['unproven']} without a fairness record{hidden}: {verdict}",
        err=True,
    )
    raise typer.Exit(0 if report.clean else 1)
