import type { VideoResolution } from './tool/video-modes';
import { formatPrice, sumPrices } from './money';

/**
 * What can be bought and for how much: the single source of prices for the cart (display) and the
 * checkout (what is charged). The checkout charges from the database's catalog_prices, which migrations
 * generated from this file fill (`npm run db:prices` writes one after a change here; a test fails while they
 * differ). The browser never sends a price.
 */
export const CURRENCY = 'USD';

export const ITEM_PRICES = {
  image: 1.99,
  video: 4.99,
} as const;

export type TransformationKind = keyof typeof ITEM_PRICES;

export const ITEM_NAMES: Record<TransformationKind, string> = {
  image: 'Restored & Colorized Image',
  video: 'Generated Video',
};

/** A 1080p video is sold as its own item (catalog_prices key 'video-1080p'); a 720p one is the plain video. */
export const VIDEO_1080P = { key: 'video-1080p', name: 'Generated Video (1080p)', price: 6.99 } as const;

/** Every transformation the checkout prices, by its catalog_prices item key. */
export const TRANSFORMATION_PRICES: Readonly<Record<string, number>> = { ...ITEM_PRICES, [VIDEO_1080P.key]: VIDEO_1080P.price };

/** Name and price of a finished transformation as the cart and checkout sell it. */
export function transformationItem(kind: TransformationKind, resolution?: VideoResolution): { name: string; price: number } {
  if (kind === 'video' && resolution === '1080p') return { name: VIDEO_1080P.name, price: VIDEO_1080P.price };
  return { name: ITEM_NAMES[kind], price: ITEM_PRICES[kind] };
}

export interface ImagePackage {
  id: string;
  name: string;
  priceValue: number;
  /** Images the package gives: results taken clean in the tool, one per distinct photo (netlify/lib/packages). */
  images: number;
  description: string;
  features: string[];
  isPopular: boolean;
  buttonText: string;
}

/**
 * How long a package's images may be used, from the payment. The database copies each package's `images` and this
 * into `package_terms` when a migration writes them (tests/unit/packages/terms.test.ts fails while they differ).
 */
export const PACKAGE_VALID_MONTHS = 12;

/** The line every package card, the checkout and the success page state: what the buyer gets and until when. */
export const packageTermsLine = (pkg: Pick<ImagePackage, 'images'>) => `${pkg.images} images, to use within ${PACKAGE_VALID_MONTHS} months`;

/** The four image-service packages of the image services page. */
export const IMAGE_PACKAGES: readonly ImagePackage[] = [
  {
    id: 'basic-restoration',
    name: 'Basic Restoration',
    priceValue: 40,
    description: 'Bring faded and damaged photos back to life.',
    images: 100,
    features: ['Scratch and dust removal', 'Colour and contrast correction', 'Many photos at once, one ZIP'],
    isPopular: false,
    buttonText: 'Choose Basic',
  },
  {
    id: 'premium-restoration',
    name: 'Premium Restoration',
    priceValue: 99,
    description: 'Full restoration with colorization for a larger collection.',
    images: 250,
    features: ['Restoration and colorization', 'Detail and face enhancement', 'Many photos at once, one ZIP'],
    isPopular: true,
    buttonText: 'Choose Premium',
  },
  {
    id: 'ai-creation',
    name: 'AI Creation',
    priceValue: 79,
    description: 'Images from every mode of the tool, for your own projects.',
    images: 100,
    features: ['Any mode of the tool', 'Commercial-use files', 'Many photos at once, one ZIP'],
    isPopular: false,
    buttonText: 'Choose Creation',
  },
  {
    id: 'family-package',
    name: 'Family Package',
    priceValue: 299,
    description: 'The whole family archive restored and colorized, batch by batch.',
    images: 500,
    features: ['Restoration and colorization', 'Enough for a whole family archive', 'Many photos at once, one ZIP'],
    isPopular: false,
    buttonText: 'Choose Family',
  },
] as const;

/** A package's price as its card shows it: whole dollars without cents ('$99'), else with them. */
export const packagePriceLabel = (pkg: Pick<ImagePackage, 'priceValue'>) =>
  Number.isInteger(pkg.priceValue) ? `$${pkg.priceValue}` : formatPrice(pkg.priceValue);

/** Every priced item as the database lists it (catalog_prices): what the generated migrations write. */
export interface CatalogRow {
  itemType: 'transformation' | 'package';
  itemKey: string;
  name: string;
  price: number;
}

export function catalogRows(): CatalogRow[] {
  return [
    ...(Object.keys(ITEM_PRICES) as TransformationKind[]).map((kind) => ({ itemType: 'transformation' as const, itemKey: kind, name: ITEM_NAMES[kind], price: ITEM_PRICES[kind] })),
    { itemType: 'transformation', itemKey: VIDEO_1080P.key, name: VIDEO_1080P.name, price: VIDEO_1080P.price },
    ...IMAGE_PACKAGES.map((p) => ({ itemType: 'package' as const, itemKey: p.id, name: p.name, price: p.priceValue })),
  ];
}

export function findImagePackage(id: string): ImagePackage | undefined {
  return IMAGE_PACKAGES.find((p) => p.id === id);
}

export { sumPrices, formatPrice };
