"""The server seeds' key is stretched from the operator's secret with scrypt, with
the documented fixed salt and parameters; a seed sealed before (SHA-256 of the secret, format v1)
still opens, and the Storyteller's rotation seals its successor under the new key (SPEC F-1, F-5)."""

from __future__ import annotations

import base64
import hashlib
import secrets
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from sqlalchemy import select

from rollbook.server import seal
from rollbook.server.models import FairSeed
from rollbook.settings import Settings, install

from .conftest import V5_SHEET, V5_TEST

OLD_SECRET = "an operator secret of old"
SEED = bytes(range(32))
# sealed by the code before scrypt (main 37b6187) for chronicle 7 and commitment "c0ffee"
SEALED_V1 = "aes256gcm-v1:ElZa3lo7ICIsPZfq86vYysEBHfzNkTOx6ly0SXcUz6yQW1v262TPKkMss8cnWazKdgSFSrx9cky6pbNK"


def test_a_seed_sealed_before_scrypt_still_opens():
    assert seal.unseal(SEALED_V1, 7, "c0ffee", secret=OLD_SECRET) == SEED
    with pytest.raises(seal.SecretKeyError):
        seal.unseal(SEALED_V1, 7, "c0ffee", secret="another operator secret")
    with pytest.raises(seal.SecretKeyError):
        seal.unseal(SEALED_V1, 8, "c0ffee", secret=OLD_SECRET)  # another chronicle's row


def test_a_new_seal_is_v2_under_the_documented_scrypt_key():
    stored = seal.seal(SEED, 7, "c0ffee", secret=OLD_SECRET)
    assert stored.startswith("aes256gcm-v2:")
    assert seal.unseal(stored, 7, "c0ffee", secret=OLD_SECRET) == SEED
    # the key as documented, derived independently (the standard library's scrypt)
    key = hashlib.scrypt(
        OLD_SECRET.encode(),
        salt=b"rollbook server seed seal v2",
        n=2**15,
        r=8,
        p=1,
        maxmem=64 * 2**20,
        dklen=32,
    )
    raw = base64.b64decode(stored.split(":", 1)[1])
    assert AESGCM(key).decrypt(raw[:12], raw[12:], b"rollbook-seed:7:c0ffee") == SEED
    # not the old derivation's key
    old = hashlib.sha256(b"rollbook server seed seal\0" + OLD_SECRET.encode()).digest()
    with pytest.raises(InvalidTag):
        AESGCM(old).decrypt(raw[:12], raw[12:], b"rollbook-seed:7:c0ffee")
    with pytest.raises(seal.SecretKeyError, match="unknown sealed seed format"):
        seal.unseal("aes256gcm-v9:" + stored.split(":", 1)[1], 7, "c0ffee", secret=OLD_SECRET)


def test_a_replaced_key_file_seals_under_its_own_key(tmp_path):
    """The derived keys are kept per secret (a few at most): the key file replaced, the next seal is
    under the new secret's key, and the old secret no longer opens it."""
    path = tmp_path / "operator.key"
    install(Settings(secret_key=None, secret_key_file=str(path)))
    path.write_text("first secret of sixteen+ chars\n")
    first = seal.seal(SEED, 1, "ab")
    path.write_text("second secret, another one\n")
    second = seal.seal(SEED, 1, "ab")
    assert seal.unseal(second, 1, "ab") == SEED
    with pytest.raises(seal.SecretKeyError):
        seal.unseal(second, 1, "ab", secret="first secret of sixteen+ chars")
    assert seal.unseal(first, 1, "ab", secret="first secret of sixteen+ chars") == SEED
    for number in range(8):  # bounded: other secrets push the oldest out, they still open
        seal.seal(SEED, 1, "ab", secret=f"a passing secret number {number}")
    assert len(seal._v2_keys) <= seal.KEPT_KEYS
    assert seal.unseal(second, 1, "ab") == SEED


def test_first_rolls_together_derive_the_key_once():
    """Scrypt is slow on purpose; the first rolls of several chronicles arriving
    together (a server just started) derive the key once, not once per thread."""
    secret = f"a secret nobody used yet {secrets.token_hex(8)}"
    derived = seal.derivations
    start = threading.Barrier(8)

    def first_roll(number: int) -> str:
        start.wait(10)  # all eight ask for the key at once
        return seal.seal(SEED, number, "ab", secret=secret)

    with ThreadPoolExecutor(8) as pool:
        sealed = list(pool.map(first_roll, range(8)))
    assert seal.derivations == derived + 1
    assert [seal.unseal(s, n, "ab", secret=secret) for n, s in enumerate(sealed)] == [SEED] * 8


def test_a_kept_key_is_read_without_waiting_for_a_derivation():
    """A roll whose key is kept does not take the derivation's lock,
    so it never waits behind another secret's derivation (the lock held here stands for one)."""
    secret = f"a secret used already {secrets.token_hex(8)}"
    stored = seal.seal(SEED, 3, "ab", secret=secret)
    with ThreadPoolExecutor(1) as pool, seal._deriving:  # the lock let go before the pool is joined
        opened = pool.submit(seal.unseal, stored, 3, "ab", secret=secret)
        assert opened.result(timeout=10) == SEED, "a kept key waited for the derivation's lock"


def test_a_chronicle_whose_seed_was_sealed_before_rolls_and_rotates_to_v2(app, client, make_table):
    table = make_table("v5")
    character = table.character(table.st, V5_SHEET)
    roll = f"{table.base}/characters/{character['id']}/rolls"
    assert client.post(roll, headers=table.st, json={"action": V5_TEST}).status_code == 201
    secret = seal.operator_secret()
    with app.state.db.write() as session:  # the row as the code before scrypt left it
        row = session.scalars(
            select(FairSeed).where(FairSeed.chronicle_id == table.id, FairSeed.revealed_seq.is_(None))
        ).one()
        seed = seal.unseal(row.sealed, table.id, row.commitment)
        nonce = b"\0" * 12
        old_key = hashlib.sha256(b"rollbook server seed seal\0" + secret.encode()).digest()
        row.sealed = (
            "aes256gcm-v1:"
            + base64.b64encode(
                nonce
                + AESGCM(old_key).encrypt(nonce, seed, f"rollbook-seed:{table.id}:{row.commitment}".encode())
            ).decode()
        )
    assert client.post(roll, headers=table.st, json={"action": V5_TEST}).status_code == 201
    rotated = client.post(f"{table.base}/fair/rotate", headers=table.st)
    assert rotated.status_code == 201, rotated.text
    assert seed.hex() in rotated.text  # F-5: the seed revealed is the one sealed before
    with app.state.db.read() as session:
        row = session.scalars(
            select(FairSeed).where(FairSeed.chronicle_id == table.id, FairSeed.revealed_seq.is_(None))
        ).one()
        assert row.sealed.startswith("aes256gcm-v2:")
