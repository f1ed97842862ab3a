import { IMAGE_MODELS } from '../../lib/tool/image-schema';
import ModelSelect from './ModelSelect';
import PromptField from './PromptField';

export type ImageOptionErrors = { model?: string; prompt?: string };

type Props = {
  model: string;
  prompt: string;
  errors: ImageOptionErrors;
  disabled: boolean;
  onModel: (model: string) => void;
  onPrompt: (prompt: string) => void;
};

/** The restoration's options: the model and the instructions. */
export default function ImageOptions({ model, prompt, errors, disabled, onModel, onPrompt }: Props) {
  return (
    <>
      <ModelSelect
        id="image-model"
        models={IMAGE_MODELS}
        value={model}
        error={errors.model}
        disabled={disabled}
        onChange={onModel}
        optionText={(m) => `${m.name} (${m.id})`}
      />
      <PromptField id="image-prompt" label="Instructions" value={prompt} error={errors.prompt} disabled={disabled} onChange={onPrompt} />
    </>
  );
}
