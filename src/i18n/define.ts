// How one area's messages are written: the English (en-GB) object is the shape, and German and
// French must hold exactly its keys (a missing or extra key is a type error). i18next reads them
// as one namespace per area, so people adding keys to different areas never touch the same file.

/** The shape of a translation: every key of the English messages, each a string. */
type Translation<T> = { readonly [K in keyof T]: T[K] extends string ? string : Translation<T[K]> };

/** One area's messages in every language herald writes. */
interface Messages<T> {
  'en-GB': T;
  de: Translation<T>;
  fr: Translation<T>;
}

export function defineMessages<const T extends object>(
  english: T,
  translations: { de: Translation<T>; fr: Translation<T> },
): Messages<T> {
  return { 'en-GB': english, ...translations };
}
