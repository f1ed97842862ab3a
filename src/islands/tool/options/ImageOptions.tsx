import { useStore } from '@nanostores/react';
import { IMAGE_MODELS } from '../../../lib/tool/image-schema';
import { $imageOptions, $imageTab, setImageOptions } from '../../../lib/tool/state';
import ModelSelect from './ModelSelect';
import PromptField from './PromptField';

/** The restoration's options: the model and the instructions (disabled while the tab's job runs). */
export default function ImageOptions() {
  const { model, prompt, errors } = useStore($imageOptions);
  const { busy } = useStore($imageTab);
  return (
    <>
      <ModelSelect
        id="image-model"
        models={IMAGE_MODELS}
        value={model}
        error={errors.model}
        disabled={busy}
        onChange={(id) => setImageOptions({ model: id })}
        optionText={(m) => `${m.name} (${m.id})`}
      />
      <PromptField id="image-prompt" label="Instructions" value={prompt} error={errors.prompt} disabled={busy} onChange={(text) => setImageOptions({ prompt: text })} />
    </>
  );
}
