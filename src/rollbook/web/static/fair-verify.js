/* rollbook — the "verify" button of a revealed roll (SPEC F-4, F-6, F-7): the page recomputes every
 * face of the receipt itself with Web Crypto (RollbookFair in fair.js), from the revealed seed, the
 * chronicle, the client seed and the nonce written in the page, checks that the seed is the one of
 * the receipt's stream (public or hidden), and compares the faces with those shown. Nothing is
 * asked of the server. The messages are the page's own (data-* attributes).
 */
(function () {
  "use strict";

  function say(button, status, text) {
    var result = document.getElementById(button.getAttribute("aria-describedby"));
    var box = button.closest(".fair");
    if (box) { box.setAttribute("data-verified-here", status); }
    if (result) {
      result.textContent = text;
      result.className = "fair-result fair-" + status;
    }
  }

  async function check(button) {
    var draws = JSON.parse(button.getAttribute("data-fair-draws") || "[]");
    for (var i = 0; i < draws.length; i++) {
      var d = draws[i];
      var outcome = await window.RollbookFair.verify({
        seed: d.seed, commitment: d.commitment, chronicle: d.chronicle, clientSeed: d.clientSeed,
        nonce: d.nonce, sizes: d.sizes, faces: d.faces, stream: d.stream, seedStream: d.seedStream,
      });
      if (outcome.status !== "verified") {
        if (outcome.reason === "commitment" || outcome.reason === "stream") {  // F-7: not that stream's seed
          say(button, "mismatch", button.getAttribute("data-mismatch-commitment"));
        } else {
          say(button, "mismatch", button.getAttribute("data-mismatch-faces").replace("{expected}", outcome.expected.join(", ")));
        }
        return;
      }
    }
    say(button, "verified", button.getAttribute("data-verified"));
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("button.fair-verify") : null;
    if (!button) { return; }
    event.preventDefault();
    check(button).catch(function (error) {
      say(button, "failed", button.getAttribute("data-failed").replace("{reason}", error && error.message ? error.message : String(error)));
    });
  });
})();
