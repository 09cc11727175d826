/** A merchant's logo and accent colour (D20 branding): what passes, what is refused and why, and how the pages show them. */
import assert from 'node:assert/strict';
import { PNG } from 'pngjs';
import { AppError } from '@gateway/problem';
import { checkLogo, checkSvg, LogoRefused } from '../../src/domain/brand-logo.js';
import { checkAccentColor, contrastWithWhite } from '../../src/domain/branding.js';
import { pageTranslator, renderPaymentLinkPage, renderPaymentPage } from '../../src/pages/index.js';

const SVG_HEAD = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 100 40" width="100" height="40">';

function svg(inner: string, head = SVG_HEAD): Buffer {
  return Buffer.from(`${head}${inner}</svg>`, 'utf8');
}

function png(width: number, height: number): Buffer {
  const image = new PNG({ width, height });
  image.data.fill(0x80);
  return PNG.sync.write(image);
}

function refusal(run: () => unknown): LogoRefused {
  try {
    run();
  } catch (err) {
    if (err instanceof LogoRefused) return err;
    throw err;
  }
  assert.fail('the logo was not refused');
}

describe('branding', () => {
  describe('an SVG logo', () => {
    it('when it only draws (shapes, a gradient used by url(#id), text, <use href="#id">, colours and transforms, a plain style), then it passes', () => {
      const logo = svg(
        '<title>Dar Zitouna</title><defs><linearGradient id="g"><stop offset="0" stop-color="#0b5cad"/><stop offset="1" stop-color="#084785"/></linearGradient></defs>' +
          '<g id="mark"><rect x="0" y="0" width="40" height="40" rx="6" fill="url(#g)"/><path d="M5 5 L35 35" stroke="#fff" stroke-width="3" style="fill:none;stroke-linecap:round"/></g>' +
          '<use href="#mark" x="50"/><use xlink:href="#mark" x="60"/><text x="45" y="30" font-family="Arial" font-size="12">DZ</text>' +
          '<circle r="2" fill="rgb(11, 92, 173)" transform="translate(90 5) rotate(45) scale(1.5)" style="stroke:hsla(210,80%,40%,0.5);transform:skewX(5deg)"/>',
        `<?xml version="1.0" encoding="UTF-8"?>\n${SVG_HEAD}`,
      );
      const checked = checkLogo('image/svg+xml', logo);
      assert.equal(checked.extension, 'svg');
      assert.equal(checked.bytes, logo, 'the bytes are kept as uploaded, never rewritten');
      assert.match(checked.sha256, /^[0-9a-f]{64}$/);
    });

    const attacks: Array<[string, string, RegExp]> = [
      ['a <script> element', svg('<script>alert(1)</script>').toString(), /<script>/],
      ['an onload attribute', svg('<rect width="1" height="1" onload="alert(1)"/>').toString(), /onload on <rect>/],
      ['an onload attribute on the root', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="1" height="1"/></svg>', /onload on <svg>/],
      ['a javascript: href', svg('<use href="javascript:alert(1)"/>').toString(), /href on <use>/],
      ['a javascript: xlink:href', svg('<use xlink:href=" javascript:alert(1)"/>').toString(), /xlink:href on <use>/],
      ['a link out', svg('<a href="https://evil.example/"><rect width="1" height="1"/></a>').toString(), /<a>/],
      ['an external href on use', svg('<use href="https://evil.example/sprite.svg#x"/>').toString(), /href on <use>/],
      ['a data: href', svg('<use href="data:image/svg+xml;base64,PHN2Zz4="/>').toString(), /href on <use>/],
      ['an <image>', svg('<image href="https://evil.example/track.png" width="1" height="1"/>').toString(), /<image>/],
      ['a foreignObject', svg('<foreignObject width="10" height="10"><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject>').toString(), /<foreignObject>/],
      ['a DOCTYPE with entities', `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x "boom">]>${SVG_HEAD}<text>&x;</text></svg>`, /DOCTYPE|not well-formed/],
      ['a plain DOCTYPE', `<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">${SVG_HEAD}<rect width="1" height="1"/></svg>`, /DOCTYPE/],
      ['a <style> element with @import', svg('<style>@import url(https://evil.example/x.css);</style>').toString(), /<style>/],
      ['a style attribute with an external url()', svg('<rect width="1" height="1" style="fill:url(https://evil.example/x)"/>').toString(), /style on <rect>/],
      ['a style attribute with @import', svg('<rect width="1" height="1" style="@import \'x.css\'"/>').toString(), /style on <rect>/],
      ['a style attribute hiding url() in an escape', svg('<rect width="1" height="1" style="fill:u\\72l(https://evil.example/x)"/>').toString(), /style on <rect>/],
      ['a fill with an external url()', svg('<rect width="1" height="1" fill="url(https://evil.example/x#g)"/>').toString(), /fill on <rect>/],
      ['an animation setting an href', svg('<set attributeName="href" to="javascript:alert(1)"/>').toString(), /<set>/],
      ['a processing instruction', `<?xml-stylesheet href="https://evil.example/x.css"?>${SVG_HEAD}<rect width="1" height="1"/></svg>`, /xml-stylesheet/],
      ['a CDATA section', svg('<text><![CDATA[<script>alert(1)</script>]]></text>').toString(), /CDATA/],
      ['an element of another namespace', svg('<html:script xmlns:html="http://www.w3.org/1999/xhtml">alert(1)</html:script>').toString(), /html:script/],
      ['an undeclared entity', svg('<text>&nbsp;</text>').toString(), /not well-formed/],
      ['an HTML document', '<html><body onload="alert(1)"></body></html>', /<html>/],
      ['a style loading through image-set()', svg('<rect width="1" height="1" style="mask-image:image-set(\'https://evil.example/x\' 1x)"/>').toString(), /style on <rect>.*may not load/],
      ['a style loading through an unquoted image-set()', svg('<rect width="1" height="1" style="mask-image:image-set(https://evil.example/x 1x)"/>').toString(), /style on <rect>.*may not load/],
      ['a cursor loading through image-set()', svg('<rect width="1" height="1" style="cursor:image-set(https://evil.example/c 1x),auto"/>').toString(), /style on <rect>/],
      ['a style loading through -webkit-image-set()', svg('<rect width="1" height="1" style="mask-image:-webkit-image-set(https://evil.example/x 1x)"/>').toString(), /style on <rect>/],
      ['a style loading through src()', svg('<rect width="1" height="1" style="mask-image:src(https://evil.example/x)"/>').toString(), /style on <rect>/],
      ['a style loading through image()', svg('<rect width="1" height="1" style="mask-image:image(https://evil.example/x)"/>').toString(), /style on <rect>/],
      ['a style using element()', svg('<rect width="1" height="1" style="mask-image:element(#a)"/>').toString(), /style on <rect>/],
      ['a style using cross-fade()', svg('<rect width="1" height="1" style="mask-image:cross-fade(#a, #b, 50%)"/>').toString(), /style on <rect>/],
      ['a style using var()', svg('<rect width="1" height="1" style="--x:1;fill:var(--x)"/>').toString(), /style on <rect>/],
      ['a style with a quoted string', svg('<rect width="1" height="1" style="font-family:&quot;x&quot;"/>').toString(), /style on <rect>/],
      ['a presentation attribute calling image-set()', svg('<rect width="1" height="1" fill="image-set(https://evil.example/x 1x)"/>').toString(), /fill on <rect>/],
      ['a presentation attribute hiding url() in an escape', svg('<rect width="1" height="1" mask="u\\72l(https://evil.example/x)"/>').toString(), /mask on <rect>/],
    ];
    for (const [what, markup, found] of attacks) {
      it(`when it holds ${what}, then it is refused, saying what`, () => {
        const refused = refusal(() => checkSvg(Buffer.from(markup, 'utf8')));
        assert.match(`${refused.found} ${refused.message}`, found);
      });
    }

    it('when twelve levels of groups each <use> the level below ten times (10^12 copies), then it is refused as repeating its parts too many times', () => {
      let levels = '<g id="a0"><rect width="1" height="1"/></g>';
      for (let level = 1; level <= 12; level += 1) levels += `<g id="a${level}">${`<use href="#a${level - 1}"/>`.repeat(10)}</g>`;
      const bomb = svg(`<defs>${levels}</defs><use href="#a12"/>`);
      assert.ok(bomb.length < 3_000, 'a small file');
      const refused = refusal(() => checkLogo('image/svg+xml', bomb));
      assert.match(refused.message, /repeats its parts too many times/);
    });

    it('when <use> elements copy a part more than 1000 times in all, then it is refused; 1000 times passes', () => {
      const copies = (n: number) => svg(`<defs><g id="p"><rect width="1" height="1"/></g></defs>${'<use href="#p"/>'.repeat(n / 2)}`);
      // Each <use> of #p draws the <g> and its <rect>: two copies.
      checkSvg(copies(1000));
      assert.match(refusal(() => checkSvg(copies(1002))).message, /repeats its parts too many times/);
    });

    it('when a <use> refers to its own ancestor, to itself, or two parts use each other, then it is refused as a cycle', () => {
      const cycles = [
        svg('<g id="a"><rect width="1" height="1"/><use href="#a"/></g>'),
        svg('<use id="u" xlink:href="#u"/>'),
        svg('<defs><g id="a"><use href="#b"/></g><g id="b"><use href="#a"/></g></defs><use href="#a"/>'),
      ];
      for (const logo of cycles) {
        const refused = refusal(() => checkSvg(logo));
        assert.match(`${refused.found} ${refused.message}`, /inside itself/);
      }
    });

    it('when it has more than 5000 elements or nests them more than 64 deep, then it is refused', () => {
      assert.match(refusal(() => checkSvg(svg('<rect/>'.repeat(5000)))).message, /too many elements/);
      // <svg>, 62 groups and a <rect>: 64 levels.
      checkSvg(svg(`${'<g>'.repeat(62)}<rect width="1" height="1"/>${'</g>'.repeat(62)}`));
      assert.match(refusal(() => checkSvg(svg(`${'<g>'.repeat(63)}<rect width="1" height="1"/>${'</g>'.repeat(63)}`))).message, /too deeply/);
    });

    it('when it is not well-formed or not UTF-8, then it is refused', () => {
      assert.match(refusal(() => checkSvg(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><rect></svg>'))).message, /not well-formed/);
      assert.match(refusal(() => checkSvg(Buffer.from([0x3c, 0x73, 0x76, 0x67, 0xff, 0x3e]))).message, /UTF-8/);
    });
  });

  describe('a PNG logo', () => {
    it('when it is a real PNG of logo size, then it passes as a PNG', () => {
      const image = png(120, 40);
      assert.equal(checkLogo('image/png', image).extension, 'png');
    });

    it('when it is text named as a PNG, a truncated PNG, or an SVG sent as a PNG, then it is refused as no PNG', () => {
      assert.match(refusal(() => checkLogo('image/png', Buffer.from('just some text, not an image'))).message, /not a PNG/);
      const image = png(120, 40);
      assert.match(refusal(() => checkLogo('image/png', image.subarray(0, image.length - 20))).message, /not a PNG/);
      assert.match(refusal(() => checkLogo('image/png', svg('<rect width="1" height="1"/>'))).message, /not a PNG/);
    });

    it('when it is larger than 256 KB, or wider than 2048 pixels, or empty, or of another type, then it is refused with the reason', () => {
      assert.match(refusal(() => checkLogo('image/png', Buffer.alloc(256 * 1024 + 1, 1))).message, /larger than 256 KB/);
      assert.match(refusal(() => checkLogo('image/png', png(2049, 1))).message, /2048 pixels/);
      assert.match(refusal(() => checkLogo('image/png', Buffer.alloc(0))).message, /empty/);
      assert.match(refusal(() => checkLogo('image/gif', Buffer.from('GIF89a'))).message, /PNG or an SVG/);
    });
  });

  describe('the accent colour', () => {
    it('when it is #RRGGBB dark enough for white text, then it is kept in lower case', () => {
      assert.equal(checkAccentColor('#0B5CAD'), '#0b5cad');
      assert.equal(checkAccentColor(' #000000 '), '#000000');
    });

    it('when it is not #RRGGBB, then it is refused as invalid; when too light for white text (under 4.5:1), as too light', () => {
      for (const bad of ['#fff', '0b5cad', '#0b5cadff', 'red', '#0b5caz', 'rgb(0,0,0)', '#0b5cad;background:url(x)']) {
        assert.throws(() => checkAccentColor(bad), (err: unknown) => err instanceof AppError && err.errors[0]?.code === 'invalid', bad);
      }
      assert.ok(contrastWithWhite('#ffff00') < 4.5);
      assert.throws(() => checkAccentColor('#ffff00'), (err: unknown) => err instanceof AppError && err.errors[0]?.code === 'too_light');
      assert.throws(() => checkAccentColor('#ffffff'), (err: unknown) => err instanceof AppError && err.errors[0]?.code === 'too_light');
    });
  });

  describe('the pages', () => {
    const order = { merchantName: 'Dar <Zitouna>', amount: '12.500', description: '', items: [], orderNumber: 'DZ-1', livemode: true };

    it('when the merchant has a logo and an accent colour, then the payment page shows the logo with the name as its alternative text and loads the accent stylesheet; none when it has neither', () => {
      const branded = renderPaymentPage(pageTranslator('en'), { order, actionUrl: '/checkout/t/pay', cancelHref: '/checkout/t/cancel', brand: { logoPath: `/checkout/brand/${'a'.repeat(64)}.svg`, accentColor: '#123456' } });
      assert.ok(branded.includes(`<img src="/checkout/brand/${'a'.repeat(64)}.svg" alt="Dar &lt;Zitouna&gt;">`));
      assert.ok(branded.includes('<link rel="stylesheet" href="/checkout/brand/accent-123456.css">'));
      assert.ok(!/style=|<style/.test(branded), 'no inline style the CSP would block');
      const plain = renderPaymentPage(pageTranslator('en'), { order, actionUrl: '/checkout/t/pay', cancelHref: '/checkout/t/cancel' });
      assert.ok(!plain.includes('/checkout/brand/'));
    });

    it('when the merchant has a logo and an accent colour, then the link page shows both', () => {
      const page = renderPaymentLinkPage(
        pageTranslator('fr'),
        { merchantName: 'Dar Zitouna', description: 'Huile', items: [], collectPhone: false, livemode: true, actionUrl: '/pay/x', values: {}, fieldErrors: {} },
        { logoPath: `/checkout/brand/${'b'.repeat(64)}.png`, accentColor: '#0b5cad' },
      );
      assert.ok(page.includes(`<img src="/checkout/brand/${'b'.repeat(64)}.png" alt="Dar Zitouna">`));
      assert.ok(page.includes('/checkout/brand/accent-0b5cad.css'));
    });
  });
});
