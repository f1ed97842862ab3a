import { CHAT_LIMITS } from './request-limits';

export interface AttachedFile {
  file: File;
  /** base64 data URL of the attached file. */
  dataUrl: string;
}

export const MAX_FILE_MB = CHAT_LIMITS.maxAttachmentBytes / (1024 * 1024);

export function tooLargeMessage(name: string): string {
  return `"${name}" is too large. Files can be at most ${MAX_FILE_MB} MB.`;
}

export function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => (typeof reader.result === 'string' ? resolve(reader.result) : reject(new Error('No data')));
    reader.onerror = () => reject(reader.error ?? new Error('Read failed'));
    reader.readAsDataURL(file);
  });
}

/** Saves text as a file through a temporary link: no server round trip. */
export function downloadText(filename: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
