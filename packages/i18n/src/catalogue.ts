/**
 * Catalogues: every text a buyer, a merchant or an operator reads, once per
 * language, as an ICU message (FormatJS's intl-messageformat): `{name}` takes
 * a value, `{count, plural, one {…} other {…}}` picks the form the language
 * needs (Arabic has six). Keys are snake_case names of what the text is for,
 * not its English words. A service keeps one catalogue per area (the card
 * page, receipts, the dashboard's payments page…) and merges them; a key is
 * defined in one area only.
 */
import { IntlMessageFormat } from 'intl-messageformat';
import { LANGUAGES, LOCALES, directionOf, type Language } from './languages.js';

/** One language's wording of an area's keys. */
export type Messages<K extends string> = Readonly<Record<K, string>>;

/** The wording of keys `K` in every language, and the areas it was merged from. */
export interface Catalogue<K extends string> {
  readonly areas: readonly string[];
  readonly messages: Readonly<Record<Language, Messages<K>>>;
}

/** The keys of a catalogue. */
export type KeyOf<C> = C extends Catalogue<infer K> ? K : never;

/** The values a message's arguments take. Plural and number arguments take numbers. */
type MessageValues = Readonly<Record<string, string | number>>;

/**
 * An area's catalogue: English gives the keys, and French and Arabic must give
 * exactly those (the compiler names a missing or extra key).
 */
export function defineCatalogue<E extends Record<string, string>>(
  area: string,
  messages: { readonly en: E; readonly fr: Messages<keyof E & string>; readonly ar: Messages<keyof E & string> },
): Catalogue<keyof E & string> {
  return { areas: [area], messages };
}

/** One catalogue of several areas' keys; a key defined by two areas is a mistake, thrown at load. */
export function mergeCatalogues<C extends readonly Catalogue<string>[]>(...catalogues: C): Catalogue<KeyOf<C[number]>> {
  const merged = { fr: {}, en: {}, ar: {} } as Record<Language, Record<string, string>>;
  const owner = new Map<string, string>();
  for (const catalogue of catalogues) {
    for (const key of Object.keys(catalogue.messages.en)) {
      const first = owner.get(key);
      if (first !== undefined) throw new Error(`message key ${key} is defined by both ${first} and ${catalogue.areas.join(', ')}`);
      owner.set(key, catalogue.areas.join(', '));
    }
    for (const language of LANGUAGES) Object.assign(merged[language], catalogue.messages[language]);
  }
  return { areas: catalogues.flatMap((catalogue) => catalogue.areas), messages: merged as Record<Language, Messages<KeyOf<C[number]>>> };
}

/** A message made ready once: its words when it takes no value, else its compiled format. */
type Compiled = string | IntlMessageFormat;

/** Compiled messages per language's wording (a catalogue's `messages[language]`), made on first use. */
const compiledByMessages = new WeakMap<object, Map<string, Compiled>>();

function compiled(messages: Messages<string>, language: Language, key: string): Compiled {
  let cache = compiledByMessages.get(messages);
  if (!cache) {
    cache = new Map();
    compiledByMessages.set(messages, cache);
  }
  let found = cache.get(key);
  if (found === undefined) {
    const source = messages[key];
    if (source === undefined) throw new Error(`no message ${key}`);
    // Tags are not ICU's business here: markup is the page's, outside the words.
    const format = new IntlMessageFormat(source, LOCALES[language], undefined, { ignoreTag: true });
    const ast = format.getAst();
    // A message with no argument is its words (an apostrophe pair read as one), formatted once.
    found = ast.every((element) => element.type === 0) ? String(format.format()) : format;
    cache.set(key, found);
  }
  return found;
}

const FIRST_STRONG_ISOLATE = '\u2068';
const POP_DIRECTIONAL_ISOLATE = '\u2069';

/** The words of one language. */
export interface Translate<K extends string> {
  /** The wording of `key`, its arguments filled with `values` (text, escaped by whoever writes it into HTML). */
  (key: K, values?: MessageValues): string;
  /**
   * The wording of `key` in pieces, where a value that is not text or a number
   * (a piece of markup, say) stays itself, for the caller to lay out.
   */
  parts<V extends object>(key: K, values: Readonly<Record<string, string | number | V>>): (string | V)[];
  /**
   * Words that arrive as data in English (a refusal's detail from another
   * service): this language's wording when they are a message of the
   * catalogue (one with plain `{name}` arguments taking the values the
   * English words had), else as they came.
   */
  known(english: string): string;
  readonly language: Language;
}

export interface TranslatorOptions {
  /**
   * In a right-to-left language, each text value is put in a bidi isolate
   * (U+2068 … U+2069), so that an amount, an id or an address keeps its own
   * order inside the sentence.
   */
  readonly isolateValues?: boolean;
}

/** A message of the catalogue found in English words that came as data: its key, and the values its arguments had there. */
interface KnownWords {
  key: string;
  values: Record<string, string>;
}

/** How `known` finds a catalogue's messages: argument-free ones by their words, those with plain `{name}` arguments by a pattern. */
interface EnglishIndex {
  exact: Map<string, string>;
  patterns: { key: string; names: string[]; pattern: RegExp }[];
}

const indexes = new WeakMap<object, EnglishIndex>();

/** A message's English source with plain arguments only (no plural, select or quoting): a pattern whose groups are the arguments. */
function patternOf(source: string): { names: string[]; pattern: RegExp } | undefined {
  const parts = source.split(/\{(\w+)\}/);
  if (parts.length === 1 || parts.some((part, i) => i % 2 === 0 && /[{}']/.test(part))) return undefined;
  const names = parts.filter((_, i) => i % 2 === 1);
  const body = parts.map((part, i) => (i % 2 === 0 ? part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : '(.+?)')).join('');
  return { names, pattern: new RegExp(`^${body}$`, 's') };
}

function knownWords(catalogue: Catalogue<string>, english: string): KnownWords | undefined {
  let index = indexes.get(catalogue);
  if (!index) {
    index = { exact: new Map(), patterns: [] };
    for (const [key, source] of Object.entries(catalogue.messages.en)) {
      const ready = compiled(catalogue.messages.en, 'en', key);
      if (typeof ready === 'string') {
        if (!index.exact.has(ready)) index.exact.set(ready, key);
        continue;
      }
      const found = patternOf(source);
      if (found) index.patterns.push({ key, ...found });
    }
    indexes.set(catalogue, index);
  }
  const exact = index.exact.get(english);
  if (exact !== undefined) return { key: exact, values: {} };
  for (const { key, names, pattern } of index.patterns) {
    const match = pattern.exec(english);
    if (match) return { key, values: Object.fromEntries(names.map((name, i) => [name, match[i + 1] ?? ''])) };
  }
  return undefined;
}

/** One translator per language of `catalogue`, made once: a door asks for its words on every request. */
export function translators<K extends string>(catalogue: Catalogue<K>, options: TranslatorOptions = {}): Readonly<Record<Language, Translate<K>>> {
  return { fr: translator(catalogue, 'fr', options), en: translator(catalogue, 'en', options), ar: translator(catalogue, 'ar', options) };
}

/** The words of `language` from `catalogue`. */
export function translator<K extends string>(catalogue: Catalogue<K>, language: Language, options: TranslatorOptions = {}): Translate<K> {
  const messages = catalogue.messages[language];
  const isolate = options.isolateValues === true && directionOf(language) === 'rtl';
  const prepared = <V>(values: Readonly<Record<string, V>>): Readonly<Record<string, V | string>> => {
    if (!isolate) return values;
    const out: Record<string, V | string> = {};
    for (const [name, value] of Object.entries(values)) {
      out[name] = typeof value === 'string' ? `${FIRST_STRONG_ISOLATE}${value}${POP_DIRECTIONAL_ISOLATE}` : value;
    }
    return out;
  };
  const translate = ((key: K, values: MessageValues = {}): string => {
    const ready = compiled(messages, language, key);
    if (typeof ready === 'string') return ready;
    const result = ready.format<string>(prepared(values));
    return Array.isArray(result) ? result.join('') : String(result);
  }) as Translate<K>;
  translate.parts = <V extends object>(key: K, values: Readonly<Record<string, string | number | V>>): (string | V)[] => {
    const ready = compiled(messages, language, key);
    if (typeof ready === 'string') return [ready];
    const result = ready.format<V>(prepared(values));
    return Array.isArray(result) ? (result as (string | V)[]) : [result as string | V];
  };
  translate.known = (english: string): string => {
    const found = knownWords(catalogue, english);
    return found === undefined ? english : translate(found.key as K, found.values);
  };
  Object.defineProperty(translate, 'language', { value: language, enumerable: true });
  return translate;
}
