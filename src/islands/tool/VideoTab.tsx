import { useEffect, useRef, useState, type FormEvent } from 'react';
import UploadCard from './UploadCard';
import ResultPanel from './ResultPanel';
import VideoOptions, { type VideoOptionErrors } from './VideoOptions';
import VideoResultCard from './VideoResultCard';
import { useSavedResult } from './useSavedResult';
import { useVideoJob, videoToast } from './useVideoJob';
import { toast } from '../../lib/toast';
import { MSG } from '../../lib/messages';
import { DEFAULT_VIDEO_RESOLUTION, type VideoResolution } from '../../lib/tool/video-modes';
import { videoPromptSchema, videoResolutionSchema } from '../../lib/tool/video-schema';
import { DEFAULT_VIDEO_PROMPT, FILE_ACCEPT, MAX_UPLOAD_MB, isAcceptedFile } from '../../lib/tool/constants';
import { loadVideoResult } from '../../lib/tool/api';

/** The Image to Video tab. */
export default function VideoTab({ announce }: { announce: (text: string) => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [mode, setMode] = useState<string>('standard');
  const [resolution, setResolution] = useState<VideoResolution>(DEFAULT_VIDEO_RESOLUTION);
  const [prompt, setPrompt] = useState(DEFAULT_VIDEO_PROMPT);
  const [errors, setErrors] = useState<VideoOptionErrors>({});
  const [result, setResult, ownResult] = useSavedResult('video', loadVideoResult);
  const { availability, checking, busy, progress, generate } = useVideoJob(announce);
  const panelRef = useRef<HTMLElement>(null);

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
    const checked = { prompt: videoPromptSchema.safeParse(prompt), resolution: videoResolutionSchema.safeParse(resolution) };
    const next: VideoOptionErrors = {
      mode: mode ? undefined : MSG.selectModel,
      resolution: checked.resolution.error?.issues[0]?.message,
      prompt: checked.prompt.error?.issues[0]?.message,
    };
    setErrors(next);
    const first = next.mode ?? next.resolution ?? next.prompt;
    if (first) {
      toast.error(first, videoToast);
      return;
    }
    setResult(null);
    const done = await generate({ file, prompt: prompt.trim(), mode, resolution });
    if (done) setResult(done);
  };

  const editPrompt = (text: string) => {
    setPrompt(text);
    if (errors.prompt) setErrors((x) => ({ ...x, prompt: undefined }));
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
            <VideoOptions
              mode={mode}
              resolution={resolution}
              prompt={prompt}
              errors={errors}
              disabled={busy}
              onMode={setMode}
              onResolution={setResolution}
              onPrompt={editPrompt}
            />
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
        {result && <VideoResultCard result={result} onDelete={() => setResult(null)} />}
      </ResultPanel>
    </div>
  );
}
