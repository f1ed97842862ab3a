import type { FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import { FILE_ACCEPT, MAX_UPLOAD_MB } from '../../../lib/tool/constants';
import { $imageTab, chooseFile, deleteResult, restoreImage } from '../../../lib/tool/state';
import ToolTabLayout from './ToolTabLayout';
import { useTab } from './useTab';
import ImageOptions from '../options/ImageOptions';
import ImageResultCard from '../result/ImageResultCard';

/** The Restore & Colorize tab. */
export default function ImageTab() {
  const tab = useStore($imageTab);
  const panelRef = useTab('image', tab);
  const { busy, progress } = tab;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void restoreImage();
  };

  return (
    <ToolTabLayout
      upload={{ title: 'Upload a photo', accept: FILE_ACCEPT.image, hint: `JPEG, PNG or TIFF, up to ${MAX_UPLOAD_MB} MB.`, file: tab.file, onFile: (f) => chooseFile('image', f) }}
      formLabel="Restoration options"
      options={<ImageOptions />}
      noFileText="Choose a photo to see the restoration options."
      onSubmit={submit}
      submitText={busy ? 'Processing…' : 'Restore & Colorize'}
      submitDisabled={busy}
      panelRef={panelRef}
      panel={{ busy, busyText: 'Processing your image...', progress, progressLabel: progress === null ? 'Processing' : 'Uploading' }}
    >
      {tab.result && <ImageResultCard result={tab.result} onDelete={() => deleteResult('image')} />}
    </ToolTabLayout>
  );
}
