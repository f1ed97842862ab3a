import { useState } from 'react';
import { MSG } from '../../lib/messages';
import { DEFAULT_VIDEO_RESOLUTION, type VideoResolution } from '../../lib/tool/video-modes';
import { videoPromptSchema, videoResolutionSchema } from '../../lib/tool/video-schema';
import { DEFAULT_VIDEO_PROMPT, FILE_ACCEPT, MAX_UPLOAD_MB } from '../../lib/tool/constants';
import { loadVideoResult } from '../../lib/tool/api';
import ToolTabLayout from './ToolTabLayout';
import VideoOptions, { type VideoOptionErrors } from './VideoOptions';
import VideoResultCard from './VideoResultCard';
import type { Announce } from './announce';
import { useToolForm } from './useToolForm';
import { useVideoJob, videoToast } from './useVideoJob';

/** The Image to Video tab. */
export default function VideoTab({ announce }: { announce: Announce }) {
  const [mode, setMode] = useState<string>('standard');
  const [resolution, setResolution] = useState<VideoResolution>(DEFAULT_VIDEO_RESOLUTION);
  const [prompt, setPrompt] = useState(DEFAULT_VIDEO_PROMPT);
  const [errors, setErrors] = useState<VideoOptionErrors>({});
  const form = useToolForm({ kind: 'video', load: loadVideoResult, announce, toastOptions: videoToast });
  const { availability, checking, busy, progress, generate } = useVideoJob(announce);
  const unavailable = availability === 'unavailable';

  const validate = () => {
    const checked = { prompt: videoPromptSchema.safeParse(prompt), resolution: videoResolutionSchema.safeParse(resolution) };
    const next: VideoOptionErrors = {
      mode: mode ? undefined : MSG.selectModel,
      resolution: checked.resolution.error?.issues[0]?.message,
      prompt: checked.prompt.error?.issues[0]?.message,
    };
    setErrors(next);
    return next.mode ?? next.resolution ?? next.prompt;
  };

  const editPrompt = (text: string) => {
    setPrompt(text);
    if (errors.prompt) setErrors((x) => ({ ...x, prompt: undefined }));
  };

  return (
    <ToolTabLayout
      notice={
        unavailable && (
          <p className="card border-danger text-danger" role="alert">
            {MSG.videoUnavailable}
          </p>
        )
      }
      upload={{ title: 'Upload a photo to animate', accept: FILE_ACCEPT.video, hint: `JPEG or PNG, up to ${MAX_UPLOAD_MB} MB.`, file: form.file, onFile: form.chooseFile }}
      formLabel="Video options"
      options={
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
      }
      noFileText="Choose a photo to see the video options."
      onSubmit={form.submit({
        blocked: () => (unavailable ? MSG.videoUnavailable : undefined),
        validate,
        run: (file) => generate({ file, prompt: prompt.trim(), mode, resolution }),
      })}
      submitText={checking ? 'Checking the video service…' : busy ? 'Generating…' : 'Generate Video'}
      submitDisabled={busy || checking}
      panelRef={form.panelRef}
      panel={{ busy, busyText: 'Generating your video...', note: 'Video generation may take up to 5 minutes.', progress, progressLabel: 'Video generation progress' }}
    >
      {form.result && <VideoResultCard result={form.result} onDelete={() => form.setResult(null)} />}
    </ToolTabLayout>
  );
}
