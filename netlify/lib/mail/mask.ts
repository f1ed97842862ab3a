/**
 * The only form in which a buyer's address leaves the server: its first character and its domain
 * ("a…@example.com"), enough for the buyer to recognise it and useless to anyone reading over a shoulder.
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '…';
  return `${email[0]}…${email.slice(at)}`;
}
