import type { FormEvent, ReactNode, RefObject } from 'react';
import UploadCard, { type UploadCardProps } from '../upload/UploadCard';
import ResultPanel, { type ResultPanelProps } from '../result/ResultPanel';

type Props = {
  /** Above the upload card (the video tab's "service unavailable" alert). */
  notice?: ReactNode;
  upload: Omit<UploadCardProps, 'disabled'>;
  /** The options form: its accessible name, its fields (shown once a file is chosen) and the text before that. */
  formLabel: string;
  options: ReactNode;
  /** The options show once a file is chosen, or when this is set (a video made from a finished image). */
  ready?: boolean;
  noFileText: string;
  onSubmit: (event: FormEvent) => void;
  submitText: string;
  submitDisabled: boolean;
  panelRef: RefObject<HTMLElement | null>;
  panel: Omit<ResultPanelProps, 'title' | 'children'>;
  /** The finished result, if any. */
  children?: ReactNode;
};

/** A tool tab's layout: the upload card and the options form on one side, the result panel on the other. */
export default function ToolTabLayout({ notice, upload, formLabel, options, ready, noFileText, onSubmit, submitText, submitDisabled, panelRef, panel, children }: Props) {
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <div className="space-y-6">
        {notice}
        <UploadCard {...upload} disabled={panel.busy} />
        <form className="card space-y-4" onSubmit={onSubmit} noValidate aria-label={formLabel}>
          {upload.file || ready ? options : <p className="text-sm text-muted">{noFileText}</p>}
          <button type="submit" className="btn-primary w-full" disabled={submitDisabled}>
            {submitText}
          </button>
        </form>
      </div>
      <ResultPanel ref={panelRef} title="Result" {...panel}>
        {children}
      </ResultPanel>
    </div>
  );
}
