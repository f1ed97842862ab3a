import type { CheckoutAnswer, OrderAnswer } from '../../src/lib/orders-schema';
import type { TransformationStatus } from '../../src/lib/tool/status-schema';

/**
 * Server answers for the islands' unit tests, typed by the shared schemas (src/lib/<domain>/): a change of an
 * answer's shape fails the type check here, and tests/integration/contracts/ checks that the functions really
 * answer these shapes.
 */

export function checkoutAnswer(fields: Partial<CheckoutAnswer> & Pick<CheckoutAnswer, 'paymentId' | 'amount' | 'orderToken'>): CheckoutAnswer {
  return { success: true, currency: 'USD', items: [], downloads: [], allowances: [], confirmation: { status: 'none' }, ...fields };
}

export function orderAnswer(fields: Partial<OrderAnswer> = {}): OrderAnswer {
  return {
    success: true,
    paymentId: 'p1',
    orderToken: 'tok',
    status: 'completed',
    amount: 0,
    currency: 'USD',
    paymentMethod: 'demo',
    createdAt: new Date(0).toISOString(),
    items: [],
    downloads: [],
    allowances: [],
    confirmation: { status: 'none' },
    ...fields,
  };
}

export function statusAnswer(fields: Partial<TransformationStatus> & Pick<TransformationStatus, 'transformationId' | 'kind'>): TransformationStatus {
  return { success: true, status: 'completed', progress: 1, purchased: false, videoUrl: null, originalImageUrl: null, processedUrl: null, error: null, ...fields };
}
