import { useEffect, useId, useRef, useState, type DragEvent } from 'react';
import { Upload } from 'lucide-react';
import { droppedEntries, filesOf } from '../../../lib/tool/dropped-files';

/**
 * Upload card: drag and drop or a file button, and a preview of the chosen file. The preview uses an object
 * URL in an <img decoding="async">, so even a 15 MB photo decodes off the main thread without freezing
 * the page. `onFile` decides whether the file is accepted (it shows the message when not). With `onFiles` the card
 * takes many files at once (a multi-select, several files or a folder dropped, walked to any depth): two or more go
 * there, a single one to `onFile` as before.
 */
export interface UploadCardProps {
  title: string;
  accept: string;
  hint: string;
  file: File | null;
  disabled?: boolean;
  onFile: (file: File) => void;
  onFiles?: (files: File[]) => void;
}

export default function UploadCard({ title, accept, hint, file, disabled, onFile, onFiles }: UploadCardProps) {
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const [previewUrl, setPreviewUrl] = useState<string | null>(null);
  // Browsers cannot display TIFF: say so instead of showing a broken image.
  const [previewFailed, setPreviewFailed] = useState(false);

  useEffect(() => {
    if (!file) {
      setPreviewUrl(null);
      return;
    }
    const url = URL.createObjectURL(file);
    setPreviewFailed(false);
    setPreviewUrl(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  const takeAll = (files: File[]) => {
    if (onFiles && files.length > 1) onFiles(files);
    else if (files[0]) onFile(files[0]);
  };
  const take = (list: FileList | null | undefined) => {
    takeAll(Array.from(list ?? []));
    if (inputRef.current) inputRef.current.value = '';
  };
  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setOver(false);
    if (disabled) return;
    // A dropped folder is read through its entries, which exist only during the drop event.
    const entries = onFiles ? droppedEntries(event.dataTransfer) : null;
    if (entries?.some((e) => e.isDirectory)) void filesOf(entries).then(takeAll);
    else take(event.dataTransfer.files);
  };

  return (
    <section className="card" aria-label={title}>
      <h2 className="mb-3 text-lg font-semibold">{title}</h2>
      <div
        onDragOver={(e) => {
          e.preventDefault();
          if (!disabled) setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        data-testid="dropzone"
        className={`flex flex-col items-center justify-center gap-3 rounded-lg border-2 border-dashed p-6 text-center transition-colors ${
          over ? 'border-accent bg-surface-2' : 'border-border'
        }`}
      >
        {previewUrl && previewFailed ? (
          <p className="rounded-md bg-surface-2 px-4 py-6 text-sm" data-testid="upload-preview">
            Your browser cannot preview this file type; it will still be processed.
          </p>
        ) : previewUrl ? (
          <img
            onError={() => setPreviewFailed(true)}
            src={previewUrl}
            alt={`Preview of ${file?.name ?? 'the chosen file'}`}
            decoding="async"
            className="max-h-64 w-auto rounded-md object-contain"
            data-testid="upload-preview"
          />
        ) : (
          <Upload aria-hidden="true" className="h-10 w-10 text-muted" />
        )}
        <p className="text-sm text-muted">{file ? file.name : onFiles ? 'Drag and drop photos or a folder here, or' : 'Drag and drop a photo here, or'}</p>
        <label htmlFor={inputId} className={`btn-secondary cursor-pointer ${disabled ? 'pointer-events-none opacity-60' : ''}`}>
          {file ? 'Choose another file' : onFiles ? 'Choose files' : 'Choose a file'}
        </label>
        <input
          id={inputId}
          ref={inputRef}
          type="file"
          accept={accept}
          multiple={!!onFiles}
          className="sr-only"
          disabled={disabled}
          onChange={(e) => take(e.currentTarget.files)}
          aria-describedby={`${inputId}-hint`}
        />
        <p id={`${inputId}-hint`} className="text-xs text-muted">
          {hint}
        </p>
      </div>
    </section>
  );
}
