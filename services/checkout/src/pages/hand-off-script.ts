/**
 * The hosted page's one script (D30), served from our own origin (script-src
 * 'self', no inline script): on the pages that hand the buyer to the issuer it
 * does what a buyer without script does with the visible Continue button.
 * - The ACS hand-off: posts the form to the ACS at once.
 * - The 3DS Method: posts the method form into the hidden frame, then posts
 *   the page's own form, with completed=true once the frame has loaded the
 *   issuer's page, or completed=false when the wait (data-wait-ms) ran out
 *   first. Only one of them is ever sent.
 * Written for every browser a buyer may have: no modules, no newer syntax.
 */
import { createHash } from 'node:crypto';

/** The script's text, as served. */
export const HAND_OFF_SCRIPT = `(function () {
  'use strict';
  var bank = document.getElementById('bank-form');
  if (bank) bank.submit();

  var method = document.getElementById('method-form');
  var next = document.getElementById('method-continue');
  var frame = document.getElementById('method-frame');
  if (!method || !next || !frame) return;
  var sent = false;
  function goOn(completed) {
    if (sent) return;
    sent = true;
    next.elements.namedItem('completed').value = completed ? 'true' : 'false';
    next.submit();
  }
  // The buyer pressed Continue first: that post is the one.
  next.addEventListener('submit', function () { sent = true; });
  frame.addEventListener('load', function () {
    // The frame's first document is an empty one of ours; the issuer's page is another origin's, out of reach.
    try {
      if (frame.contentDocument && frame.contentDocument.URL === 'about:blank') return;
    } catch (e) { /* another origin's: the issuer's page has loaded */ }
    goOn(true);
  });
  setTimeout(function () { goOn(false); }, Number(next.getAttribute('data-wait-ms')) || 10000);
  method.submit();
})();
`;

/** The script's path, named by its content: a new script is a new path, so browsers may keep each one for good. */
export const HAND_OFF_SCRIPT_PATH = `/checkout/assets/hand-off-${createHash('sha256').update(HAND_OFF_SCRIPT).digest('hex').slice(0, 12)}.js`;
