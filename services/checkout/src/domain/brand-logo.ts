/**
 * The checks a merchant's logo passes before it is kept and served (D20
 * branding): at most BRAND_LOGO_MAX_BYTES, and either a PNG that decodes
 * (signature, header, every chunk), of at most LOGO_MAX_SIDE pixels a side,
 * or an SVG made only of allowed elements and attributes. An SVG holding
 * anything else (a script, an event attribute, a link out, foreignObject, a
 * DOCTYPE or entities, a <style>, a url() other than to its own parts, a CSS
 * function other than a colour or a transform, a <use> that repeats its parts
 * more than MAX_USE_COPIES times) is refused, never rewritten: what is served is exactly what the merchant
 * uploaded, and a refusal says what was found.
 */
import { createHash } from 'node:crypto';
import { PNG } from 'pngjs';
import { SaxesParser } from 'saxes';
import { BRAND_LOGO_MAX_BYTES } from '@gateway/contracts';

type LogoType = 'image/png' | 'image/svg+xml';

/** A logo's widest side, in pixels: a logo needs no more, and a bigger PNG costs memory to decode. */
const LOGO_MAX_SIDE = 2048;

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
const TOO_MANY_ELEMENTS = 'The SVG logo has too many elements.';
const TOO_DEEP = 'The SVG logo nests its elements too deeply.';
const TOO_MANY_COPIES = 'The SVG logo repeats its parts too many times (<use>): at most 1000 copies, and none inside itself.';

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
/** What a style attribute may never hold, whatever else it says: loads, imports, escapes that could hide either, strings, old script hooks. */
const STYLE_FORBIDDEN = /@|\\|["']|expression\s*\(|javascript:|behavior\s*:|-moz-binding/i;
/**
 * The only functions an attribute may call, besides url(#part): colours and
 * transforms, which load nothing (image-set(), image(), src(), element(),
 * cross-fade(), var()... can load or hide a load, and are refused).
 */
const ALLOWED_FUNCTIONS = new Set(['rgb', 'rgba', 'hsl', 'hsla', 'matrix', 'translate', 'translatex', 'translatey', 'scale', 'scalex', 'scaley', 'rotate', 'skewx', 'skewy']);
/** Elements of a logo at most: a logo is small, and a bomb of elements is no logo. */
const MAX_ELEMENTS = 5_000;
/** How deep a logo's elements may nest. */
const MAX_DEPTH = 64;
/** Copies <use> elements may make in all, counting the copies inside what they copy: more is a bomb that hangs every page showing the logo. */
const MAX_USE_COPIES = 1_000;

/** An element as the <use> count needs it: its id, what it copies (a <use>'s href), its children. */
interface SvgNode {
  id: string | undefined;
  copies: string | undefined;
  children: SvgNode[];
}

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
function checkPng(bytes: Buffer): void {
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
  let root: SvgNode | undefined;
  const open: SvgNode[] = [];
  const byId = new Map<string, SvgNode>();
  parser.on('doctype', () => refuse(MARKUP_REFUSED, 'DOCTYPE'));
  parser.on('processinginstruction', (pi) => refuse(MARKUP_REFUSED, `<?${pi.target}`));
  parser.on('cdata', () => refuse(MARKUP_REFUSED, 'CDATA'));
  parser.on('opentag', (tag) => {
    elements += 1;
    if (elements > MAX_ELEMENTS) refuse(TOO_MANY_ELEMENTS, String(elements));
    const attributes = Object.values(tag.attributes);
    const attributeValue = (local: string, uri = '') => attributes.find((a) => a.local === local && a.uri === uri)?.value;
    const node: SvgNode = {
      id: attributeValue('id'),
      copies: tag.local === 'use' ? (attributeValue('href') ?? attributeValue('href', XLINK_NS)) : undefined,
      children: [],
    };
    const parent = open.at(-1);
    if (parent === undefined) root ??= node;
    else parent.children.push(node);
    open.push(node);
    if (open.length > MAX_DEPTH) refuse(TOO_DEEP, String(open.length));
    // The first element of an id is the one a reference finds.
    if (node.id !== undefined && !byId.has(node.id)) byId.set(node.id, node);
    if (tag.uri !== SVG_NS || !SVG_ELEMENTS.has(tag.local)) return refuse(ELEMENT_REFUSED, `<${tag.name}>`);
    if (parent === undefined && tag.local !== 'svg') refuse('The SVG logo must be an <svg> image.', `<${tag.name}>`);
    for (const attribute of attributes) {
      const reason = attributeRefusal(attribute);
      if (reason !== undefined) return refuse(reason, `${attribute.name} on <${tag.name}>`);
    }
  });
  parser.on('closetag', () => {
    open.pop();
  });
  try {
    parser.write(text).close();
  } catch {
    throw new LogoRefused('The SVG logo is not well-formed XML.');
  }
  if (root === undefined) throw new LogoRefused('The SVG logo must be an <svg> image.');
  if (refusal !== undefined) throw refusal;
  checkUseCopies(root, byId);
}

/**
 * What the <use> elements copy, counted as a renderer draws it: a <use>
 * draws every element of the part it refers to, and the copies the part's own
 * <use> elements make, and so on. A <use> that refers to itself or to one of
 * its ancestors (a cycle) is refused, as is more than MAX_USE_COPIES copies.
 */
function checkUseCopies(root: SvgNode, byId: Map<string, SvgNode>): void {
  // Elements drawn for each node, <use> copies included, memoised; `counting` holds the nodes being counted, for cycles.
  const drawn = new Map<SvgNode, number>();
  const counting = new Set<SvgNode>();
  const limit = MAX_ELEMENTS + MAX_USE_COPIES;
  const count = (node: SvgNode): number => {
    const known = drawn.get(node);
    if (known !== undefined) return known;
    if (counting.has(node)) throw new LogoRefused(TOO_MANY_COPIES, `a <use> of #${node.id ?? ''} inside itself`);
    counting.add(node);
    let total = 1;
    for (const child of node.children) total = Math.min(limit + 1, total + count(child));
    const target = node.copies === undefined ? undefined : byId.get(node.copies.slice(1));
    if (target !== undefined) total = Math.min(limit + 1, total + count(target));
    counting.delete(node);
    drawn.set(node, total);
    return total;
  };
  let elements = 0;
  const stack = [root];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    elements += 1;
    stack.push(...node.children);
  }
  const copies = count(root) - elements;
  if (copies > MAX_USE_COPIES) throw new LogoRefused(TOO_MANY_COPIES, `over ${MAX_USE_COPIES} copies`);
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
  const rest = value.replace(LOCAL_URL, '');
  if (/url\s*\(/i.test(rest)) return REFERENCE_REFUSED;
  if (attribute.local === 'style' && STYLE_FORBIDDEN.test(value)) return STYLE_REFUSED;
  if (callsOtherFunction(rest)) return STYLE_REFUSED;
  return undefined;
}

/** Whether `value` has a parenthesis other than a colour's or a transform's: a function that may load (image-set(), src()...) or a bare one. */
function callsOtherFunction(value: string): boolean {
  for (const call of value.matchAll(/([\w-]*)\s*\(/g)) {
    if (!ALLOWED_FUNCTIONS.has((call[1] ?? '').toLowerCase())) return true;
  }
  return false;
}
