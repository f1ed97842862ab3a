import { useRef, type KeyboardEvent } from 'react';
import { useStore } from '@nanostores/react';
import { $toolStatus, $toolTab } from '../../../lib/tool/state';
import ImageTab from './ImageTab';
import VideoTab from './VideoTab';
import PackageBanner from '../package/PackageBanner';

/**
 * The two tabs of the tool: 'Restore & Colorize' (default) and 'Image to Video'. ARIA tabs
 * with arrow keys, Home and End; both panels stay mounted so a running job survives a tab switch. One polite
 * live region (the tool state's $toolStatus) announces progress and results for screen readers.
 */
const TABS = [
  { id: 'image', label: 'Restore & Colorize' },
  { id: 'video', label: 'Image to Video' },
] as const;
type TabId = (typeof TABS)[number]['id'];

export default function ToolTabs() {
  // The open tab is shared state: "Animate this photo" on an image result opens the video tab.
  const active: TabId = useStore($toolTab);
  const setActive = (id: TabId) => $toolTab.set(id);
  const status = useStore($toolStatus);
  const refs = useRef<Record<TabId, HTMLButtonElement | null>>({ image: null, video: null });

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const index = TABS.findIndex((t) => t.id === active);
    let next: number;
    if (event.key === 'ArrowRight') next = (index + 1) % TABS.length;
    else if (event.key === 'ArrowLeft') next = (index - 1 + TABS.length) % TABS.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = TABS.length - 1;
    else return;
    event.preventDefault();
    const id = TABS[next]!.id;
    setActive(id);
    refs.current[id]?.focus();
  };

  return (
    <div>
      <PackageBanner />
      <div role="tablist" aria-label="Transformation type" className="mb-6 inline-flex rounded-lg border border-border bg-surface p-1">
        {TABS.map((tab) => (
          <button
            key={tab.id}
            ref={(el) => {
              refs.current[tab.id] = el;
            }}
            type="button"
            role="tab"
            id={`tab-${tab.id}`}
            aria-selected={active === tab.id}
            aria-controls={`panel-${tab.id}`}
            tabIndex={active === tab.id ? 0 : -1}
            onClick={() => setActive(tab.id)}
            onKeyDown={onKeyDown}
            className={`rounded-md px-4 py-2 font-semibold transition-colors ${
              active === tab.id ? 'bg-accent-strong text-white' : 'text-muted hover:text-text'
            }`}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {TABS.map((tab) => (
        <div key={tab.id} role="tabpanel" id={`panel-${tab.id}`} aria-labelledby={`tab-${tab.id}`} hidden={active !== tab.id} tabIndex={0}>
          {tab.id === 'image' ? <ImageTab /> : <VideoTab />}
        </div>
      ))}
      <p className="sr-only" role="status" aria-live="polite" data-testid="tool-status">
        {status}
      </p>
    </div>
  );
}
