/**
 * What can be bought and for how much: the single source of prices for the cart (display) and the
 * checkout (what is charged). The SQL checkout function mirrors these numbers and a test keeps the two
 * in step; the browser never sends a price.
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

export interface ImagePackage {
  id: string;
  name: string;
  /** Display string, e.g. '$99'. */
  price: string;
  priceValue: number;
  description: string;
  features: string[];
  isPopular: boolean;
  buttonText: string;
}

/** The four image-service packages of the image services page. */
export const IMAGE_PACKAGES: readonly ImagePackage[] = [
  {
    id: 'basic-restoration',
    name: 'Basic Restoration',
    price: '$40',
    priceValue: 40,
    description: 'Bring faded and damaged photos back to life.',
    features: ['Up to 100 images', 'Scratch and dust removal', 'Colour and contrast correction', 'Same-day delivery'],
    isPopular: false,
    buttonText: 'Choose Basic',
  },
  {
    id: 'premium-restoration',
    name: 'Premium Restoration',
    price: '$99',
    priceValue: 99,
    description: 'Full restoration with colorization for a larger collection.',
    features: ['Up to 250 images', 'Restoration and colorization', 'Detail and face enhancement', 'Same-day delivery'],
    isPopular: true,
    buttonText: 'Choose Premium',
  },
  {
    id: 'ai-creation',
    name: 'AI Creation',
    price: '$79',
    priceValue: 79,
    description: 'New images created from your brief and reference photos.',
    features: ['Up to 100 images', 'Custom styles and scenes', 'Commercial-use files', 'Same-day delivery'],
    isPopular: false,
    buttonText: 'Choose Creation',
  },
  {
    id: 'family-package',
    name: 'Family Package',
    price: '$299',
    priceValue: 299,
    description: 'The whole family archive restored, colorized and organised.',
    features: ['Up to 500 images', 'Restoration and colorization', 'Organised digital album', 'Next-day delivery'],
    isPopular: false,
    buttonText: 'Choose Family',
  },
] as const;

export function findImagePackage(id: string): ImagePackage | undefined {
  return IMAGE_PACKAGES.find((p) => p.id === id);
}

export { sumPrices, formatPrice } from './money';
