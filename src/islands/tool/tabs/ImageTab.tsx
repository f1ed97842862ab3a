import { useEffect, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import { $batch, chooseBatch, clearChosen, resumeBatch, startBatch } from '../../../lib/tool/batch-state';
import { $package } from '../../../lib/tool/package-state';
import { $imageOptions } from '../../../lib/tool/state';
import BatchPanel from '../batch/BatchPanel';
import { FILE_ACCEPT, MAX_UPLOAD_MB } from '../../../lib/tool/constants';
import { $imageTab, chooseImageFile, deleteResult, restoreImage } from '../../../lib/tool/state';
import ToolTabLayout from './ToolTabLayout';
import { useTab } from './useTab';
import ImageOptions from '../options/ImageOptions';
import ImageResultCard from '../result/ImageResultCard';

/**
 * The Restore & Colorize tab: one photo, or many at once (a multi-select or a dropped folder: the batch below, which
 * the server keeps and this tab resumes, from the open package or this browser).
 */
export default function ImageTab() {
  const tab = useStore($imageTab);
  const batch = useStore($batch);
  const pkg = useStore($package);
  const panelRef = useTab('image', tab);
  const { busy, progress } = tab;
  const many = batch.chosen.length;
  useEffect(() => {
    if (pkg.status === 'open' || pkg.status === 'none') void resumeBatch();
  }, [pkg.status, pkg.batchId]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (many) {
      const { model, prompt } = $imageOptions.get();
      void startBatch({ model, prompt: prompt.trim() });
    } else void restoreImage();
  };

  return (
    <>
    <ToolTabLayout
      upload={{
        title: 'Upload photos',
        accept: FILE_ACCEPT.image,
        hint: `JPEG, PNG or TIFF, up to ${MAX_UPLOAD_MB} MB each. Choose several, or drop a folder, to restore them as a batch.`,
        file: many ? null : tab.file,
        onFile: (f) => {
          clearChosen();
          chooseImageFile(f);
        },
        onFiles: chooseBatch,
      }}
      formLabel="Restoration options"
      options={<ImageOptions />}
      noFileText="Choose a photo to see the restoration options."
      ready={many > 0}
      onSubmit={submit}
      submitText={busy ? 'Processing…' : many ? `Restore ${many} photos` : 'Restore & Colorize'}
      submitDisabled={busy || (many > 0 && batch.running)}
      panelRef={panelRef}
      panel={{ busy, busyText: 'Processing your image...', progress, progressLabel: progress === null ? 'Processing' : 'Uploading' }}
    >
      {tab.result && <ImageResultCard result={tab.result} onDelete={() => deleteResult('image')} />}
    </ToolTabLayout>
    <BatchPanel />
    </>
  );
}
