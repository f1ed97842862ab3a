import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { downloadToken, downloadTokenPayment, isValidOrderToken, orderToken } from '../../../netlify/lib/orders/tokens';
import { checkFileLink, createUploadToken, fileSignature, readUploadToken } from '../../../netlify/lib/storage/local-tokens';
import { assertStoragePath, contentTypeFor } from '../../../netlify/lib/storage/paths';

const ID = '7d1f6c1e-7a1b-4c1e-9f1e-1a2b3c4d5e6f';
const PAYMENT = 'aa1f6c1e-7a1b-4c1e-9f1e-1a2b3c4d5e6f';
// Unit files share a process: the secret is stubbed and put back as it was (an unset one stays unset, where
// assigning the saved undefined left the string "undefined" for the next file).
beforeEach(() => {
  vi.stubEnv('APP_SECRET', 'unit-test-secret-0123456789abcdefghijkl');
});
afterEach(() => {
  vi.unstubAllEnvs();
});

describe('order and download tokens', () => {
  it('verify only for their own id, purpose and secret', () => {
    const token = orderToken(ID);
    expect(isValidOrderToken(ID, token)).toBe(true);
    expect(isValidOrderToken(ID.replace('7d', '8d'), token)).toBe(false);
    expect(downloadTokenPayment(ID, `${PAYMENT}.${token}`)).toBeNull(); // purposes do not mix
    expect(downloadTokenPayment(ID, downloadToken(PAYMENT, ID))).toBe(PAYMENT);
    expect(isValidOrderToken(ID, null)).toBe(false);
    expect(isValidOrderToken(ID, token.slice(1))).toBe(false);
    vi.stubEnv('APP_SECRET', 'another-secret-0123456789abcdefghijklmn');
    expect(isValidOrderToken(ID, token)).toBe(false);
  });

  it('a download token is bound to the payment and the item it was issued for', () => {
    const token = downloadToken(PAYMENT, ID);
    expect(token.startsWith(`${PAYMENT}.`)).toBe(true);
    expect(downloadTokenPayment(ID.replace('7d', '8d'), token)).toBeNull(); // another item
    const otherPayment = PAYMENT.replace('aa', 'bb');
    expect(downloadTokenPayment(ID, token.replace(PAYMENT, otherPayment))).toBeNull(); // another payment, same signature
    expect(downloadTokenPayment(ID, token.split('.')[1]!)).toBeNull(); // the old item-only form
    expect(downloadTokenPayment(ID, `${token}.x`)).toBeNull();
    expect(downloadTokenPayment(ID, null)).toBeNull();
  });

  it('refuse to sign without a real secret', () => {
    vi.stubEnv('APP_SECRET', 'short');
    expect(() => orderToken(ID)).toThrow(/set APP_SECRET/);
  });
});

describe('local storage links', () => {
  it('check file links for path, expiry and name', () => {
    const exp = Math.floor(Date.now() / 1000) + 60;
    const sig = fileSignature('a/b.jpg', exp, 'x.jpg');
    expect(checkFileLink('a/b.jpg', String(exp), sig, 'x.jpg')).toBe('ok');
    expect(checkFileLink('a/b.jpg', String(exp), sig, null)).toBe('invalid');
    expect(checkFileLink('a/c.jpg', String(exp), sig, 'x.jpg')).toBe('invalid');
    expect(checkFileLink('a/b.jpg', String(exp), sig, 'x.jpg', (exp + 1) * 1000)).toBe('expired');
  });

  it('read back upload grants, and nothing from a tampered or expired token', () => {
    const expiresAt = Math.floor(Date.now() / 1000) + 60;
    const token = createUploadToken({ path: 'originals/a.jpg', contentType: 'image/jpeg', expiresAt });
    expect(readUploadToken(token)).toEqual({ path: 'originals/a.jpg', contentType: 'image/jpeg', expiresAt });
    expect(readUploadToken(`${token}x`)).toBeNull();
    expect(readUploadToken(token, (expiresAt + 1) * 1000)).toBeNull();
    expect(readUploadToken('garbage')).toBeNull();
  });

  it('accept plain keys only and know the content types', () => {
    expect(assertStoragePath('results/a-1_b.mp4')).toBe('results/a-1_b.mp4');
    expect(() => assertStoragePath('../x')).toThrow();
    expect(contentTypeFor('a.JPG')).toBe('image/jpeg');
    expect(contentTypeFor('a.mp4')).toBe('video/mp4');
    expect(contentTypeFor('a.bin')).toBe('application/octet-stream');
  });
});
