import { useEffect, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import { MSG } from '../../../lib/messages';
import { FILE_ACCEPT, MAX_UPLOAD_MB } from '../../../lib/tool/constants';
import { $videoOptions, $videoService, $videoTab, checkVideoService, chooseVideoFile, deleteResult, generateVideo, setVideoOptions } from '../../../lib/tool/state';
import ToolTabLayout from './ToolTabLayout';
import { useTab } from './useTab';
import VideoOptions from '../options/VideoOptions';
import VideoResultCard from '../result/VideoResultCard';

/** The Image to Video tab: the video service's availability is checked once, when the tab mounts. */
export default function VideoTab() {
  const tab = useStore($videoTab);
  const { availability, checking } = useStore($videoService);
  const { fromImage } = useStore($videoOptions);
  const panelRef = useTab('video', tab);
  useEffect(() => {
    void checkVideoService();
  }, []);
  const { busy, progress } = tab;
  const unavailable = availability === 'unavailable';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void generateVideo();
  };

  return (
    <ToolTabLayout
      notice={
        <>
          {unavailable && (
            <p className="card border-danger text-danger" role="alert">
              {MSG.videoUnavailable}
            </p>
          )}
          {fromImage && !tab.file && (
            <figure className="card space-y-2" data-testid="animate-source">
              <img src={fromImage.previewUrl} alt="Your restoration, to be animated (watermarked preview)" className="max-h-48 w-auto rounded-md" />
              <figcaption className="text-sm text-muted">
                Animating your restored photo.{' '}
                <button type="button" className="underline" onClick={() => setVideoOptions({ fromImage: null })} disabled={busy}>
                  Use another photo instead
                </button>
              </figcaption>
            </figure>
          )}
        </>
      }
      upload={{ title: 'Upload a photo to animate', accept: FILE_ACCEPT.video, hint: `JPEG or PNG, up to ${MAX_UPLOAD_MB} MB.`, file: tab.file, onFile: chooseVideoFile }}
      formLabel="Video options"
      options={<VideoOptions />}
      ready={!!fromImage}
      noFileText="Choose a photo to see the video options."
      onSubmit={submit}
      submitText={checking ? 'Checking the video service…' : busy ? 'Generating…' : 'Generate Video'}
      submitDisabled={busy || checking}
      panelRef={panelRef}
      panel={{ busy, busyText: 'Generating your video...', note: 'Video generation may take up to 5 minutes.', progress, progressLabel: 'Video generation progress' }}
    >
      {tab.result && <VideoResultCard result={tab.result} onDelete={() => deleteResult('video')} />}
    </ToolTabLayout>
  );
}
