import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import { Download, ShoppingCart, Trash2 } from 'lucide-react';
import BeforeAfterSlider from '../BeforeAfterSlider';
import ResultViewer from './ResultViewer';
import UploadCard from './UploadCard';
import ResultPanel from './ResultPanel';
import HintPicker from './HintPicker';
import HealBrush from './HealBrush';
import ReferencePicker from './ReferencePicker';
import { toast } from '../../lib/toast';
import { MSG } from '../../lib/messages';
import { $purchases, addToCart } from '../../lib/cart';
import { ITEM_PRICES, formatPrice } from '../../lib/catalog';
import { site } from '../../lib/site';
import { IMAGE_MODELS, promptSchema } from '../../lib/tool/image-schema';
import { DEFAULT_IMAGE_PROMPT, FILE_ACCEPT, MAX_UPLOAD_MB, isAcceptedFile, previewUrl } from '../../lib/tool/constants';
import { ApiError, applyHeal, applyHints, applyReference, downloadResult, loadImageResult, processImage, type ColorHint, type ImageResult } from '../../lib/tool/api';
import { useSavedResult } from './useSavedResult';
import { useHealMarks } from './useHealMarks';

const NO_MARKS: ImageResult['healMarks'] = [];

/** The Restore & Colorize tab. */
export default function ImageTab({ announce }: { announce: (text: string) => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [model, setModel] = useState<string>(IMAGE_MODELS[0]!.id);
  const [prompt, setPrompt] = useState(DEFAULT_IMAGE_PROMPT);
  const [errors, setErrors] = useState<{ model?: string; prompt?: string }>({});
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [result, setResult, ownResult] = useSavedResult('image', loadImageResult);
  const [hints, setHints] = useState<ColorHint[]>([]);
  // Bought (the checkout saved its clean-file link): Download gives the clean file, the result is final.
  const purchases = useStore($purchases);
  const bought = !!result && !!purchases[result.transformationId];
  const [applying, setApplying] = useState(false);
  const panelRef = useRef<HTMLElement>(null);

  const resultId = result?.transformationId;
  const focusResult = !!result && ownResult;
  useEffect(() => {
    if (focusResult) panelRef.current?.focus();
  }, [resultId, focusResult]);

  // A new result (processed now or restored from a previous visit) brings its own colour hints.
  const [hintsFor, setHintsFor] = useState<string | undefined>(undefined);
  if (hintsFor !== resultId) {
    setHintsFor(resultId);
    setHints(result?.hints ?? []);
  }

  const chooseFile = (chosen: File) => {
    if (!isAcceptedFile('image', chosen)) {
      toast.error(MSG.imageInvalidType);
      announce(MSG.imageInvalidType);
      return;
    }
    setFile(chosen);
    setResult(null);
  };

  const validate = () => {
    const next: typeof errors = {};
    if (!model) next.model = MSG.selectModel;
    const p = promptSchema.safeParse(prompt);
    if (!p.success) next.prompt = p.error.issues[0]!.message;
    setErrors(next);
    return next;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) {
      toast.error(MSG.uploadFirst);
      announce(MSG.uploadFirst);
      return;
    }
    const problems = validate();
    const first = problems.model ?? problems.prompt;
    if (first) {
      toast.error(first);
      return;
    }
    setBusy(true);
    setProgress(null);
    setResult(null);
    toast.info(MSG.imageProcessing);
    announce('Processing your image...');
    try {
      const answer = await processImage(file, { model, prompt: prompt.trim() }, (f) => setProgress(f < 1 ? f : null));
      setResult(answer);
      toast.success(MSG.imageSuccess);
      announce(MSG.imageSuccess);
    } catch (error) {
      const message = error instanceof ApiError ? error.message : MSG.imageError(error instanceof Error ? error.message : undefined);
      toast.error(message);
      announce(message);
    } finally {
      setBusy(false);
      setProgress(null);
    }
  };

  // Colour hints, heal marks and the colour reference photo all re-render the finished result on the server;
  // on failure the result shown stays (false).
  const rerender = async (run: (id: string) => Promise<ImageResult>, done: string): Promise<boolean> => {
    if (!result) return false;
    setApplying(true);
    try {
      setResult(await run(result.transformationId));
      toast.success(done);
      announce(done);
      return true;
    } catch (error) {
      const message = error instanceof Error ? error.message : MSG.imageError();
      toast.error(message);
      announce(message);
      return false;
    } finally {
      setApplying(false);
    }
  };
  // Heal marks, shared by the heal brush under the result and the full-size viewer's.
  const heal = useHealMarks(result?.healMarks ?? NO_MARKS, (next, done) => rerender((id) => applyHeal(id, next), done), applying);

  const apply = () => rerender((id) => applyHints(id, hints), MSG.hintsApplied);
  // A colour reference photo; null goes back to automatic colours.
  const reference = (chosen: File | null) => {
    if (chosen && !isAcceptedFile('image', chosen)) {
      toast.error(MSG.imageInvalidType);
      announce(MSG.imageInvalidType);
      return;
    }
    return rerender((id) => applyReference(id, chosen), chosen ? MSG.referenceApplied : MSG.referenceRemoved);
  };

  const download = async () => {
    if (!result) return;
    try {
      await downloadResult('image', result.transformationId);
      toast.success(MSG.imageDownloaded);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : MSG.downloadFailed);
    }
  };

  const add = () => {
    if (!result) return;
    const { ok, message } = addToCart({ type: 'image', imageUrl: previewUrl(result.transformationId), transformationId: result.transformationId });
    (ok ? toast.success : toast.error)(message);
  };

  const remove = () => {
    setResult(null);
    announce('Result deleted');
  };

  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <div className="space-y-6">
        <UploadCard
          title="Upload a photo"
          accept={FILE_ACCEPT.image}
          hint={`JPEG, PNG or TIFF, up to ${MAX_UPLOAD_MB} MB.`}
          file={file}
          disabled={busy}
          onFile={chooseFile}
        />
        <form className="card space-y-4" onSubmit={submit} noValidate aria-label="Restoration options">
          {file ? (
            <>
              <div>
                <label htmlFor="image-model" className="label">
                  Model
                </label>
                <select
                  id="image-model"
                  className="field"
                  value={model}
                  onChange={(e) => setModel(e.currentTarget.value)}
                  disabled={busy}
                  aria-invalid={!!errors.model}
                  aria-describedby="image-model-desc"
                >
                  {IMAGE_MODELS.map((m) => (
                    <option key={m.id} value={m.id}>
                      {m.name} ({m.id})
                    </option>
                  ))}
                </select>
                <p id="image-model-desc" className="mt-1 text-sm text-muted">
                  {IMAGE_MODELS.find((m) => m.id === model)?.description}
                </p>
                {errors.model && <p className="mt-1 text-sm text-danger">{errors.model}</p>}
              </div>
              <div>
                <label htmlFor="image-prompt" className="label">
                  Instructions
                </label>
                <textarea
                  id="image-prompt"
                  className="field min-h-24"
                  value={prompt}
                  onChange={(e) => {
                    setPrompt(e.currentTarget.value);
                    if (errors.prompt) setErrors((x) => ({ ...x, prompt: undefined }));
                  }}
                  disabled={busy}
                  aria-invalid={!!errors.prompt}
                  aria-describedby={errors.prompt ? 'image-prompt-error' : undefined}
                />
                {errors.prompt && (
                  <p id="image-prompt-error" className="mt-1 text-sm text-danger" role="alert">
                    {errors.prompt}
                  </p>
                )}
              </div>
            </>
          ) : (
            <p className="text-sm text-muted">Choose a photo to see the restoration options.</p>
          )}
          <button type="submit" className="btn-primary w-full" disabled={busy}>
            {busy ? 'Processing…' : 'Restore & Colorize'}
          </button>
        </form>
      </div>
      <ResultPanel
        ref={panelRef}
        title="Result"
        busy={busy}
        busyText="Processing your image..."
        progress={progress}
        progressLabel={progress === null ? 'Processing' : 'Uploading'}
      >
        {result && (
          <div className="space-y-4" data-testid="image-result">
            <BeforeAfterSlider
              beforeSrc={result.originalUrl}
              afterSrc={result.processedUrl}
              beforeAlt="Original photo"
              afterAlt="Restored and colorized photo (watermarked preview)"
              beforeLabel="Original"
              afterLabel="Restored"
              watermarkText={site.brand}
              width={result.width ?? 4}
              height={result.height ?? 3}
              eager
            />
            <div className="flex flex-wrap gap-3">
              <button type="button" className="btn-danger" onClick={remove}>
                <Trash2 aria-hidden="true" className="h-4 w-4" /> Delete
              </button>
              <button type="button" className="btn-secondary" onClick={download}>
                <Download aria-hidden="true" className="h-4 w-4" /> Download
              </button>
              <ResultViewer
                beforeSrc={result.originalUrl}
                afterSrc={result.processedUrl}
                beforeAlt="Original photo"
                afterAlt={bought ? 'Restored and colorized photo' : 'Restored and colorized photo (watermarked preview)'}
                beforeLabel="Original"
                afterLabel="Restored"
                width={result.width ?? undefined}
                height={result.height ?? undefined}
                heal={bought ? undefined : heal}
              />
              {bought ? (
                <span className="self-center font-semibold text-success" data-testid="purchased">{MSG.purchased}</span>
              ) : (
                <button type="button" className="btn-primary" onClick={add}>
                  <ShoppingCart aria-hidden="true" className="h-4 w-4" /> Add to Cart ({formatPrice(ITEM_PRICES.image)})
                </button>
              )}
            </div>
            <p className="text-xs text-muted">
              {bought ? MSG.purchasedImageNote : 'The preview and its download carry a watermark; after purchase you download the full-resolution file without it.'}
            </p>
            {!bought && (
              <HealBrush imageUrl={result.processedUrl} width={result.width ?? undefined} height={result.height ?? undefined} heal={heal} />
            )}
            {!bought && (
              <HintPicker imageUrl={result.processedUrl} width={result.width ?? undefined} height={result.height ?? undefined} hints={hints} onChange={setHints} onApply={apply} busy={applying} />
            )}
            {!bought && result.tone !== 'colour' && (
              <ReferencePicker active={!!result.reference} busy={applying} onApply={(f) => reference(f)} onRemove={() => reference(null)} />
            )}
          </div>
        )}
      </ResultPanel>
    </div>
  );
}
