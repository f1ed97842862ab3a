import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, applyHints, getTransformation, processImage, startVideoFromImage, uploadLarge, waitForTransformation } from '../../../src/lib/tool/api';
import { ownerSecretFor } from '../../../src/lib/owner-secrets';
import type { ImageAnswer } from '../../../src/lib/tool/image-schema';
import { INLINE_UPLOAD_MAX_BYTES } from '../../../src/lib/tool/constants';
import { MSG } from '../../../src/lib/messages';
import { statusAnswer } from '../../support/answers';

// The tool island's client (src/lib/tool/api.ts) reads every answer with the schema the function builds it from: an
// answer of another shape is the ApiError a server error gives (the tab's own message), never a half-read result.
afterEach(() => vi.unstubAllGlobals());

const ID = '0b7c2f9e-3a8d-4c51-9e0f-6d2a1b3c4d5e';
const SECRET = 'A'.repeat(43);

const image = (fields: Partial<ImageAnswer> = {}): ImageAnswer => ({
  success: true, transformationId: ID, originalUrl: '/o.jpg', processedUrl: '/p.jpg', width: 640, height: 480,
  hints: [], healMarks: [], tone: 'grey', reference: false, error: null, ...fields,
});

/** XMLHttpRequest as the browser runs it, answering every request with `status` and `body`. */
function stubXhr(status: number, body: unknown) {
  const sent: { method: string; url: string }[] = [];
  class FakeXhr {
    status = 0;
    responseText = '';
    upload: { onprogress?: (e: unknown) => void } = {};
    onload?: () => void;
    onerror?: () => void;
    private target = { method: '', url: '' };
    open(method: string, url: string) {
      this.target = { method, url };
    }
    setRequestHeader() {}
    send() {
      sent.push(this.target);
      queueMicrotask(() => {
        this.status = status;
        this.responseText = typeof body === 'string' ? body : JSON.stringify(body);
        this.onload?.();
      });
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return sent;
}

const stubFetch = (...answers: Array<[unknown, number?]>) => {
  const fetchMock = vi.fn(async () => {
    const [body, status = 200] = answers.length > 1 ? answers.shift()! : answers[0]!;
    return typeof body === 'string' ? new Response(body, { status }) : Response.json(body, { status });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
};

const photo = () => new File([new Uint8Array(1024)], 'old.png', { type: 'image/png' });
const options = { model: 'sd-xl', prompt: 'Restore and colour this photo' };

describe('the tool’s client and the answers’ shapes', () => {
  it('a restoration of the right shape is taken, its owner secret kept; one of another shape is the image error', async () => {
    stubXhr(200, image({ ownerSecret: SECRET }));
    const result = await processImage(photo(), options);
    expect(result).toMatchObject({ transformationId: ID, processedUrl: '/p.jpg' });
    expect(result).not.toHaveProperty('ownerSecret');
    expect(ownerSecretFor(ID)).toBe(SECRET);

    for (const body of [{ ...image(), processedUrl: undefined }, { ...image(), width: '640' }, { ...image(), tone: 'purple' }, { success: true }, 'not json', []]) {
      stubXhr(200, body);
      await expect(processImage(photo(), options)).rejects.toEqual(new ApiError(MSG.imageError(), 200));
    }
    // A refusal keeps the server's words; one without words is the same message.
    stubXhr(413, { success: false, error: 'File too large' });
    await expect(processImage(photo(), options)).rejects.toMatchObject({ message: 'File too large', status: 413 });
    stubXhr(502, '<html>Bad gateway</html>');
    await expect(processImage(photo(), options)).rejects.toMatchObject({ message: MSG.imageError(), status: 502 });
  });

  it('re-renders, the upload grant, a video job and the status: each refused when its shape is not the schema’s', async () => {
    stubFetch([{ ...image(), hints: [{ x: 2, y: 0, color: 'red' }] }]);
    await expect(applyHints(ID, [])).rejects.toEqual(new ApiError(MSG.imageError(), 200));

    const big = new File([new Uint8Array(INLINE_UPLOAD_MAX_BYTES + 1)], 'big.jpg', { type: 'image/jpeg' });
    stubFetch([{ success: true, uploadId: 'u1', upload: { url: '/upload', method: 'POST', headers: {} } }]);
    const xhr = stubXhr(200, '');
    await expect(uploadLarge('image', big)).rejects.toEqual(new ApiError(MSG.uploadFailed, 200));
    expect(xhr).toEqual([]);
    stubFetch([{ success: true, uploadId: 'u1', upload: { url: '/upload', method: 'PUT', headers: {} } }]);
    await expect(uploadLarge('image', big)).resolves.toBe('u1');
    stubXhr(403, '');
    await expect(uploadLarge('image', big)).rejects.toEqual(new ApiError(MSG.uploadFailed, 403));

    stubFetch([{ success: true, transformationId: ID, status: 'started', error: null }, 202]);
    await expect(startVideoFromImage(ID, { prompt: 'Slowly zoom in', mode: 'standard', resolution: '720p', animateFaces: true })).rejects.toEqual(new ApiError(MSG.videoError, 202));

    stubFetch([{ ...statusAnswer({ transformationId: ID, kind: 'video' }), progress: 7 }]);
    await expect(getTransformation(ID)).rejects.toEqual(new ApiError(MSG.videoError, 200));
    // A failed job is an answer (success false, its error), not a refusal: the tab shows the job's own words.
    stubFetch([statusAnswer({ transformationId: ID, kind: 'video', success: false, status: 'failed', error: 'The photo could not be animated.' })]);
    await expect(waitForTransformation(ID, () => {}, { intervalMs: 1 })).rejects.toEqual(new ApiError('The photo could not be animated.', 200));
  });
});
