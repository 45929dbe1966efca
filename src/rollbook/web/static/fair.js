/* rollbook — provably fair dice, checked in the browser (SPEC F-4, algorithm "hmac-sha256-v1").
 *
 * Standalone: no server call, no library. Given a revealed seed (hex), the chronicle id, the client
 * seed, the nonce and the die sizes in drawing order, the page recomputes the faces itself with Web
 * Crypto's HMAC-SHA256, so a player does not have to trust the server's word.
 *
 *   RollbookFair.faces(seedHex, chronicle, clientSeed, nonce, sizes)  -> Promise<number[]>
 *   RollbookFair.commitment(seedHex)                                   -> Promise<string>  (F-1)
 *   RollbookFair.verify({seed, commitment, chronicle, clientSeed, nonce, sizes, faces, stream, seedStream})
 *       -> Promise<{status: "verified" | "mismatch", reason: null | "commitment" | "stream" | "faces",
 *                   commitment, expected, stream}>
 *       (F-7: ``stream`` is the receipt's, "public" or "hidden", "public" when absent (a receipt from
 *       before F-7); ``seedStream`` the stream of the revealed seed used: they must be the same)
 *   RollbookFair.facesFromValues(values, sizes)   (the rejection rule alone, on given 64-bit values)
 *   RollbookFair.blockMessage(block, chronicle, clientSeed, nonce)  -> the exact HMAC message string
 *
 * F-4: blocks HMAC-SHA256(key = seed, message = C) for block = 0, 1, 2, …, where C is the canonical
 * JSON {"block","chronicle","client","nonce"} (keys sorted, "," and ":" separators, UTF-8); each
 * block is four 8-byte big-endian unsigned integers, in order; a die of s sides takes the next value
 * v: if v < 2**64 - (2**64 mod s) its face is v mod s + 1, otherwise v is discarded.
 *
 * Web Crypto needs a secure context (https, localhost, or a file).
 */
(function (root) {
  "use strict";

  var ALGORITHM = "hmac-sha256-v1";
  var STREAMS = ["public", "hidden"];  // F-7
  var SPACE = 1n << 64n;
  var SEED_BYTES = 32;

  function fail(code, message) {
    var error = new Error(message);
    error.code = code;
    throw error;
  }

  function subtle() {
    var crypto = root.crypto;
    if (!crypto || !crypto.subtle) {
      fail("no_web_crypto", "Web Crypto is not available here (it needs a secure context: https or localhost)");
    }
    return crypto.subtle;
  }

  function seedBytes(seedHex) {
    var text = typeof seedHex === "string" ? seedHex.trim().toLowerCase() : "";
    if (!/^[0-9a-f]{64}$/.test(text)) {
      fail("bad_seed_hex", "A seed is 64 hexadecimal digits (32 bytes)");
    }
    var bytes = new Uint8Array(SEED_BYTES);
    for (var i = 0; i < SEED_BYTES; i++) {
      bytes[i] = parseInt(text.substr(2 * i, 2), 16);
    }
    return bytes;
  }

  function toHex(buffer) {
    return Array.prototype.map.call(new Uint8Array(buffer), function (byte) {
      return byte.toString(16).padStart(2, "0");
    }).join("");
  }

  function checkWhole(name, value, low) {
    if (!Number.isSafeInteger(value) || value < low) {
      fail("bad_" + name, name + " must be a whole number from " + low + " up");
    }
  }

  function checkClientSeed(clientSeed) {
    if (typeof clientSeed !== "string") {
      fail("bad_client_seed", "The client seed must be text");
    }
    // A lone surrogate has no UTF-8 form (the Python side refuses it too).
    if (/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(^|[^\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(clientSeed)) {
      fail("client_seed_not_text", "The client seed must be plain text that can be written in UTF-8");
    }
  }

  function blockMessage(block, chronicle, clientSeed, nonce) {
    // Keys in sorted order; JSON.stringify writes the string as Python's json.dumps(ensure_ascii=False).
    return '{"block":' + block + ',"chronicle":' + chronicle + ',"client":' + JSON.stringify(clientSeed) +
      ',"nonce":' + nonce + "}";
  }

  function acceptanceLimit(sides) {
    var s = BigInt(sides);
    return SPACE - (SPACE % s);
  }

  function faceForValue(value, sides) {
    if (value < acceptanceLimit(sides)) {
      return Number(value % BigInt(sides)) + 1;
    }
    return null;
  }

  function checkSizes(sizes) {
    if (!Array.isArray(sizes)) fail("bad_sizes", "The die sizes must be a list");
    sizes.forEach(function (sides) {
      if (!Number.isSafeInteger(sides) || sides < 1) fail("bad_sizes", "A die has at least one side");
    });
  }

  function facesFromValues(values, sizes) {
    checkSizes(sizes);
    var position = 0;
    return sizes.map(function (sides) {
      for (;;) {
        if (position >= values.length) fail("values_exhausted", "Not enough values for these dice");
        var raw = values[position++];
        var value = typeof raw === "string" ? BigInt("0x" + raw) : BigInt(raw);
        var face = faceForValue(value, sides);
        if (face !== null) return face;
      }
    });
  }

  async function faces(seedHex, chronicle, clientSeed, nonce, sizes) {
    var seed = seedBytes(seedHex);
    checkWhole("chronicle", chronicle, 0);
    checkWhole("nonce", nonce, 1);
    checkClientSeed(clientSeed);
    checkSizes(sizes);
    var crypto = subtle();
    var key = await crypto.importKey("raw", seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    var encoder = new TextEncoder();
    var values = [];
    var block = 0;
    var result = [];
    for (var i = 0; i < sizes.length; i++) {
      for (;;) {
        if (!values.length) {
          var digest = await crypto.sign("HMAC", key, encoder.encode(blockMessage(block, chronicle, clientSeed, nonce)));
          var view = new DataView(digest);
          values = [0, 8, 16, 24].map(function (offset) { return view.getBigUint64(offset, false); });
          block += 1;
        }
        var face = faceForValue(values.shift(), sizes[i]);
        if (face !== null) {
          result.push(face);
          break;
        }
      }
    }
    return result;
  }

  async function commitment(seedHex) {
    return toHex(await subtle().digest("SHA-256", seedBytes(seedHex)));
  }

  function streamOf(value) {
    var stream = value === undefined || value === null ? "public" : value;
    if (STREAMS.indexOf(stream) < 0) {
      fail("bad_stream", "A stream is public or hidden, not " + JSON.stringify(value));
    }
    return stream;
  }

  async function verify(roll) {
    var stream = streamOf(roll.stream);
    var seedStream = roll.seedStream === undefined || roll.seedStream === null ? null : streamOf(roll.seedStream);
    var computed = await commitment(roll.seed);
    var expected = await faces(roll.seed, roll.chronicle, roll.clientSeed, roll.nonce, roll.sizes);
    var reason = null;
    if (roll.commitment !== undefined && roll.commitment !== null &&
        String(roll.commitment).trim().toLowerCase() !== computed) {
      reason = "commitment";
    } else if (seedStream !== null && seedStream !== stream) {
      reason = "stream";
    } else if (expected.length !== roll.faces.length || expected.some(function (face, i) { return face !== roll.faces[i]; })) {
      reason = "faces";
    }
    return { status: reason ? "mismatch" : "verified", reason: reason, commitment: computed, expected: expected,
             stream: stream };
  }

  root.RollbookFair = {
    algorithm: ALGORITHM,
    streams: STREAMS.slice(),
    faces: faces,
    commitment: commitment,
    verify: verify,
    facesFromValues: facesFromValues,
    blockMessage: blockMessage,
    acceptanceLimit: acceptanceLimit,
  };
})(typeof window !== "undefined" ? window : globalThis);
