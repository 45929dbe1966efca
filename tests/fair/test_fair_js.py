"""fair.js in Chromium: the browser recomputes F-4 faces with Web Crypto and agrees with Python on the
known answer and every stored vector (tests/vectors/fair/hmac-sha256-v1.jsonl)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rollbook.dice import faces_from_values
from rollbook.fair import faces_for
from tests.fair.vectors import SEED_VECTORS, VALUE_VECTORS

pytestmark = pytest.mark.browser

FAIR_JS = Path(__file__).resolve().parents[2] / "src" / "rollbook" / "web" / "static" / "fair.js"


@pytest.fixture(scope="module")
def page(browser, tmp_path_factory):
    """A tiny static page (a local file: a secure context, so Web Crypto is there) loading fair.js,
    in the test process's one browser (tests/browser.py)."""
    folder = tmp_path_factory.mktemp("fair-page")
    html = folder / "verify.html"
    html.write_text(
        f'<!doctype html><meta charset="utf-8"><title>fair</title>'
        f'<script src="{FAIR_JS.as_uri()}"></script><p id="ready">ready</p>',
        encoding="utf-8",
    )
    context = browser.new_context()
    page = context.new_page()
    page.goto(html.as_uri())
    assert page.evaluate("window.isSecureContext && typeof RollbookFair === 'object'")
    yield page
    context.close()


def browser_faces(page, vector):
    return page.evaluate("v => RollbookFair.faces(v.seed, v.chronicle, v.client, v.nonce, v.sizes)", vector)


def test_the_browser_gives_the_f4_known_answer(page):
    """F-4: seed bytes 0…31 (commitment 630dcd29…10dd), chronicle 1, "alice", nonce 1 → 3, 7, 2, 10, 8."""
    seed = bytes(range(32)).hex()
    assert page.evaluate("s => RollbookFair.commitment(s)", seed) == (
        "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    )
    assert page.evaluate("s => RollbookFair.faces(s, 1, 'alice', 1, [10, 10, 10, 10, 10])", seed) == [
        3,
        7,
        2,
        10,
        8,
    ]


def test_every_stored_vector_matches_python_in_the_browser(page):
    """All seed vectors (d2…d20, d100, mixed sizes, non-ASCII and escaped client seeds, block boundaries,
    the largest ids) in one browser call, compared with the file and with Python's faces_for."""
    results = page.evaluate(
        """async vectors => {
        const out = [];
        for (const v of vectors) {
            out.push({faces: await RollbookFair.faces(v.seed, v.chronicle, v.client, v.nonce, v.sizes),
                      commitment: await RollbookFair.commitment(v.seed),
                      message: RollbookFair.blockMessage(0, v.chronicle, v.client, v.nonce)});
        }
        return out;
    }""",
        SEED_VECTORS,
    )
    from rollbook.dice import fair_message

    for vector, result in zip(SEED_VECTORS, results, strict=True):
        python = list(
            faces_for(
                bytes.fromhex(vector["seed"]),
                vector["chronicle"],
                vector["client"],
                vector["nonce"],
                vector["sizes"],
            )
        )
        assert result["faces"] == vector["faces"] == python, vector["name"]
        assert result["commitment"] == vector["commitment"], vector["name"]
        assert result["message"].encode("utf-8") == fair_message(
            0, vector["chronicle"], vector["client"], vector["nonce"]
        ), vector["name"]


def test_the_browser_discards_the_biased_tail_like_python(page):
    """F-4 rejection on constructed streams (a real rejection is too rare to find: < 2**-57 per die)."""
    for vector in VALUE_VECTORS:
        got = page.evaluate("v => RollbookFair.facesFromValues(v.values, v.sizes)", vector)
        python = list(faces_from_values(iter(int(text, 16) for text in vector["values"]), vector["sizes"]))
        assert got == vector["faces"] == python, vector["name"]


def test_verify_says_verified_or_mismatch(page):
    known = {
        "seed": bytes(range(32)).hex(),
        "commitment": "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",
        "chronicle": 1,
        "clientSeed": "alice",
        "nonce": 1,
        "sizes": [10] * 5,
        "faces": [3, 7, 2, 10, 8],
    }
    ok = page.evaluate("r => RollbookFair.verify(r)", known)
    assert ok["status"] == "verified" and ok["reason"] is None and ok["expected"] == [3, 7, 2, 10, 8]
    edited = page.evaluate("r => RollbookFair.verify(r)", {**known, "faces": [3, 7, 2, 10, 9]})
    assert edited["status"] == "mismatch" and edited["reason"] == "faces"
    other_client = page.evaluate("r => RollbookFair.verify(r)", {**known, "clientSeed": "bob"})
    assert other_client["status"] == "mismatch" and other_client["reason"] == "faces"
    wrong_seed = page.evaluate("r => RollbookFair.verify(r)", {**known, "commitment": "0" * 64})
    assert wrong_seed["status"] == "mismatch" and wrong_seed["reason"] == "commitment"


@pytest.mark.parametrize(
    "call,code",
    [
        ("RollbookFair.faces('abc', 1, 'a', 1, [10])", "bad_seed_hex"),
        ("RollbookFair.faces(SEED, 1, 'a', 0, [10])", "bad_nonce"),
        ("RollbookFair.faces(SEED, 1.5, 'a', 1, [10])", "bad_chronicle"),
        ("RollbookFair.faces(SEED, 1, 'a\\uD800', 1, [10])", "client_seed_not_text"),
        ("RollbookFair.faces(SEED, 1, 'a', 1, [0])", "bad_sizes"),
    ],
)
def test_bad_input_is_refused_with_a_code(page, call, code):
    script = (
        f"async () => {{ const SEED = '{bytes(range(32)).hex()}'; try {{ await {call}; return 'none'; }} "
        f"catch (error) {{ return error.code; }} }}"
    )
    assert page.evaluate(script) == code


def test_verify_reads_the_receipts_stream_f7(page):
    """F-7: a receipt names its stream; the seed used must be that stream's; an export from before
    F-7 names none (the public stream); an unknown stream is refused with a code."""
    known = {
        "seed": bytes(range(32)).hex(),
        "chronicle": 1,
        "clientSeed": "alice",
        "nonce": 1,
        "sizes": [10] * 5,
        "faces": [3, 7, 2, 10, 8],
    }
    legacy = page.evaluate("r => RollbookFair.verify(r)", known)
    assert legacy["status"] == "verified" and legacy["stream"] == "public"
    hidden = page.evaluate(
        "r => RollbookFair.verify(r)", {**known, "stream": "hidden", "seedStream": "hidden"}
    )
    assert hidden["status"] == "verified" and hidden["stream"] == "hidden"
    crossed = page.evaluate(
        "r => RollbookFair.verify(r)", {**known, "stream": "hidden", "seedStream": "public"}
    )
    assert crossed["status"] == "mismatch" and crossed["reason"] == "stream"
    script = "async r => { try { await RollbookFair.verify(r); return 'none'; } catch (error) { return error.code; } }"
    assert page.evaluate(script, {**known, "stream": "secret"}) == "bad_stream"
