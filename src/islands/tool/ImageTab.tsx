import { useState } from 'react';
import { MSG } from '../../lib/messages';
import { IMAGE_MODELS, promptSchema } from '../../lib/tool/image-schema';
import { DEFAULT_IMAGE_PROMPT, FILE_ACCEPT, MAX_UPLOAD_MB } from '../../lib/tool/constants';
import { loadImageResult, processImage } from '../../lib/tool/api';
import ToolTabLayout from './ToolTabLayout';
import ImageOptions, { type ImageOptionErrors } from './ImageOptions';
import ImageResultCard from './ImageResultCard';
import { failureMessage, type Announce } from './announce';
import { useToolForm } from './useToolForm';
import { useToolJob } from './useToolJob';
import { useImageEdits } from './useImageEdits';

/** The Restore & Colorize tab. */
export default function ImageTab({ announce }: { announce: Announce }) {
  const [model, setModel] = useState<string>(IMAGE_MODELS[0]!.id);
  const [prompt, setPrompt] = useState(DEFAULT_IMAGE_PROMPT);
  const [errors, setErrors] = useState<ImageOptionErrors>({});
  const form = useToolForm({ kind: 'image', load: loadImageResult, announce });
  const { busy, progress, run } = useToolJob(announce);
  const edits = useImageEdits(form.result, form.setResult, announce, form.accepts);

  const validate = () => {
    const next: ImageOptionErrors = { model: model ? undefined : MSG.selectModel };
    const p = promptSchema.safeParse(prompt);
    if (!p.success) next.prompt = p.error.issues[0]!.message;
    setErrors(next);
    return next.model ?? next.prompt;
  };

  const restore = (file: File) =>
    run({
      startProgress: null,
      startToast: MSG.imageProcessing,
      startAnnouncement: 'Processing your image...',
      work: (setProgress) => processImage(file, { model, prompt: prompt.trim() }, (f) => setProgress(f < 1 ? f : null)),
      success: MSG.imageSuccess,
      failure: (error) => failureMessage(error, MSG.imageError),
    });

  const editPrompt = (text: string) => {
    setPrompt(text);
    if (errors.prompt) setErrors((x) => ({ ...x, prompt: undefined }));
  };

  const remove = () => {
    form.setResult(null);
    announce('Result deleted');
  };

  return (
    <ToolTabLayout
      upload={{ title: 'Upload a photo', accept: FILE_ACCEPT.image, hint: `JPEG, PNG or TIFF, up to ${MAX_UPLOAD_MB} MB.`, file: form.file, onFile: form.chooseFile }}
      formLabel="Restoration options"
      options={<ImageOptions model={model} prompt={prompt} errors={errors} disabled={busy} onModel={setModel} onPrompt={editPrompt} />}
      noFileText="Choose a photo to see the restoration options."
      onSubmit={form.submit({ validate, run: restore })}
      submitText={busy ? 'Processing…' : 'Restore & Colorize'}
      submitDisabled={busy}
      panelRef={form.panelRef}
      panel={{ busy, busyText: 'Processing your image...', progress, progressLabel: progress === null ? 'Processing' : 'Uploading' }}
    >
      {form.result && <ImageResultCard result={form.result} edits={edits} onDelete={remove} />}
    </ToolTabLayout>
  );
}
