import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MSG } from '../../../src/lib/messages';
import { toast } from '../../../src/lib/toast';
import type { ImageResult } from '../../../src/lib/tool/api';
import { DEFAULT_IMAGE_PROMPT, DEFAULT_VIDEO_PROMPT } from '../../../src/lib/tool/constants';
import { BRUSH_SIZES, DEFAULT_BRUSH } from '../../../src/lib/tool/heal-brush';
import { MAX_HEAL_MARKS, type HealMark } from '../../../src/lib/tool/image-schema';
import { $savedResults } from '../../../src/lib/tool/saved';
import {
  $heal,
  $imageEdits,
  $imageOptions,
  $imageTab,
  $toolStatus,
  $toolTab,
  $videoOptions,
  $videoService,
  $videoTab,
  addHealMark,
  animatePhoto,
  chooseImageFile,
  chooseVideoFile,
  deleteResult,
  generateVideo,
  restoreImage,
  setHints,
  setImageOptions,
  setResult,
  setVideoSwitch,
  undoHealMark,
} from '../../../src/lib/tool/state';
import { DEFAULT_VIDEO_RESOLUTION } from '../../../src/lib/tool/video-modes';

/**
 * The tool's stores and actions without a browser (src/lib/tool/state/): fetch answers as the functions do,
 * `window.setTimeout` (the live region's) runs at once, toasts are watched.
 */

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const mark = (x: number): HealMark => ({ points: [{ x, y: 0.5 }], radius: 0.016 });

const image = (id: string, extra: Partial<ImageResult> = {}): ImageResult => ({
  success: true,
  transformationId: id,
  originalUrl: `/api/transformations/${id}/original`,
  processedUrl: `/api/transformations/${id}/preview`,
  width: 800,
  height: 600,
  hints: [],
  healMarks: [],
  tone: 'grey',
  reference: false,
  ...extra,
});

const idle = { file: null, result: null, own: false, busy: false, progress: null };
const photo = (type = 'image/jpeg', name = 'photo.jpg') => new File([new Uint8Array(4)], name, { type });

let requests: { url: string; body: unknown }[];
let answer: (url: string) => Response;

beforeEach(() => {
  requests = [];
  answer = () => Response.json({ success: false, error: 'not stubbed' }, { status: 500 });
  vi.stubGlobal('window', { setTimeout: (run: () => void) => (run(), 0) });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      requests.push({ url, body: init.body ? JSON.parse(String(init.body)) : undefined });
      return answer(url);
    }),
  );
  for (const level of ['info', 'success', 'error'] as const) vi.spyOn(toast, level).mockImplementation(() => 0);
  $imageTab.set({ ...idle });
  $videoTab.set({ ...idle });
  $imageEdits.set({ applying: false, hints: [], healShown: [], brush: DEFAULT_BRUSH, healStatus: '' });
  setImageOptions({ prompt: DEFAULT_IMAGE_PROMPT });
  $imageOptions.setKey('errors', {});
  $videoOptions.set({ ...$videoOptions.get(), prompt: DEFAULT_VIDEO_PROMPT, fromImage: null, defaults: null, restoreFirst: true, animateFaces: true, errors: {} });
  $videoService.set({ availability: 'unknown', checking: true });
  $toolTab.set('image');
});

afterEach(() => {
  $savedResults.set({});
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('tool state, shared by both tabs', () => {
  it('a file the tab does not take is refused with the reason, toasted and announced', () => {
    chooseImageFile(photo('application/pdf', 'scan.pdf'));
    expect($imageTab.get().file).toBeNull();
    expect(toast.error).toHaveBeenCalledWith(MSG.imageInvalidType, undefined);
    expect($toolStatus.get()).toBe(MSG.imageInvalidType);
  });

  it("a chosen file replaces the tab's result, and the result is the buyer's own and remembered by id", () => {
    setResult('image', image(A));
    expect($imageTab.get()).toMatchObject({ own: true, result: { transformationId: A } });
    expect($savedResults.get().image).toBe(A);
    const file = photo();
    chooseImageFile(file);
    expect($imageTab.get()).toMatchObject({ file, result: null });
    expect($savedResults.get().image).toBeUndefined();
  });

  it('Delete forgets the result and the image tab says so', () => {
    setResult('image', image(A));
    deleteResult('image');
    expect($imageTab.get().result).toBeNull();
    expect($toolStatus.get()).toBe('Result deleted');
  });
});

describe('tool state, the image tab', () => {
  it('asks for a photo before anything else', async () => {
    await restoreImage();
    expect(toast.error).toHaveBeenCalledWith(MSG.uploadFirst, undefined);
    expect(requests).toEqual([]);
  });

  it('shows a bad prompt beside its field, starts nothing, and editing the prompt clears the error', async () => {
    $imageTab.setKey('file', photo());
    setImageOptions({ prompt: '' });
    await restoreImage();
    const error = $imageOptions.get().errors.prompt;
    expect(error).toBeTruthy();
    expect(toast.error).toHaveBeenCalledWith(error, undefined);
    expect($imageTab.get().busy).toBe(false);
    setImageOptions({ prompt: 'Restore it' });
    expect($imageOptions.get().errors.prompt).toBeUndefined();
  });

  it('the edits follow the result: a new result brings its hints and marks, a re-render of the same keeps the hints being edited', () => {
    const hint = { x: 0.1, y: 0.2, color: '#aa0000' };
    setResult('image', image(A, { hints: [hint], healMarks: [mark(0.1)] }));
    expect($imageEdits.get()).toMatchObject({ hints: [hint], healShown: [mark(0.1)] });

    const editing = [{ x: 0.3, y: 0.3, color: '#00aa00' }];
    setHints(editing);
    setResult('image', image(A, { hints: [hint], healMarks: [mark(0.1), mark(0.2)] }));
    expect($imageEdits.get()).toMatchObject({ hints: editing, healShown: [mark(0.1), mark(0.2)] });

    // A result set another way (a batch's Edit sets the tab's store) brings its own edits too.
    $imageTab.setKey('result', image(B));
    expect($imageEdits.get()).toMatchObject({ hints: [], healShown: [] });
    setResult('image', null);
    expect($heal.get().shown).toEqual([]);
  });

  it('a heal mark shows at once with the brush radius, and goes back when the re-render fails', async () => {
    setResult('image', image(A, { healMarks: [mark(0.1)] }));
    answer = () => Response.json({ success: false, error: 'Heal failed' }, { status: 500 });
    addHealMark([{ x: 0.7, y: 0.7 }]);
    const radius = BRUSH_SIZES.find((b) => b.id === DEFAULT_BRUSH)!.radius;
    expect($heal.get()).toMatchObject({ busy: true, shown: [mark(0.1), { points: [{ x: 0.7, y: 0.7 }], radius }] });
    await vi.waitFor(() => expect($heal.get().busy).toBe(false));
    expect($heal.get().shown).toEqual([mark(0.1)]);
    expect(toast.error).toHaveBeenCalledWith('Heal failed', undefined);
    expect(requests[0]).toEqual({ url: `/api/transformations/${A}/heal`, body: { marks: [mark(0.1), { points: [{ x: 0.7, y: 0.7 }], radius }] } });
  });

  it("Undo re-renders without the last mark and takes the server's answer as the result", async () => {
    setResult('image', image(A, { healMarks: [mark(0.1), mark(0.2)] }));
    answer = () => Response.json({ ...image(A, { healMarks: [mark(0.1)] }), error: null });
    undoHealMark();
    await vi.waitFor(() => expect($heal.get().busy).toBe(false));
    expect($imageTab.get().result?.healMarks).toEqual([mark(0.1)]);
    expect($heal.get().shown).toEqual([mark(0.1)]);
    expect(toast.success).toHaveBeenCalledWith(MSG.healUndone, undefined);
  });

  it('a full list of marks takes no more: the brush says why', () => {
    setResult('image', image(A, { healMarks: Array.from({ length: MAX_HEAL_MARKS }, (_, i) => mark(i / MAX_HEAL_MARKS)) }));
    addHealMark([{ x: 0.5, y: 0.5 }]);
    expect($heal.get().status).toBe(MSG.healMarksMax(MAX_HEAL_MARKS));
    expect(requests).toEqual([]);
  });
});

describe('tool state, the video tab', () => {
  it('"Animate this photo" opens the tab on the finished image; its defaults arrive, and the buyer\'s own switch wins', async () => {
    let reply!: (r: Response) => void;
    answer = () => Response.json({});
    vi.mocked(fetch).mockImplementationOnce(async (url, init) => {
      requests.push({ url: String(url), body: JSON.parse(String(init!.body)) });
      return new Promise<Response>((resolve) => (reply = resolve));
    });
    setResult('video', { transformationId: B, videoUrl: '/v.mp4', originalImageUrl: null, resolution: DEFAULT_VIDEO_RESOLUTION });
    animatePhoto(image(A));
    expect($toolTab.get()).toBe('video');
    expect($videoTab.get().result).toBeNull();
    expect($videoOptions.get().fromImage).toEqual({ id: A, previewUrl: `/api/transformations/${A}/preview` });
    await vi.waitFor(() => expect(requests).toHaveLength(1));
    expect(requests[0]).toEqual({ url: '/api/video-defaults', body: { fromImageId: A } });

    setVideoSwitch('animateFaces', true);
    reply(Response.json({ success: true, restoreFirst: false, restoreReason: 'colour', animateFaces: false, faces: 0, subjects: [] }));
    await vi.waitFor(() => expect($videoOptions.get().defaults).not.toBeNull());
    // An image result is restored already: its switch stays on; the buyer's tick stays as they left it.
    expect($videoOptions.get()).toMatchObject({ restoreFirst: true, animateFaces: true });
  });

  it('a chosen file replaces the finished image being animated', () => {
    $videoOptions.setKey('fromImage', { id: A, previewUrl: '/p.jpg' });
    const file = photo();
    chooseVideoFile(file);
    expect($videoTab.get().file).toBe(file);
    expect($videoOptions.get()).toMatchObject({ fromImage: null, defaults: null });
  });

  it('Generate asks for a photo, but a finished image counts as one', async () => {
    await generateVideo();
    expect(toast.error).toHaveBeenCalledWith(MSG.uploadFirst, undefined);
    vi.mocked(toast.error).mockClear();

    $videoOptions.set({ ...$videoOptions.get(), fromImage: { id: A, previewUrl: '/p.jpg' }, prompt: '' });
    await generateVideo();
    expect(toast.error).not.toHaveBeenCalledWith(MSG.uploadFirst, expect.anything());
    expect($videoOptions.get().errors.prompt).toBeTruthy();
  });

  it('Generate says the service is down instead of starting a job', async () => {
    $videoTab.setKey('file', photo());
    $videoService.setKey('availability', 'unavailable');
    await generateVideo();
    expect(toast.error).toHaveBeenCalledWith(MSG.videoUnavailable, expect.objectContaining({ duration: expect.any(Number) }));
    expect($videoTab.get().busy).toBe(false);
    expect(requests).toEqual([]);
  });
});
