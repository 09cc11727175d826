/**
 * What the compiler cannot check of a catalogue, for each service's unit test:
 * that every message parses as ICU, that French and Arabic take exactly the
 * arguments English takes, that every plural gives the forms its language
 * has words for, and that nothing is left in English.
 */
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import type { Catalogue } from './catalogue.js';
import { LANGUAGES, LOCALES, type Language } from './languages.js';

const ARABIC_LETTER = /[\u0621-\u064A]/;

/** The names of a message's arguments (those inside plurals and selects too), sorted and unique. */
function argumentNames(elements: readonly MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const element of elements) {
    if (element.type === TYPE.literal || element.type === TYPE.pound) continue;
    into.add(element.value);
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      for (const option of Object.values(element.options)) argumentNames(option.value, into);
    }
    if (element.type === TYPE.tag) argumentNames(element.children, into);
  }
  return into;
}

/** Problems with the plurals of one message in `language`: an unknown form, or no `other`. */
function pluralProblems(elements: readonly MessageFormatElement[], language: Language, where: string): string[] {
  const categories = new Set<string>(new Intl.PluralRules(LOCALES[language]).resolvedOptions().pluralCategories);
  const problems: string[] = [];
  for (const element of elements) {
    if (element.type !== TYPE.plural && element.type !== TYPE.select) continue;
    if (!Object.hasOwn(element.options, 'other')) problems.push(`${where}: {${element.value}} has no "other" form`);
    if (element.type === TYPE.plural) {
      for (const selector of Object.keys(element.options)) {
        if (!selector.startsWith('=') && !categories.has(selector)) problems.push(`${where}: {${element.value}} has a "${selector}" form, which ${language} does not use`);
      }
    }
    for (const option of Object.values(element.options)) problems.push(...pluralProblems(option.value, language, where));
  }
  return problems;
}

export interface CatalogueCheckOptions {
  /** Keys whose French or Arabic words may be the English ones (a brand, a code): `{ fr: ['webhooks'] }`. */
  readonly sameAsEnglish?: Partial<Record<'fr' | 'ar', readonly string[]>>;
}

/** Every problem of `catalogue`, as one line each; none for a sound catalogue. */
export function catalogueProblems(catalogue: Catalogue<string>, options: CatalogueCheckOptions = {}): string[] {
  const problems: string[] = [];
  const keys = Object.keys(catalogue.messages.en);
  const parsed = (language: Language, key: string): MessageFormatElement[] | undefined => {
    const words = catalogue.messages[language][key];
    if (words === undefined) {
      problems.push(`${language}.${key}: missing`);
      return undefined;
    }
    if (words.trim() === '') problems.push(`${language}.${key}: empty`);
    try {
      return parse(words, { ignoreTag: true, requiresOtherClause: false });
    } catch (err) {
      problems.push(`${language}.${key}: not an ICU message (${(err as Error).message})`);
      return undefined;
    }
  };
  for (const language of LANGUAGES) {
    for (const key of Object.keys(catalogue.messages[language])) {
      if (!Object.hasOwn(catalogue.messages.en, key)) problems.push(`${language}.${key}: not an English key`);
    }
  }
  for (const key of keys) {
    const english = parsed('en', key);
    const expected = english ? [...argumentNames(english)].sort() : undefined;
    for (const language of LANGUAGES) {
      const elements = language === 'en' ? english : parsed(language, key);
      if (!elements) continue;
      problems.push(...pluralProblems(elements, language, `${language}.${key}`));
      if (language === 'en') continue;
      const names = [...argumentNames(elements)].sort();
      if (expected && names.join() !== expected.join()) problems.push(`${language}.${key}: takes {${names.join('}, {')}}, English takes {${expected.join('}, {')}}`);
      const words = catalogue.messages[language][key] ?? '';
      const allowed = options.sameAsEnglish?.[language]?.includes(key) === true;
      if (!allowed && words === catalogue.messages.en[key]) problems.push(`${language}.${key}: left in English`);
      if (!allowed && language === 'ar' && !ARABIC_LETTER.test(words)) problems.push(`ar.${key}: not written in Arabic`);
    }
  }
  return problems;
}
