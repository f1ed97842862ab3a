import { describe, expect, it } from 'vitest';
import {
  AUTOPLAY_MAX_ATTEMPTS,
  autoplayRetryAllowed,
  canToggleByClick,
  clampSnap,
  controlsShown,
  formatTime,
  initialPlayerState,
  percentForTime,
  playbackClock,
  playerPhase,
  playerReducer,
  shouldAutoplay,
  shouldReplay,
  snapSeek,
  snapVolume,
  timeForPercent,
  type PlayerAction,
  type PlayerState,
} from '../../../src/lib/video-player';

const run = (actions: PlayerAction[], from: PlayerState = initialPlayerState) => actions.reduce(playerReducer, from);

describe('video player sliders', () => {
  it('clamps and snaps the seek slider to 0-100 step 0.1', () => {
    expect(snapSeek(-5)).toBe(0);
    expect(snapSeek(150)).toBe(100);
    expect(snapSeek(33.333)).toBe(33.3);
    expect(snapSeek(33.36)).toBe(33.4);
    expect(snapSeek(Number.NaN)).toBe(0);
  });

  it('clamps and snaps the volume slider to 0-1 step 0.1', () => {
    expect(snapVolume(-1)).toBe(0);
    expect(snapVolume(2)).toBe(1);
    expect(snapVolume(0.33)).toBe(0.3);
    expect(snapVolume(0.06)).toBe(0.1);
    expect(clampSnap(0.1 + 0.2, 0, 1, 0.1)).toBe(0.3);
  });

  it('converts between seek percent and media time', () => {
    expect(timeForPercent(50, 5)).toBe(2.5);
    expect(timeForPercent(50, Number.NaN)).toBe(0);
    expect(percentForTime(1.25, 5)).toBe(25);
    expect(percentForTime(1, 0)).toBe(0);
    expect(formatTime(65.4)).toBe('1:05');
  });
});

describe('video player state', () => {
  it('starts loading with controls visible', () => {
    expect(initialPlayerState).toMatchObject({ loading: true, error: false, playing: false, controlsVisible: true, progress: 0 });
  });

  it('volume 0 counts as muted; unmuting from 0 restores an audible level', () => {
    const muted = run([{ type: 'volume', volume: 0 }]);
    expect(muted.muted).toBe(true);
    const back = playerReducer(muted, { type: 'toggleMute' });
    expect(back.muted).toBe(false);
    expect(back.volume).toBeGreaterThan(0);
    expect(run([{ type: 'volume', volume: 0.44 }]).volume).toBe(0.4);
  });

  it('the end sets progress to 100 %, and only short clips replay', () => {
    const ended = run([{ type: 'loaded', duration: 5 }, { type: 'play' }, { type: 'ended' }]);
    expect(ended).toMatchObject({ progress: 100, playing: false });
    expect(shouldReplay(5)).toBe(true);
    expect(shouldReplay(12)).toBe(false);
    expect(shouldReplay(Number.NaN)).toBe(false);
  });

  it('hides controls only while playing', () => {
    expect(run([{ type: 'hideControls' }]).controlsVisible).toBe(true);
    const playing = run([{ type: 'loaded', duration: 5 }, { type: 'play' }, { type: 'hideControls' }]);
    expect(playing.controlsVisible).toBe(false);
    expect(playerReducer(playing, { type: 'showControls' }).controlsVisible).toBe(true);
    expect(playerReducer(playing, { type: 'pause' }).controlsVisible).toBe(true);
  });

  it('an error blocks click toggling; retry reloads', () => {
    const failed = run([{ type: 'error' }]);
    expect(failed).toMatchObject({ error: true, loading: false });
    expect(canToggleByClick(failed)).toBe(false);
    expect(canToggleByClick(initialPlayerState)).toBe(false);
    const retried = playerReducer(failed, { type: 'retry' });
    expect(retried).toMatchObject({ error: false, loading: true, loadKey: failed.loadKey + 1 });
    expect(canToggleByClick(run([{ type: 'loaded', duration: 5 }]))).toBe(true);
  });

  it('autoplay is tried at most 3 times, and a refusal leaves the video paused', () => {
    let tries = 0;
    while (autoplayRetryAllowed(tries)) tries++;
    expect(tries).toBe(AUTOPLAY_MAX_ATTEMPTS);
    expect(AUTOPLAY_MAX_ATTEMPTS).toBeLessThanOrEqual(3);
    expect(playerReducer({ ...initialPlayerState, playing: true }, { type: 'autoplayFailed' }).playing).toBe(false);
  });

  it('after a refused autoplay the player tries again until 3 refusals', () => {
    expect([0, 1, 2, 3, 4].map(autoplayRetryAllowed)).toEqual([true, true, true, false, false]);
  });

  it('starts by itself only when the visitor pressed Play or has not asked for less motion', () => {
    expect(shouldAutoplay(false, false)).toBe(true);
    expect(shouldAutoplay(false, true)).toBe(false);
    expect(shouldAutoplay(true, true)).toBe(true);
    expect(shouldAutoplay(true, false)).toBe(true);
  });

  it('a URL change resets but keeps the volume choice', () => {
    const s = run([{ type: 'volume', volume: 0.5 }, { type: 'loaded', duration: 5 }, { type: 'time', time: 2, duration: 5 }, { type: 'reset' }]);
    expect(s).toMatchObject({ loading: true, progress: 0, volume: 0.5 });
  });
});

describe('video player display', () => {
  it('its data-state: an error wins over loading, then playing or paused', () => {
    expect(playerPhase(initialPlayerState)).toBe('loading');
    expect(playerPhase(run([{ type: 'error' }]))).toBe('error');
    expect(playerPhase({ ...initialPlayerState, error: true, loading: true })).toBe('error');
    expect(playerPhase(run([{ type: 'loaded', duration: 5 }]))).toBe('paused');
    expect(playerPhase(run([{ type: 'loaded', duration: 5 }, { type: 'play' }]))).toBe('playing');
    expect(playerPhase(run([{ type: 'loaded', duration: 5 }, { type: 'play' }, { type: 'pause' }]))).toBe('paused');
  });

  it('the controls show unless the video plays with them timed out', () => {
    const playing = run([{ type: 'loaded', duration: 5 }, { type: 'play' }]);
    expect(controlsShown(playing)).toBe(true);
    expect(controlsShown(playerReducer(playing, { type: 'hideControls' }))).toBe(false);
    expect(controlsShown({ ...initialPlayerState, controlsVisible: false })).toBe(true);
  });

  it('the clock reads the seek position against the length', () => {
    expect(playbackClock(initialPlayerState)).toEqual({ elapsed: '0:00', total: '0:00' });
    expect(playbackClock(run([{ type: 'loaded', duration: 75 }, { type: 'time', time: 61.9, duration: 75 }]))).toEqual({ elapsed: '1:01', total: '1:15' });
    expect(playbackClock(run([{ type: 'loaded', duration: 5 }, { type: 'ended' }]))).toEqual({ elapsed: '0:05', total: '0:05' });
    expect(playbackClock({ progress: 50, duration: Number.NaN })).toEqual({ elapsed: '0:00', total: '0:00' });
  });
});
