/**
 * The checks a merchant's logo passes before it is kept and served (D20
 * branding): at most BRAND_LOGO_MAX_BYTES, and either a PNG that decodes
 * (signature, header, every chunk), of at most LOGO_MAX_SIDE pixels a side,
 * or an SVG made only of allowed elements and attributes. An SVG holding
 * anything else (a script, an event attribute, a link out, foreignObject, a
 * DOCTYPE or entities, a <style>, a url() other than to its own parts) is
 * refused, never rewritten: what is served is exactly what the merchant
 * uploaded, and a refusal says what was found.
 */
import { createHash } from 'node:crypto';
import { PNG } from 'pngjs';
import { SaxesParser } from 'saxes';
import { BRAND_LOGO_MAX_BYTES } from '@gateway/contracts';

export type LogoType = 'image/png' | 'image/svg+xml';

/** A logo's widest side, in pixels: a logo needs no more, and a bigger PNG costs memory to decode. */
export const LOGO_MAX_SIDE = 2048;

/** A logo that passed its checks, with the address it is served at. */
export interface CheckedLogo {
  type: LogoType;
  bytes: Buffer;
  sha256: string;
  extension: 'png' | 'svg';
}

/** Why a logo was refused: `message` one of a few fixed sentences (the dashboard's catalogues translate them), `found` what was found, for logs and tests. */
export class LogoRefused extends Error {
  constructor(
    message: string,
    readonly found: string = '',
  ) {
    super(message);
    this.name = 'LogoRefused';
  }
}

const ELEMENT_REFUSED = 'The SVG logo may hold only drawing elements: no script, foreignObject, image, link, animation or style element.';
const ATTRIBUTE_REFUSED = 'The SVG logo may hold only drawing and presentation attributes: no event attribute (onload...).';
const REFERENCE_REFUSED = 'The SVG logo may refer only to its own parts: no link out, javascript: or data: address.';
const STYLE_REFUSED = "The SVG logo's style attributes may not load, import or escape anything.";
const MARKUP_REFUSED = 'The SVG logo may not have a DOCTYPE, entities, processing instructions or CDATA sections.';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const SVG_NS = 'http://www.w3.org/2000/svg';
const XLINK_NS = 'http://www.w3.org/1999/xlink';
const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';

/** Elements that draw, group or describe: nothing that runs, loads, links, animates or embeds. */
const SVG_ELEMENTS = new Set([
  'svg', 'g', 'defs', 'title', 'desc', 'path', 'rect', 'circle', 'ellipse', 'line', 'polyline', 'polygon',
  'text', 'tspan', 'linearGradient', 'radialGradient', 'stop', 'clipPath', 'mask', 'use', 'symbol',
]);

/** Geometry and presentation attributes, none of which can run or load anything. */
const SVG_ATTRIBUTES = new Set([
  'id', 'class', 'version', 'baseProfile', 'viewBox', 'preserveAspectRatio', 'width', 'height', 'x', 'y', 'x1', 'y1', 'x2', 'y2',
  'cx', 'cy', 'r', 'rx', 'ry', 'fx', 'fy', 'dx', 'dy', 'd', 'points', 'pathLength', 'transform',
  'fill', 'fill-opacity', 'fill-rule', 'stroke', 'stroke-width', 'stroke-linecap', 'stroke-linejoin', 'stroke-miterlimit',
  'stroke-dasharray', 'stroke-dashoffset', 'stroke-opacity', 'opacity', 'color', 'display', 'visibility',
  'clip-path', 'clip-rule', 'clipPathUnits', 'mask', 'maskUnits', 'maskContentUnits',
  'gradientUnits', 'gradientTransform', 'spreadMethod', 'offset', 'stop-color', 'stop-opacity',
  'font-family', 'font-size', 'font-weight', 'font-style', 'text-anchor', 'dominant-baseline', 'letter-spacing', 'word-spacing',
  'style', 'href',
]);

/** A url() an attribute may hold: only to a part of the same image (a gradient, a clip path). */
const LOCAL_URL = /url\(\s*#[A-Za-z_][\w.-]*\s*\)/g;
/** What a style attribute may never hold, whatever else it says: loads, imports, escapes that could hide either, old script hooks. */
const STYLE_FORBIDDEN = /@|\\|expression\s*\(|javascript:|behavior\s*:|-moz-binding/i;
/** Elements of a logo at most: a logo is small, and a bomb of elements is no logo. */
const MAX_ELEMENTS = 10_000;

/** Checks `bytes` as a logo of `type`: the checked logo, or LogoRefused saying why. */
export function checkLogo(type: string, bytes: Buffer): CheckedLogo {
  if (bytes.length === 0) throw new LogoRefused('The logo file is empty.');
  if (bytes.length > BRAND_LOGO_MAX_BYTES) throw new LogoRefused('The logo is larger than 256 KB.');
  if (type === 'image/png') {
    checkPng(bytes);
    return { type, bytes, sha256: sha256Of(bytes), extension: 'png' };
  }
  if (type === 'image/svg+xml') {
    checkSvg(bytes);
    return { type, bytes, sha256: sha256Of(bytes), extension: 'svg' };
  }
  throw new LogoRefused('The logo must be a PNG or an SVG image.');
}

function sha256Of(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A PNG: its signature, an IHDR of sensible dimensions first, then a full decode (every chunk's CRC, the image data). */
export function checkPng(bytes: Buffer): void {
  if (bytes.length < 33 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE) || bytes.toString('latin1', 12, 16) !== 'IHDR') {
    throw new LogoRefused('The logo is not a PNG image.');
  }
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  if (width === 0 || height === 0 || width > LOGO_MAX_SIDE || height > LOGO_MAX_SIDE) throw new LogoRefused('The logo must be at most 2048 pixels wide and high.');
  try {
    PNG.sync.read(bytes);
  } catch {
    throw new LogoRefused('The logo is not a PNG image.');
  }
}

/**
 * An SVG: well-formed XML (a strict parser, no DTD: an entity other than
 * XML's own is an error), an <svg> root in the SVG namespace, and nothing but
 * allowed elements and attributes; an href only to a part of the image; a
 * url() only to a part of the image; no DOCTYPE, processing instruction or
 * CDATA section.
 */
export function checkSvg(bytes: Buffer): void {
  const text = bytes.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(bytes)) throw new LogoRefused('The SVG logo must be UTF-8 text.');
  let refusal: LogoRefused | undefined;
  const refuse = (reason: string, found: string) => {
    refusal ??= new LogoRefused(reason, found);
  };
  const parser = new SaxesParser({ xmlns: true, position: false });
  let elements = 0;
  let root = true;
  parser.on('doctype', () => refuse(MARKUP_REFUSED, 'DOCTYPE'));
  parser.on('processinginstruction', (pi) => refuse(MARKUP_REFUSED, `<?${pi.target}`));
  parser.on('cdata', () => refuse(MARKUP_REFUSED, 'CDATA'));
  parser.on('opentag', (tag) => {
    elements += 1;
    if (elements > MAX_ELEMENTS) refuse('The SVG logo has too many elements.', String(elements));
    if (tag.uri !== SVG_NS || !SVG_ELEMENTS.has(tag.local)) return refuse(ELEMENT_REFUSED, `<${tag.name}>`);
    if (root && tag.local !== 'svg') refuse('The SVG logo must be an <svg> image.', `<${tag.name}>`);
    root = false;
    for (const attribute of Object.values(tag.attributes)) {
      const reason = attributeRefusal(attribute);
      if (reason !== undefined) return refuse(reason, `${attribute.name} on <${tag.name}>`);
    }
  });
  try {
    parser.write(text).close();
  } catch {
    throw new LogoRefused('The SVG logo is not well-formed XML.');
  }
  if (elements === 0) throw new LogoRefused('The SVG logo must be an <svg> image.');
  if (refusal !== undefined) throw refusal;
}

/** Why `attribute` is refused, or undefined when it may stay. */
function attributeRefusal(attribute: { local: string; uri: string; value: string }): string | undefined {
  const { value } = attribute;
  // Namespace declarations: only SVG's own and xlink's.
  if (attribute.uri === XMLNS_NS) return value === SVG_NS || value === XLINK_NS ? undefined : ATTRIBUTE_REFUSED;
  if (attribute.uri === XML_NS) return attribute.local === 'space' ? undefined : ATTRIBUTE_REFUSED;
  const plain = attribute.uri === '' && SVG_ATTRIBUTES.has(attribute.local);
  const xlinkHref = attribute.uri === XLINK_NS && attribute.local === 'href';
  if (!plain && !xlinkHref) return ATTRIBUTE_REFUSED;
  // Only a reference to a part of the same image (<use href="#part">): never a link out, javascript: or data:.
  if (attribute.local === 'href') return /^#[A-Za-z_][\w.-]*$/.test(value) ? undefined : REFERENCE_REFUSED;
  if (/url\s*\(/i.test(value.replace(LOCAL_URL, ''))) return REFERENCE_REFUSED;
  if (attribute.local === 'style' && STYLE_FORBIDDEN.test(value)) return STYLE_REFUSED;
  return undefined;
}
