/** The dashboard's texts of one area, in French and Arabic, keyed by their English words (merged into i18n.ts's catalogues). */
export const FRENCH = {};
export const ARABIC = {};
