/**
 * Structured data as the text of a <script type="application/ld+json">. `<` is written as \u003c (the same
 * JSON to a parser), so a "</script>" inside a title or an answer cannot close the element and start markup:
 * that element sits in <head> before the page's Content-Security-Policy <meta>, where nothing would stop it.
 */
export function jsonLdText(data: Record<string, unknown>): string {
  return JSON.stringify(data).replaceAll('<', '\\u003c');
}
