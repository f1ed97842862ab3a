import { useStore } from '@nanostores/react';
import { $purchases } from '../../lib/cart';

/** Whether this result has been bought (the checkout saved its clean-file link): Download then gives the clean file. */
export function useBought(transformationId: string): boolean {
  const purchases = useStore($purchases);
  return !!purchases[transformationId];
}
