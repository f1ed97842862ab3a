import { useState } from 'react';

/** Play/pause toggle of a sample voice (visual only) with a waveform placeholder. */
export default function VoiceCard({ name, description }: { name: string; description: string }) {
  const [playing, setPlaying] = useState(false);
  const bars = [40, 70, 55, 90, 35, 80, 60, 95, 45, 75, 50, 85, 30, 65, 55, 90, 40, 70, 50, 60];
  return (
    <div className="flex items-center gap-4" data-voice={name}>
      <button
        type="button"
        className="btn-primary h-12 w-12 shrink-0 rounded-full p-0"
        aria-pressed={playing}
        aria-label={`${playing ? 'Pause' : 'Play'} ${name} sample`}
        onClick={() => setPlaying((p) => !p)}
      >
        <span aria-hidden="true">{playing ? '❚❚' : '▶'}</span>
      </button>
      <div className="flex h-12 flex-1 items-center gap-1" aria-hidden="true" title={description}>
        {bars.map((h, i) => (
          <span
            key={i}
            className={`w-1.5 rounded-full ${playing ? 'bg-accent voice-bar-playing' : 'bg-border'}`}
            style={{ height: `${h}%`, animationDelay: `${(i % 5) * 120}ms` }}
          />
        ))}
      </div>
      <span className="sr-only" aria-live="polite">{playing ? `Playing ${name}` : ''}</span>
    </div>
  );
}
