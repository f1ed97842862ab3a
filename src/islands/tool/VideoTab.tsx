import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import { Download, ShoppingCart, Trash2 } from 'lucide-react';
import UploadCard from './UploadCard';
import ResultPanel from './ResultPanel';
import WatermarkedVideoPlayer from '../WatermarkedVideoPlayer';
import { toast } from '../../lib/toast';
import { MSG, TOAST_VIDEO_MS } from '../../lib/messages';
import { $purchases, addToCart } from '../../lib/cart';
import { ITEM_PRICES, formatPrice } from '../../lib/catalog';
import { site } from '../../lib/site';
import { VIDEO_MODES } from '../../lib/tool/video-modes';
import { videoPromptSchema } from '../../lib/tool/video-schema';
import { DEFAULT_VIDEO_PROMPT, FILE_ACCEPT, MAX_UPLOAD_MB, VIDEO_POLL_MS, isAcceptedFile } from '../../lib/tool/constants';
import {
  ApiError,
  checkVideoAvailability,
  downloadResult,
  loadVideoResult,
  startVideo,
  waitForTransformation,
  type VideoAvailability,
} from '../../lib/tool/api';
import { useSavedResult } from './useSavedResult';

const videoToast = { duration: TOAST_VIDEO_MS };

/** The Image to Video tab. */
export default function VideoTab({ announce }: { announce: (text: string) => void }) {
  const [availability, setAvailability] = useState<VideoAvailability>('unknown');
  const [checking, setChecking] = useState(true);
  const [file, setFile] = useState<File | null>(null);
  const [mode, setMode] = useState<string>('standard');
  const [prompt, setPrompt] = useState(DEFAULT_VIDEO_PROMPT);
  const [errors, setErrors] = useState<{ mode?: string; prompt?: string }>({});
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [result, setResult, ownResult] = useSavedResult('video', loadVideoResult);
  const purchases = useStore($purchases);
  const bought = !!result && !!purchases[result.transformationId];
  const panelRef = useRef<HTMLElement>(null);
  const abortRef = useRef<AbortController | null>(null);

  useEffect(() => {
    let live = true;
    checkVideoAvailability().then((a) => {
      if (!live) return;
      setAvailability(a);
      setChecking(false);
    });
    return () => {
      live = false;
      abortRef.current?.abort();
    };
  }, []);

  const resultId = result?.transformationId;
  const focusResult = !!result && ownResult;
  useEffect(() => {
    if (focusResult) panelRef.current?.focus();
  }, [resultId, focusResult]);

  const chooseFile = (chosen: File) => {
    if (!isAcceptedFile('video', chosen)) {
      toast.error(MSG.videoInvalidType);
      announce(MSG.videoInvalidType);
      return;
    }
    setFile(chosen);
    setResult(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) {
      toast.error(MSG.uploadFirst);
      announce(MSG.uploadFirst);
      return;
    }
    if (availability === 'unavailable') {
      toast.error(MSG.videoUnavailable, videoToast);
      announce(MSG.videoUnavailable);
      return;
    }
    const next: typeof errors = {};
    if (!mode) next.mode = MSG.selectModel;
    const p = videoPromptSchema.safeParse(prompt);
    if (!p.success) next.prompt = p.error.issues[0]!.message;
    setErrors(next);
    const first = next.mode ?? next.prompt;
    if (first) {
      toast.error(first, videoToast);
      return;
    }
    setBusy(true);
    setProgress(0);
    setResult(null);
    toast.info(MSG.videoStarting, videoToast);
    announce('Generating your video...');
    const controller = new AbortController();
    abortRef.current = controller;
    try {
      const { transformationId } = await startVideo(file, { prompt: prompt.trim(), mode }, (f) => setProgress(f * 0.05));
      toast.info(MSG.videoGenerating, videoToast);
      const done = await waitForTransformation(transformationId, (s) => setProgress((p) => Math.max(p ?? 0, s.progress)), {
        intervalMs: VIDEO_POLL_MS,
        signal: controller.signal,
      });
      if (!done.videoUrl) throw new ApiError(MSG.videoNoUrl, 200);
      setResult({ transformationId, videoUrl: done.videoUrl, originalImageUrl: done.originalImageUrl });
      toast.success(MSG.videoSuccess, videoToast);
      announce(MSG.videoSuccess);
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return;
      const message =
        error instanceof ApiError
          ? error.status === 503
            ? MSG.videoUnavailable
            : error.message
          : MSG.videoGeneratorError(error instanceof Error ? error.message : undefined);
      if (error instanceof ApiError && error.status === 503) setAvailability('unavailable');
      toast.error(message, videoToast);
      announce(message);
    } finally {
      setBusy(false);
      setProgress(null);
    }
  };

  const download = async () => {
    if (!result) return;
    try {
      await downloadResult('video', result.transformationId);
      toast.success(MSG.videoDownloaded, videoToast);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : MSG.downloadFailed);
    }
  };

  const add = () => {
    if (!result) return;
    const { ok, message } = addToCart({
      type: 'video',
      videoUrl: result.videoUrl,
      imageUrl: result.originalImageUrl ?? undefined,
      transformationId: result.transformationId,
    });
    (ok ? toast.success : toast.error)(message);
  };

  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <div className="space-y-6">
        {availability === 'unavailable' && (
          <p className="card border-danger text-danger" role="alert">
            {MSG.videoUnavailable}
          </p>
        )}
        <UploadCard
          title="Upload a photo to animate"
          accept={FILE_ACCEPT.video}
          hint={`JPEG or PNG, up to ${MAX_UPLOAD_MB} MB.`}
          file={file}
          disabled={busy}
          onFile={chooseFile}
        />
        <form className="card space-y-4" onSubmit={submit} noValidate aria-label="Video options">
          {file ? (
            <>
              <div>
                <label htmlFor="video-mode" className="label">
                  Model
                </label>
                <select
                  id="video-mode"
                  className="field"
                  value={mode}
                  onChange={(e) => setMode(e.currentTarget.value)}
                  disabled={busy}
                  aria-describedby="video-mode-desc"
                  aria-invalid={!!errors.mode}
                >
                  {VIDEO_MODES.map((m) => (
                    <option key={m.id} value={m.id}>
                      {m.name}
                    </option>
                  ))}
                </select>
                <p id="video-mode-desc" className="mt-1 text-sm text-muted">
                  {VIDEO_MODES.find((m) => m.id === mode)?.description}
                </p>
                {errors.mode && <p className="mt-1 text-sm text-danger">{errors.mode}</p>}
              </div>
              <div>
                <label htmlFor="video-prompt" className="label">
                  How should the image animate?
                </label>
                <textarea
                  id="video-prompt"
                  className="field min-h-24"
                  value={prompt}
                  onChange={(e) => {
                    setPrompt(e.currentTarget.value);
                    if (errors.prompt) setErrors((x) => ({ ...x, prompt: undefined }));
                  }}
                  disabled={busy}
                  aria-invalid={!!errors.prompt}
                  aria-describedby="video-prompt-help"
                />
                <p id="video-prompt-help" className="mt-1 text-sm text-muted">
                  {errors.prompt ? (
                    <span className="text-danger" role="alert">
                      {errors.prompt}
                    </span>
                  ) : (
                    'For example: zoom in slowly, pan left to right, pull back to reveal the scene.'
                  )}
                </p>
              </div>
            </>
          ) : (
            <p className="text-sm text-muted">Choose a photo to see the video options.</p>
          )}
          <button type="submit" className="btn-primary w-full" disabled={busy || checking}>
            {checking ? 'Checking the video service…' : busy ? 'Generating…' : 'Generate Video'}
          </button>
        </form>
      </div>
      <ResultPanel
        ref={panelRef}
        title="Result"
        busy={busy}
        busyText="Generating your video..."
        note="Video generation may take up to 5 minutes."
        progress={progress}
        progressLabel="Video generation progress"
      >
        {result && (
          <div className="space-y-4" data-testid="video-result">
            <WatermarkedVideoPlayer videoUrl={result.videoUrl} watermarkText={site.brand} />
            <div className="flex flex-wrap gap-3">
              <button type="button" className="btn-danger" onClick={() => setResult(null)}>
                <Trash2 aria-hidden="true" className="h-4 w-4" /> Delete
              </button>
              <button type="button" className="btn-secondary" onClick={download}>
                <Download aria-hidden="true" className="h-4 w-4" /> Download
              </button>
              {bought ? (
                <span className="self-center font-semibold text-success" data-testid="purchased">{MSG.purchased}</span>
              ) : (
                <button type="button" className="btn-primary" onClick={add}>
                  <ShoppingCart aria-hidden="true" className="h-4 w-4" /> Add to Cart ({formatPrice(ITEM_PRICES.video)})
                </button>
              )}
            </div>
            <p className="text-xs text-muted">
              {bought ? MSG.purchasedVideoNote : MSG.videoPreviewNote}
            </p>
          </div>
        )}
      </ResultPanel>
    </div>
  );
}
