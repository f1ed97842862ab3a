import type { ReactNode } from 'react';
import type { ExternalToast } from 'sonner';
import { Download, ShoppingCart, Trash2 } from 'lucide-react';
import { toast } from '../../../lib/toast';
import { MSG } from '../../../lib/messages';
import { addToCart, type NewCartItem } from '../../../lib/cart';
import { formatPrice } from '../../../lib/catalog';
import { downloadResult } from '../../../lib/tool/api';
import type { ToolKind } from '../../../lib/tool/constants';

type Props = {
  kind: ToolKind;
  transformationId: string;
  bought: boolean;
  price: number;
  cartItem: NewCartItem;
  /** The Download toast's message and options. */
  downloaded: string;
  toastOptions?: ExternalToast;
  /** The note under the buttons before and after purchase. */
  previewNote: string;
  purchasedNote: string;
  onDelete: () => void;
  /** More buttons, between Download and Add to Cart. */
  children?: ReactNode;
  /** In place of Add to Cart (a package's "Use 1 of 86"), with its own note under the buttons. */
  instead?: { action: ReactNode; note: string };
};

/**
 * A finished result's buttons: Delete, Download (the watermarked preview, or the clean file once bought) and Add to
 * Cart (Purchased once bought), with the note under them that says which file Download gives.
 */
export default function ResultActions(props: Props) {
  const { kind, transformationId, bought, price, cartItem, downloaded, toastOptions, previewNote, purchasedNote, onDelete, children, instead } = props;

  const download = async () => {
    try {
      await downloadResult(kind, transformationId);
      toast.success(downloaded, toastOptions);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : MSG.downloadFailed);
    }
  };

  const add = () => {
    const { ok, message } = addToCart(cartItem);
    (ok ? toast.success : toast.error)(message);
  };

  return (
    <>
      <div className="flex flex-wrap gap-3">
        <button type="button" className="btn-danger" onClick={onDelete}>
          <Trash2 aria-hidden="true" className="h-4 w-4" /> Delete
        </button>
        <button type="button" className="btn-secondary" onClick={download}>
          <Download aria-hidden="true" className="h-4 w-4" /> Download
        </button>
        {children}
        {instead ? (
          instead.action
        ) : bought ? (
          <span className="self-center font-semibold text-success" data-testid="purchased">
            {MSG.purchased}
          </span>
        ) : (
          <button type="button" className="btn-primary" onClick={add}>
            <ShoppingCart aria-hidden="true" className="h-4 w-4" /> Add to Cart ({formatPrice(price)})
          </button>
        )}
      </div>
      <p className="text-xs text-muted">{instead ? instead.note : bought ? purchasedNote : previewNote}</p>
    </>
  );
}
