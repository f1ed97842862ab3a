import { describe, expect, it } from 'vitest';
import { maskEmail } from '../../../netlify/lib/mail/mask';
import { confirmationMessage } from '../../../netlify/lib/delivery/notices/order-confirmation-mail';
import { readMailTarget } from '../../../netlify/lib/mail/transport';
import { checkoutRequestSchema, type Order } from '../../../src/lib/orders-schema';
import { findImagePackage, formatPrice, ITEM_PRICES, sumPrices } from '../../../src/lib/catalog';
import { confirmationSentence } from '../../../src/lib/checkout-status';
import { MSG } from '../../../src/lib/messages';

const basic = findImagePackage('basic-restoration')!;
const order: Order = {
  paymentId: '11111111-2222-4333-8444-555555555555',
  amount: sumPrices([ITEM_PRICES.image, basic.priceValue]),
  currency: 'USD',
  status: 'completed',
  paymentMethod: 'demo',
  createdAt: '2026-11-23T10:00:00.000Z',
  items: [
    { type: 'image' as const, name: 'Restored <Image>', price: ITEM_PRICES.image, transformationId: 'aaaaaaaa-0000-4000-8000-000000000001' },
    { type: 'package' as const, name: basic.name, price: basic.priceValue, packageId: basic.id },
  ],
  downloads: [{ transformationId: 'aaaaaaaa-0000-4000-8000-000000000001', url: '/api/downloads/aaaaaaaa-0000-4000-8000-000000000001?token=abc', filename: 'restored-image-1.jpg' }],
  allowances: [
    {
      packageId: basic.id, name: basic.name, imagesTotal: basic.images, imagesUsed: 0, imagesLeft: basic.images,
      expiresAt: '2027-11-23T10:00:00.000Z', state: 'active' as const, link: '/image-video-transformation#package=key',
    },
  ],
  confirmation: { status: 'none' as const },
};

describe('order confirmation', () => {
  it('masks an address to its first character and domain', () => {
    expect(maskEmail('buyer@example.com')).toBe('b…@example.com');
    expect(maskEmail('x@y.io')).toBe('x…@y.io');
    expect(maskEmail('nonsense')).toBe('…');
  });

  it('accepts an optional, trimmed e-mail in the checkout request and refuses a malformed one', () => {
    const base = { items: [{ packageId: 'starter' }], idempotencyKey: 'key-12345678' };
    expect(checkoutRequestSchema.parse(base).email).toBeUndefined();
    expect(checkoutRequestSchema.parse({ ...base, email: '  ' }).email).toBeUndefined();
    expect(checkoutRequestSchema.parse({ ...base, email: ' a@b.co ' }).email).toBe('a@b.co');
    const bad = checkoutRequestSchema.safeParse({ ...base, email: 'a@' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toBe(MSG.invalidEmail);
  });

  it('builds absolute download links on the public origin and escapes names in HTML', () => {
    const mail = confirmationMessage(order, 'buyer@example.com', 'https://shop.example');
    expect(mail.to).toBe('buyer@example.com');
    expect(mail.text).toContain(order.paymentId);
    expect(mail.text).toContain(`Download: https://shop.example${order.downloads[0]!.url}`);
    expect(mail.text).toContain(`${formatPrice(order.amount)} (demonstration, nothing charged)`);
    // A package says what it really gives and opens from its link; nobody promises to e-mail files.
    expect(mail.text).not.toContain('Our team will e-mail');
    expect(mail.text).toContain(`${basic.images} of ${basic.images} images left, to use until 2027-11-23`);
    expect(mail.text).toContain('Your package link: https://shop.example/image-video-transformation#package=key');
    expect(mail.html).toContain('<a href="https://shop.example/image-video-transformation#package=key">Open your package in the tool</a>');
    expect(mail.html).toContain('Restored &#60;Image&#62;');
    expect(mail.html).not.toContain('<Image>');
  });

  it('uses SMTP only with both SMTP_URL and MAIL_FROM, else the outbox beside local storage', () => {
    expect(readMailTarget({ SMTP_URL: 'smtp://h:25', MAIL_FROM: 'a@b.co' })).toEqual({ kind: 'smtp', url: 'smtp://h:25', from: 'a@b.co' });
    expect(readMailTarget({ STORAGE_DIR: '/srv/data/storage' })).toMatchObject({ kind: 'outbox', dir: '/srv/data/outbox' });
    expect(readMailTarget({ SMTP_URL: 'smtp://h:25', STORAGE_DIR: '/srv/data/storage' }).kind).toBe('outbox');
  });

  it('words the success page sentence after what happened', () => {
    expect(confirmationSentence({ status: 'sent', to: 'b…@example.com' })).toBe(MSG.confirmationSent('b…@example.com'));
    expect(confirmationSentence({ status: 'saved', to: 'b…@example.com' })).toMatch(/saved locally/);
    expect(confirmationSentence({ status: 'failed', to: 'b…@example.com' })).toMatch(/could not send/);
    expect(confirmationSentence({ status: 'none' })).toMatch(/Keep this page's download links/);
    expect(confirmationSentence(undefined)).toBe(MSG.confirmationNone);
  });
});
